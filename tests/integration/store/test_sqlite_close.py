"""Closing the SQLite store while other threads use it (the chat's, at a stop): they get an
error naming the closed database, and the process goes on. sqlite3 freeing a connection under
a statement in flight crashed the whole process (SIGSEGV), so this runs in a Python of its
own, and a crash fails it."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import run_python

HAMMER = """
import sys, threading, time
from datetime import UTC, datetime
from hunter.errors import HunterError
from hunter.store.sqlite import SQLiteStore

store = SQLiteStore(sys.argv[1])
store.migrate()
failed = []

def hammer():
    now = datetime.now(UTC)
    while True:
        try:
            store.chat.take_stranded("w", now, now, 50)
        except HunterError as exc:
            failed.append(str(exc))
            return

threads = [threading.Thread(target=hammer) for _ in range(4)]
for thread in threads:
    thread.start()
time.sleep(0.3)
store.close()
for thread in threads:
    thread.join(5)
print(len(failed), failed[0])
"""


def test_closing_the_store_under_busy_threads_is_an_error_for_them_not_a_crash(
    tmp_path: Path,
) -> None:
    done = run_python(HAMMER, str(tmp_path / "hunter.db"))
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    count, _, error = done.stdout.strip().partition(" ")
    assert count == "4"  # every thread was told, none left hanging
    assert "Cannot operate on a closed database" in error
