"""Logs keep what a bug report needs (the traceback) and never a secret."""

from __future__ import annotations

import io
import json
import logging

import pytest

from hunter.logs import JsonFormatter
from hunter.redact import RedactingFilter, register

SECRET = "line-token-never-in-a-log-9f8e7d"


def logged(formatter: logging.Formatter) -> str:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter)
    handler.addFilter(RedactingFilter())
    logger = logging.getLogger("hunter.test_redact")
    logger.handlers[:] = [handler]
    logger.propagate = False
    register(SECRET)
    try:
        connect = f"postgresql://hunter:pw-{SECRET}@db.test/hunter"
        raise ValueError(f"cannot use {connect}")
    except ValueError:
        logger.exception("poll failed unexpectedly with token %s", SECRET)
    return stream.getvalue()


def test_a_traceback_is_kept_and_redacted() -> None:
    text = logged(logging.Formatter("%(levelname)s %(message)s"))
    assert "Traceback (most recent call last)" in text and "raise ValueError" in text
    assert "ValueError: cannot use postgresql://hunter:***@db.test/hunter" in text
    assert SECRET not in text


def test_a_json_record_carries_the_redacted_traceback() -> None:
    [line] = logged(JsonFormatter()).splitlines()
    record = json.loads(line)
    assert record["level"] == "error" and record["message"].endswith("token ***")
    assert "raise ValueError" in record["traceback"] and SECRET not in line


def test_a_cut_text_never_shows_the_first_part_of_a_secret() -> None:
    """A vendor's error quoting a token back, cut to fit a line: redacted first, then cut.
    Cut first, the token would no longer be found whole and its first part would show."""
    from hunter.app.checkup import _guarded
    from hunter.redact import clip

    token = "123456789:AAH" + "x" * 30
    register(token)
    quoted = "Client error '401 Unauthorized' for url 'https://api.telegram.org/bot" + token
    assert token[:12] in quoted[:100]  # the naive cut would show its start
    assert token[:12] not in clip(quoted, 100) and clip(quoted, 100).endswith("bot***")
    said: list[str] = []

    def failing() -> int:
        raise RuntimeError("e" * 80 + " " + quoted)  # an SDK's own error; 160 cuts the token

    assert _guarded("Telegram", failing, said.append) == 1
    [line] = said
    assert line.startswith("Telegram: FAILED:") and token[:8] not in line, line


def test_a_secret_pasted_as_a_chats_id_is_named_and_never_shown() -> None:
    """A new user pasted the bot token as `owner`, and a Discord webhook's URL as a chat's
    `to`: the error said "got '<the token>'". It now says which secret it is and where it
    belongs, and no line hunter prints shows it (redact knows a secret's shape)."""
    from hunter import channels
    from hunter.errors import ConfigError
    from hunter.redact import redact
    from hunter.settings.config import parse_config

    token = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
    hook = "https://discord.com/api/webhooks/123456/SECRETwebhookTOKENabc"
    cases = (
        ({"owner": token}, "TELEGRAM_BOT_TOKEN", token),
        ({"owner": f"telegram:{token}"}, "TELEGRAM_BOT_TOKEN", token),
        ({"chats": [{"name": "team", "to": hook}]}, "DISCORD_WEBHOOK_<NAME>", "SECRETwebhook"),
    )
    for raw, variable, secret in cases:
        config = parse_config({**raw, "sources": [{"preset": "remoteok"}]})
        with pytest.raises(ConfigError) as refused:
            channels.check(config)
        said = str(refused.value)
        assert variable in said and "never in hunter.toml" in said and secret not in said
    for secret in (token, hook, "eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoic2VydmljZSJ9.abcdefghijkl"):
        assert "***" in redact(f"got {secret!r}") and secret not in redact(f"got {secret!r}")
    assert redact("job 12345: Senior Developer (Go)") == "job 12345: Senior Developer (Go)"
