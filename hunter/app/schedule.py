"""`hunter run`: poll now, then whenever the next source is due, until SIGTERM or SIGINT.

APScheduler 3.x BlockingScheduler with the config's timezone. After each poll the job's next
run is moved to the earliest next read the store holds (hunter/poll/timetable.py), and it
runs at least every interval_minutes (a retry waiting in the outbox goes then at the
latest). coalesce and max_instances=1: a late or slow poll never piles up; a generous
misfire grace: a poll delayed by a busy host still runs. The daily prune needs no job of its
own: every poll prunes when the last prune recorded in the database is over 24 h old, so a
process restarted more often than daily still prunes.

On SIGTERM (Render and Railway send it on every deploy, and kill 30 s later) fetches in flight
are cancelled and no new push starts; the HTTP side stops listening once the requests it is
answering are answered; the chat finishes the replies in flight and leaves the events it has
not started in the store for the next hunter; a push in flight finishes or, if it has not
within STOP_GRACE_SECONDS, stays `sending` for the lease to recover. The process exits 0
either way.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from apscheduler.schedulers import SchedulerNotRunningError
from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.interval import IntervalTrigger

from hunter.app.service import Hunter
from hunter.app.stopping import SignalStop
from hunter.errors import HunterError, StoreGone
from hunter.web.health import Liveness
from hunter.web.server import HttpServer

if TYPE_CHECKING:
    from hunter.chat import Inbox
    from hunter.web.routes import Hook, Page

log = logging.getLogger("hunter")

WAKE_MIN_SECONDS = 1.0  # a source due again at once waits this long: no busy loop
STOP_GRACE_SECONDS = 25.0  # Render gives 30 s after SIGTERM; Railway as long as drainingSeconds


def run_forever(
    hunter: Hunter,
    port: int | None = None,
    inbox: Inbox | None = None,
    hooks: Sequence[Hook] = (),
    pages: Sequence[Page] = (),
) -> None:
    """Poll until SIGTERM/SIGINT; with `port`, also serve /healthz (and the chats' webhooks,
    `hooks`, into `inbox`) there."""
    config = hunter.config
    tz = ZoneInfo(config.timezone)
    interval = config.interval_minutes * 60
    scheduler = BlockingScheduler(timezone=tz)
    busy = threading.Lock()
    gone: list[StoreGone] = []
    health = Liveness(stale_after=timedelta(seconds=2 * interval))

    def stop_when_asked() -> None:
        """Stop the scheduler once hunter is asked to stop. Not in the signal handler: it runs
        in the main thread, which may be inside the scheduler handing a poll to its thread
        pool, holding the lock the scheduler's shutdown takes (a SIGTERM in the first moment
        of a run waited forever there)."""
        hunter.stop.wait()
        stop_scheduler()

    def stop_scheduler() -> None:
        """Once, from whichever thread sees the stop first; a scheduler not started yet never
        starts (below), or its first poll stops it."""
        with contextlib.suppress(SchedulerNotRunningError):
            scheduler.shutdown(wait=False)

    # Before anything answers: a platform that saw /healthz answer may stop hunter at once (a
    # deploy rolled back), and a SIGTERM before the handler was the default action's -15,
    # nothing said and nothing finished.
    threading.Thread(target=stop_when_asked, name="stop", daemon=True).start()
    SignalStop(hunter.stop).install()
    server = HttpServer(health, port, hooks, pages=pages).start() if port else None

    first = True  # the first poll reads a fixed schedule's sources at once, as before
    failed = 0  # polls failed in a row

    def poll() -> None:
        nonlocal first, failed
        with busy:
            if hunter.stop.is_set():  # a stop that came as the scheduler started
                stop_scheduler()
                return
            try:
                hunter.poll(ahead=0.0, fixed_now=first)  # the sources due now
                first = False
                health.polled(datetime.now(tz))
                failed = 0
                wake(hunter.next_wake())
            except StoreGone as exc:  # polling on would forget what was sent: stop
                gone.append(exc)
                hunter.stop.set()
                stop_scheduler()
            except HunterError as exc:
                # Tried again as a failed push is: after the first of backoff_seconds, doubled
                # each time it fails again, up to the interval (a database's blip of seconds
                # delayed alerts by half an hour)
                failed += 1
                first_wait = max(config.backoff_seconds[0], WAKE_MIN_SECONDS)
                after = min(first_wait * 2 ** (failed - 1), interval)
                log.error("poll failed: %s; tried again in %s", exc, _seconds(after))
                wake(datetime.now(tz) + timedelta(seconds=after))
            except Exception:  # a bug must not kill the scheduler: log it and poll again later
                log.exception("poll failed unexpectedly")

    scheduler.add_job(
        poll,
        IntervalTrigger(seconds=interval, jitter=min(60.0, interval * 0.05), timezone=tz),
        id="poll",
        next_run_time=datetime.now(tz),
        coalesce=True,
        max_instances=1,
        misfire_grace_time=max(60, int(interval)),
    )

    def wake(at: datetime) -> None:
        """Move the next poll to `at` (not sooner than WAKE_MIN_SECONDS from now)."""
        soonest = datetime.now(tz) + timedelta(seconds=WAKE_MIN_SECONDS)
        if not hunter.stop.is_set():
            scheduler.modify_job("poll", next_run_time=max(at.astimezone(tz), soonest))

    def nudge() -> None:
        """A notice a person waits on was queued from the chat: deliver it now (or, should
        the scheduler not take it, with the next poll: the chat's answer never fails for it)."""
        hunter.nudge()
        try:
            wake(datetime.now(tz))
        except Exception:  # a scheduler stopping, or not started yet
            log.debug("the next poll delivers the notice", exc_info=True)

    if inbox is not None:
        inbox.on_notice(nudge)
    if not hunter.stop.is_set():
        scheduler.start()
    # The stop request cancels fetches at once and starts no new push; what is still running
    # (a push or a reply up to its deadline) gets the grace, then the process exits
    # regardless: the platform's kill would come a few seconds later and be no cleaner.
    deadline = time.monotonic() + STOP_GRACE_SECONDS
    if server is not None:  # requests being answered finish; then no one is heard
        server.close(grace=2.0)
    if inbox is not None:  # replies in flight finish; queued events go back to the store
        inbox.stop(deadline)
    finished = busy.acquire(timeout=max(0.0, deadline - time.monotonic()))
    if not finished:
        log.warning(
            "the poll in flight did not finish in time; its rows stay `sending` until their "
            "lease ends: then a channel that takes a retry key (LINE) is sent them again under "
            "it, and one that takes none (Telegram, Discord) marks them delivery unknown, for "
            "`hunter retry`"
        )
        log.info("stopped")
        logging.shutdown()
        os._exit(0)  # the poll's thread still holds the store: leave it to the OS
    busy.release()
    if gone:
        raise gone[0]
    log.info("stopped")


def _seconds(seconds: float) -> str:
    """A wait as the log says it: "60 s", "4 min"."""
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.0f} min"
