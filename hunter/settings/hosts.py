"""Where hunter runs, as the host's own variables say: a platform whose log nobody reads as a
chat (so alerts never go to the terminal there), and whose disk may not outlive a deploy (so
a SQLite file there would forget what was sent).

Each platform sets its variables in every service's environment, by its documentation:
Render (RENDER, RENDER_SERVICE_ID), Railway (RAILWAY_PROJECT_ID, RAILWAY_ENVIRONMENT_NAME,
RAILWAY_SERVICE_ID), GitHub Actions (GITHUB_ACTIONS=true), Heroku (DYNO), Fly.io
(FLY_APP_NAME), Cloud Run (K_SERVICE) and Kubernetes (KUBERNETES_SERVICE_HOST). A service of
one's own server under systemd is told by its stdout being the journal (JOURNAL_STREAM).
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass

from hunter.errors import ConfigError


@dataclass(frozen=True)
class Host:
    name: str
    marks: tuple[str, ...]  # variables it sets in every service's environment
    wiped: str | None  # why a file on its disk is lost, where it is


HOSTS = (
    Host("Render", ("RENDER", "RENDER_SERVICE_ID"), "the disk is wiped on every deploy"),
    Host(
        "Railway",
        ("RAILWAY_PROJECT_ID", "RAILWAY_ENVIRONMENT_NAME", "RAILWAY_SERVICE_ID"),
        "the disk is wiped on every deploy",
    ),
    Host(
        "GitHub Actions",
        ("GITHUB_ACTIONS",),
        "each run starts on a new machine (every run would prime, and none alert)",
    ),
    Host("Heroku", ("DYNO",), "the disk is wiped on every restart"),
    Host("Cloud Run", ("K_SERVICE",), "the disk is memory, lost on every restart"),
    Host("Fly.io", ("FLY_APP_NAME",), None),  # a volume may keep a file
    Host("Kubernetes", ("KUBERNETES_SERVICE_HOST",), None),
)


# A service of one's own server under systemd, whose output goes to the journal: nobody reads
# it as a chat either (a new user's find: alerts "sent" there were lost)
JOURNAL = Host("a systemd service (its output goes to the journal)", ("JOURNAL_STREAM",), None)


def host_of(environ: Mapping[str, str]) -> Host | None:
    """The platform hunter runs on, or None: a person's own machine, whose terminal is read."""
    found = next((h for h in HOSTS if any(environ.get(mark) for mark in h.marks)), None)
    return found or (JOURNAL if _output_is_the_journal(environ) else None)


def _output_is_the_journal(environ: Mapping[str, str]) -> bool:
    """Whether stdout is systemd's journal: JOURNAL_STREAM holds the device and inode of the
    stream systemd connected, for a process to compare with its own (systemd.exec(5)). Only
    that: a terminal a systemd service opened passes the variable on to its shells."""
    device, _, inode = environ.get("JOURNAL_STREAM", "").partition(":")
    if not (device.isdigit() and inode.isdigit()):
        return False
    try:
        stat = os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False
    return (stat.st_dev, stat.st_ino) == (int(device), int(inode))


def refuse_ephemeral_sqlite(environ: Mapping[str, str]) -> None:
    """A SQLite file on a disk that does not outlive a deploy forgets what was sent, and the
    next start alerts it all again (or, on a new machine each run, primes and never alerts)."""
    host = host_of(environ)
    if host and host.wiped and environ.get("HUNTER_ALLOW_EPHEMERAL_SQLITE") != "1":
        raise ConfigError(
            f"on {host.name} {host.wiped}, so a SQLite file would forget what was sent: set "
            "DATABASE_URL or SUPABASE_URL (or HUNTER_ALLOW_EPHEMERAL_SQLITE=1 to accept repeats)"
        )
