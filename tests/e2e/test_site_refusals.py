"""A site that refuses a read says why, and hunter passes the why on: `hunter check` and the
poll log show the site's own message beside the HTTP status, so "add your token" is one look
away. A credential a source sends (an API key header) never shows, even when the site quotes
it back in its refusal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cli import base_env, run_hunter, write_config
from tests.support.local_server import LocalServer, QuietHandler

TOKEN = "fl-oauth-4c1d9e7b2a"


class Refusing(QuietHandler):
    """Answers every GET 401 with a JSON error quoting the token it was sent, as some APIs
    do ("invalid token <value>")."""

    def do_GET(self) -> None:
        sent = self.headers.get("freelancer-oauth-v1") or self.path.rpartition("api_key=")[2]
        self.send_json(
            401,
            {
                "status": "error",
                "message": f"The token {sent} is not valid; log in again",
                "error_code": "AuthExceptionCodes.NOT_AUTHENTICATED",
            },
        )


@pytest.fixture
def site() -> Iterator[LocalServer]:
    server = LocalServer(Refusing)
    yield server
    server.close()


@pytest.mark.parametrize("command", [["check"], ["run", "--once"]])
def test_the_sites_reason_shows_and_the_token_never_does(
    tmp_path: Path, site: LocalServer, command: list[str]
) -> None:
    source = {
        "preset": "freelancer",
        "url": site.url + "/api/projects/0.1/projects/active/",
        "headers": {"freelancer-oauth-v1": TOKEN},
    }
    write_config(tmp_path, [source])
    done = run_hunter(tmp_path, *command, env=base_env(tmp_path))
    said = done.stdout + done.stderr
    assert "HTTP 401" in said and "is not valid; log in again" in said, said
    assert TOKEN not in said and "The token *** is not valid" in said
    assert "Traceback" not in said


def test_a_key_in_the_url_and_a_password_never_show(tmp_path: Path, site: LocalServer) -> None:
    """The same refusal for a source that carries its key in the url's query, and a user and
    password before its host: neither shows in what `hunter check` prints."""
    host = site.url.removeprefix("http://")
    source = {
        "name": "api",
        "kind": "json",
        "url": f"http://reader:pw-9d2c81f0@{host}/jobs?api_key={TOKEN}",
        "items": "jobs",
        "id": "id",
        "title": "title",
    }
    write_config(tmp_path, [source])
    done = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    said = done.stdout + done.stderr
    assert "HTTP 401 from 127.0.0.1" in said and "The token *** is not valid" in said, said
    assert TOKEN not in said and "pw-9d2c81f0" not in said
