"""Where hunter's log lines go and what they look like: stderr, secrets redacted, plain text
for people or one JSON object per line for log platforms (HUNTER_LOG_FORMAT=json)."""

from __future__ import annotations

import json
import logging
import os
import sys

from hunter.redact import RedactingFilter
from hunter.settings.environment import value


class JsonFormatter(logging.Formatter):
    """One JSON object per line, for log platforms (HUNTER_LOG_FORMAT=json)."""

    def format(self, record: logging.LogRecord) -> str:
        document = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S%z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_text:
            document["traceback"] = record.exc_text
        return json.dumps(document, ensure_ascii=False)


def json_logs() -> bool:
    return value(os.environ, "HUNTER_LOG_FORMAT").lower() == "json"


LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


def setup_logging() -> None:
    """Logs to stderr, secrets redacted; level from HUNTER_LOG_LEVEL, JSON lines with
    HUNTER_LOG_FORMAT=json."""
    level = value(os.environ, "HUNTER_LOG_LEVEL", "INFO").upper()
    unknown = level not in LEVELS
    level = "INFO" if unknown else level
    handler = logging.StreamHandler(sys.stderr)
    if json_logs():
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(
            logging.Formatter("%(asctime)s %(levelname)s %(message)s", "%Y-%m-%dT%H:%M:%S%z")
        )
    handler.addFilter(RedactingFilter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(getattr(logging, level, logging.INFO))
    for noisy in ("httpx", "httpcore", "apscheduler", "urllib3"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    if unknown:
        logging.getLogger("hunter").warning(
            "HUNTER_LOG_LEVEL is not one of %s: INFO is used", ", ".join(LEVELS)
        )
