"""The environment as a new user pastes it (settings/environment.py)."""

from __future__ import annotations

import pytest

from hunter.errors import ConfigError
from hunter.settings.environment import read_environment


@pytest.mark.parametrize(
    ("url", "character"),
    [
        ("postgresql://bob:TopSecret@Xyz99@127.0.0.1:5432/hunter", "@"),
        ("postgresql://bob:Top/Secret99@db.example.test/hunter", "/"),
        ("postgres://bob:Top#Secret99@db.example.test/hunter", "#"),
        ("postgresql://bob:Top?Secret99@db.example.test/hunter", "?"),
    ],
)
def test_a_password_written_as_it_is_is_refused_without_showing_it(
    url: str, character: str
) -> None:
    """A new user's password with an "@" made libpq try the host 'Xyz99@127.0.0.1', the end of
    the password in the error: it is refused at once, naming the character and its encoding,
    and no part of the password shows."""
    with pytest.raises(ConfigError) as refused:
        read_environment({"DATABASE_URL": url})
    said = str(refused.value)
    assert f'holds "{character}" as it is' in said and "percent-encoded" in said
    assert "Secret" not in said and "Xyz99" not in said


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://bob:Top%40Secret@127.0.0.1:5432/hunter",
        "postgresql://bob:pw@db.example.test:5432/hunter?options=a@b",
        "postgresql://db.example.test:5432/hunter?user=a@b",
        "postgresql://bob@/hunter?host=/var/run/postgresql",
        "postgresql:///hunter",
    ],
)
def test_urls_as_databases_give_them_are_read(url: str) -> None:
    assert read_environment({"DATABASE_URL": url}).database_url == url
