"""The environment as a new user pastes it (settings/environment.py)."""

from __future__ import annotations

from pathlib import Path

import certifi
import pytest

from hunter.channels.telegram import settings as telegram_settings
from hunter.errors import ConfigError
from hunter.settings.config import parse_config
from hunter.settings.environment import cleaned, read_environment

SOURCE = {"name": "b", "kind": "rss", "url": "https://x.test/feed"}


@pytest.mark.parametrize(
    ("url", "character"),
    [
        ("postgresql://bob:TopSecret@Xyz99@127.0.0.1:5432/hunter", "@"),
        ("postgresql://bob:Top/Secret99@db.example.test/hunter", "/"),
        ("postgres://bob:Top#Secret99@db.example.test/hunter", "#"),
        ("postgresql://bob:Top?Secret99@db.example.test/hunter", "?"),
        # A new user's find: an "@" and then "?", "#" or "/" slipped through, and libpq said
        # the password's end back ("SECRETTAIL@127.0.0.1:5544/...")
        ("postgresql://bob:Top@Secret?Xyz99@127.0.0.1:5544/hunter", "@"),
        ("postgresql://bob:Top@Secret#Xyz99@127.0.0.1:5544/hunter", "@"),
        ("postgresql://bob:p@Secret#w/rd?Xyz99@127.0.0.1:5544/hunter", "@"),
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


def test_certificates_named_that_are_not_there_are_said_at_once(tmp_path: Path) -> None:
    """A new user's find: SSL_CERT_FILE naming no file failed each source's read with a bare
    FileNotFoundError, and each channel's call the same. It is said when hunter starts."""
    with pytest.raises(ConfigError) as said:
        read_environment({"SSL_CERT_FILE": str(tmp_path / "company-ca.pem")})
    assert str(said.value) == (
        f"SSL_CERT_FILE names {str(tmp_path / 'company-ca.pem')!r}, which is no file here: set "
        "it to the certificates to trust (PEM), or unset it for certifi's"
    )
    notes = tmp_path / "notes.txt"
    notes.write_text("not a certificate\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="which holds no certificate hunter can read"):
        read_environment({"SSL_CERT_FILE": str(notes)})
    with pytest.raises(ConfigError, match=r"SSL_CERT_DIR names .*, which is no folder here"):
        read_environment({"SSL_CERT_DIR": str(tmp_path / "certs")})
    bundle = certifi.where()  # a real bundle, and a real folder, are taken
    assert read_environment({"SSL_CERT_FILE": bundle, "SSL_CERT_DIR": str(tmp_path)})


@pytest.mark.parametrize(
    "proxy", ["http://proxy.test:3128", "https://me:pw@proxy.test", "proxy.test:3128"]
)
def test_a_proxy_httpx_can_go_through_is_taken(proxy: str) -> None:
    assert read_environment({"HTTPS_PROXY": proxy})


@pytest.mark.parametrize("proxy", ["socks5://me:s3cret@proxy.test:1080", "socks5h://proxy.test"])
def test_a_socks_proxy_is_refused_without_its_url(proxy: str) -> None:
    with pytest.raises(ConfigError) as said:
        read_environment({"all_proxy": proxy})
    assert str(said.value).startswith("ALL_PROXY (or its lowercase) names a socks5")
    assert "proxy.test" not in str(said.value) and "s3cret" not in str(said.value)


def test_a_proxy_variable_httpx_does_not_read_is_not_judged() -> None:
    """httpx reads HTTP_PROXY, HTTPS_PROXY and ALL_PROXY; a SOCKS proxy for another tool
    (FTP_PROXY, a company's GIT_PROXY) is none of hunter's business."""
    assert read_environment({"FTP_PROXY": "socks5://proxy.test:1080", "no_proxy": "*"})


@pytest.mark.parametrize(
    "proxy", ["http://[bad", "http://me:pw@proxy.test:abc", "http://", "http://p:99999"]
)
def test_a_proxy_address_that_cannot_be_read_is_said_not_crashed_on(proxy: str) -> None:
    """A new user's find: these crashed the first request with a traceback (httpx's
    InvalidURL, ValueError), after `run` had made its database."""
    with pytest.raises(ConfigError) as said:
        read_environment({"HTTPS_PROXY": proxy})
    assert str(said.value).startswith("HTTPS_PROXY (or its lowercase) is no proxy's address")
    assert "pw" not in str(said.value)


def test_a_token_pasted_with_its_header_word_says_to_take_it_off() -> None:
    """A new user's finds: "Bearer abc" (an Authorization header) said only "holds a space";
    "bot123:..." (from an API address) said "not a bot token"."""
    with pytest.raises(ConfigError) as said:
        cleaned({"LINE_CHANNEL_ACCESS_TOKEN": "Bearer abc.def"}, ["LINE_<NAME>"], ["LINE_<NAME>"])
    assert str(said.value) == (
        'LINE_CHANNEL_ACCESS_TOKEN starts with "Bearer ", as an HTTP header says it: set it to '
        "what follows, the token alone"
    )
    assert "abc" not in str(said.value)
    token = "bot123456:AAHtest-token-for-the-stand-in_0123456"
    with pytest.raises(ConfigError) as said:
        telegram_settings.read({"TELEGRAM_BOT_TOKEN": token})
    assert str(said.value).startswith('TELEGRAM_BOT_TOKEN starts with "bot", as in an API')
    assert "AAH" not in str(said.value)


@pytest.mark.parametrize(
    ("key", "variable"),
    [
        ("token", "set LINE_CHANNEL_ACCESS_TOKEN or TELEGRAM_BOT_TOKEN where"),
        ("bot_token", "set TELEGRAM_BOT_TOKEN where"),
        ("webhook_url", "or DISCORD_WEBHOOK_<NAME> where"),
        ("password", "set DATABASE_URL where"),
    ],
)
def test_a_secret_written_in_the_file_names_its_variable(key: str, variable: str) -> None:
    """A new user's find: `token = ...` in a [[chats]] said "set TOKEN", a variable there is
    not. Each channel registers its secrets (hunter/channels/__init__.py)."""
    import hunter.channels  # noqa: F401  # registers them, as the command line does at start

    table = {"name": "tg", "to": "telegram:5", key: "123:abc"}
    with pytest.raises(ConfigError) as said:
        parse_config({"sources": [SOURCE], "chats": [table]})
    assert variable in str(said.value) and "123:abc" not in str(said.value)


@pytest.mark.parametrize(
    ("environ", "said"),
    [
        # A new user's find: the key without its URL was passed over, and the local SQLite
        # file stood in for the project's database
        ({"SUPABASE_SERVICE_ROLE_KEY": "sb_secret_abc"}, "SUPABASE_SERVICE_ROLE_KEY is set but"),
        ({"SUPABASE_KEY": "sb_secret_abc"}, "SUPABASE_KEY is set but SUPABASE_URL is not"),
        # ... and the dashboard's address bar for the project's URL failed later, on DNS
        (
            {
                "SUPABASE_URL": "https://supabase.com/dashboard/project/abcdefghijkl/editor",
                "SUPABASE_SERVICE_ROLE_KEY": "sb_secret_abc",
            },
            "the dashboard's address; set it to the project's URL, https://abcdefghijkl.supabase.co",
        ),
    ],
)
def test_a_supabase_setting_half_set_or_from_the_dashboard_names_the_fix(
    environ: dict[str, str], said: str
) -> None:
    with pytest.raises(ConfigError) as refused:
        read_environment(environ)
    assert said in str(refused.value) and "sb_secret_abc" not in str(refused.value)
