"""The application: the CLI and its commands, the long-running service and its schedule, the demo,
`hunter check`."""

import contextlib
import logging
import os
import sys
import threading


def main() -> int:
    """The `hunter` command (pyproject's entry point): the command line run, then the process
    left at once."""
    return leave(run())


def run() -> int:
    """hunter loaded with the garbage collector held (app/collector.py), then the command line
    run: its exit code."""
    from hunter.app import collector

    with collector.loading():
        from hunter.app import cli, commands  # noqa: F401 - every command needs both

    return cli.main()


def leave(code: int) -> int:
    """End the process now that its command is done, skipping the interpreter's teardown:
    freeing every module and object one by one is 18 ms of a 220 ms quiet cron run
    (bench/peer.py) and does nothing a finished command needs. Its store is closed, its
    subprocesses waited for and its files closed by then; what it printed and logged is
    flushed here, as the exit would. Only when no other thread is alive: a thread still at
    work is waited for by Python's own exit, as before (the returned code)."""
    if threading.active_count() > 1:
        return code
    logging.shutdown()  # what atexit would do: flush and close the log's handlers
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more to say
            stream.flush()
    os._exit(code)
