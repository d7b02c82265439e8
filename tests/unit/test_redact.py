"""Logs keep what a bug report needs (the traceback) and never a secret."""

from __future__ import annotations

import io
import json
import logging

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
