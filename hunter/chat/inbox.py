"""Where the chats' webhooks (hooks.py) hand their events, and where they wait to be answered.

`keep` runs while LINE or Telegram waits (LINE wants a 200 within 2 s): it ignores events
dated outside the event memory (replayed ones: older than 7 days, or far ahead of this clock),
keeps the new ones in the store (500 when it cannot, so that they are sent again) and queues
them: a few milliseconds. An event id is kept once, so an event sent twice is answered once.

Workers then answer them chat by chat, in turn (`FairQueue`), the configured chat first: a
stranger's group sending 200 messages waits behind nobody but itself, many strangers' chats
wait behind the owner's, and each chat's events are answered one at a time, in order. What
does not fit a chat's queue stays in the store. A sweeper takes over what a stopped or dead
worker left there. `stop` starts no new event, lets the replies in flight finish within the
platform's grace, and lets go of the rest in the store for the next hunter.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from hunter.chat.answers import TOO_FAST, Chat
from hunter.deliver.channel import ChatEvent
from hunter.errors import HunterError, StoreRefused
from hunter.store import Store
from hunter.store.chat import EVENT_MEMORY, EventRow
from hunter.web.limits import Throttled

log = logging.getLogger("hunter")

AHEAD = timedelta(hours=1)  # an event dated further ahead than this is not the channel's
HOLD = timedelta(minutes=2)  # a worker's hold on an event it took (a reply is over in 20 s)
SWEEP_EVERY = 60.0  # seconds between two looks for events a stopped worker left
WORKERS = 3  # events answered at once (each waits on LINE's or Telegram's API)
CHAT_BACKLOG = 50  # events one chat may have queued in memory; the rest wait in the store
TOO_FAST_AGAIN = 60.0  # seconds before a chat sending too fast is told so again
PACE_CHATS = 10_000  # chats whose last minute of commands is remembered at once


class FairQueue:
    """Events by chat; `get` hands out the next chat in turn that nobody is answering, the
    configured chats (`first`) before the others."""

    def __init__(self, backlog: int = CHAT_BACKLOG, first: frozenset[str] = frozenset()) -> None:
        self._backlog = backlog
        self._first = first
        self._chats: dict[str, deque[ChatEvent]] = {}
        self._turns: deque[str] = deque()  # chats with events waiting and nobody on them
        self._first_turns: deque[str] = deque()  # the same, of the configured chats
        self._busy: set[str] = set()
        self._changed = threading.Condition()
        self._closed = False

    def put(self, event: ChatEvent, first: bool = False) -> bool:
        """Queue `event` (`first`: before the chat's others, past its backlog); False when
        its chat's queue is full or the queue is closed."""
        chat = event.chat_id or ""
        with self._changed:
            waiting = self._chats.setdefault(chat, deque())
            if self._closed or (len(waiting) >= self._backlog and not first):
                return False
            if first:
                waiting.appendleft(event)
            else:
                waiting.append(event)
            if len(waiting) == 1 and chat not in self._busy:
                self._take_turn(chat)
            return True

    def _take_turn(self, chat: str) -> None:
        (self._first_turns if chat in self._first else self._turns).append(chat)
        self._changed.notify()

    def get(self) -> tuple[str, ChatEvent] | None:
        """The next event to answer, its chat now busy until `done`; None once closed."""
        with self._changed:
            self._changed.wait_for(lambda: self._first_turns or self._turns or self._closed)
            if self._closed:
                return None
            chat = (self._first_turns or self._turns).popleft()
            self._busy.add(chat)
            return chat, self._chats[chat].popleft()

    def done(self, chat: str) -> None:
        with self._changed:
            self._busy.discard(chat)
            if self._chats.get(chat):
                self._take_turn(chat)
            else:
                self._chats.pop(chat, None)
            self._changed.notify_all()

    def close(self) -> list[ChatEvent]:
        """Hand out nothing more; the events never started."""
        with self._changed:
            self._closed = True
            left = [event for waiting in self._chats.values() for event in waiting]
            self._chats.clear()
            self._turns.clear()
            self._first_turns.clear()
            self._changed.notify_all()
            return left

    def wait_idle(self, timeout: float | None = None) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: not self._chats and not self._busy, timeout)


class CommandPace:
    """At most `most` commands a minute from one chat (a sliding minute): what a subscriber or
    a stranger types is an input, and one typing fast never slows the others. Kept in this
    process (each replica counts its own), for at most PACE_CHATS chats at once."""

    def __init__(self, most: int, clock: Callable[[], float] = time.monotonic) -> None:
        self._most, self._clock = most, clock
        self._seen: dict[str, deque[float]] = {}

    def allows(self, chat: str) -> bool:
        now = self._clock()
        if len(self._seen) > PACE_CHATS:  # forget the chats quiet for a minute
            self._seen = {c: t for c, t in self._seen.items() if t and now - t[-1] < 60}
        times = self._seen.setdefault(chat, deque())
        while times and now - times[0] >= 60:
            times.popleft()
        if len(times) >= self._most:
            return False
        times.append(now)
        return True


class Inbox:
    def __init__(
        self,
        chat: Chat,
        worker: str,
        clock: Callable[[], datetime],
        workers: int = WORKERS,
    ) -> None:
        self._chat, self._worker, self._clock = chat, worker, clock
        self._store: Store = chat.store
        self._queue = FairQueue(first=chat.configured)
        self._mine: set[str] = set()  # event ids queued or being answered here
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._refused = Throttled(log)
        self._told_fast: dict[str, float] = {}  # chat -> when it may be told again
        self._pace = CommandPace(chat.config.subscribers.commands_per_minute)
        self._configured = chat.configured  # hunter.toml's chats: never paced
        repliers = chat.repliers
        self._readers = [r.restore for r in (*repliers.others.values(), repliers.default)]
        self._workers = [
            threading.Thread(target=self._work, name=f"chat-{n}", daemon=True)
            for n in range(workers)
        ]
        for thread in self._workers:
            thread.start()
        self._sweeper = threading.Thread(target=self._sweep_often, name="chat-sweep", daemon=True)
        self._sweeper.start()

    def on_notice(self, nudge: Callable[[], None]) -> None:
        """Call `nudge` when an answer queued a notice a person waits on (an ask's card, a
        chat let in), so that it is delivered now rather than at the next read."""
        self._chat.joining.on_notice = nudge

    def keep(self, events: list[ChatEvent]) -> int:
        """The HTTP status for a request that brought these events: 500 when they could not
        be kept (the channel sends them again), else 200 once they are kept and queued."""
        now = self._clock()
        timely = [event for event in events if self._timely(event, now)]
        if not timely:
            return 200
        rows = [(event.event_id, event.chat_id, event.raw) for event in timely]
        try:
            new: set[str] | None = self._store.chat.accept(rows, self._worker, now)
        except StoreRefused as exc:  # the database answered: one event it cannot keep
            new = self._accept_one_by_one(rows, now, exc)
        except HunterError as exc:  # the database is away: the channel sends them all again
            log.error("could not keep %d webhook events (answered 500): %s", len(rows), exc)
            return 500
        if new is None:
            return 500
        for event in timely:
            if event.event_id in new:
                self._enqueue(event, fresh=True)
            else:
                log.info("webhook event %s already handled", event.event_id)
        return 200

    def _accept_one_by_one(
        self, rows: list[EventRow], now: datetime, error: HunterError
    ) -> set[str] | None:
        """After the database refused the request's events together: each on its own, so
        that one it refuses never costs the others (the channel would redeliver them all, into the
        same refusal, again and again). None when none could be kept: a 500, and the channel sends
        them again."""
        new: set[str] = set()
        kept = 0
        for row in rows:
            try:
                new |= self._store.chat.accept([row], self._worker, now)
                kept += 1
            except HunterError as exc:
                log.error("a webhook event (%s) could not be kept and is dropped: %s", row[0], exc)
        if not kept:
            log.error("could not keep %d webhook events (answered 500): %s", len(rows), error)
            return None
        return new

    def _timely(self, event: ChatEvent, now: datetime) -> bool:
        if not event.event_id:
            return False
        if event.at is not None and not now - EVENT_MEMORY <= event.at <= now + AHEAD:
            self._refused.warning(f"a webhook event dated {event.at:%Y-%m-%d %H:%M} was ignored")
            return False
        # Past the memory its id is forgotten: a replay would act again.
        if event.since is not None and event.since < now - EVENT_MEMORY:
            self._refused.warning(f"a webhook event from {event.since:%Y-%m-%d} was ignored")
            return False
        return True

    def _enqueue(self, event: ChatEvent, fresh: bool = False) -> None:
        with self._lock:
            if event.event_id in self._mine:
                return
            chat = event.chat_id or ""
            paced = fresh and chat not in self._configured and not self._pace.allows(chat)
            if not paced:
                self._mine.add(event.event_id)
        if paced:  # past commands_per_minute: skipped and told, as a full backlog is
            if not self._stopping.is_set():
                self._too_fast(event)
            return
        if self._queue.put(event):
            return
        with self._lock:
            self._mine.discard(event.event_id)
        if fresh and not self._stopping.is_set():
            self._too_fast(event)
        # else it stays in the store, for the sweeper to bring

    def _too_fast(self, event: ChatEvent) -> None:
        """A chat sent more than its backlog at once (200 commands, 125 answered
        after LINE's reply window). This one is skipped (kept as handled: a command answered
        minutes late is worse than one said again), and the chat is told so, once a minute,
        first in its queue, with this event's own reply."""
        chat = event.chat_id or ""
        now = time.monotonic()
        try:
            self._store.chat.handled(event.event_id, self._clock())
        except HunterError as exc:  # it stays in the store: the sweeper brings it later
            log.error("could not set aside a webhook event of a chat sending too fast: %s", exc)
            return
        with self._lock:
            if self._told_fast.get(chat, 0.0) > now:
                return
            self._told_fast[chat] = now + TOO_FAST_AGAIN
        log.warning("chat %s sends faster than it is answered: commands skipped", chat or "?")
        self._queue.put(replace(event, kind=TOO_FAST, event_id=f"{event.event_id}!"), first=True)

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            chat, event = item
            try:
                self._answer(event)
            finally:
                with self._lock:
                    self._mine.discard(event.event_id)
                self._queue.done(chat)

    def _answer(self, event: ChatEvent) -> None:
        try:
            if event.kind == TOO_FAST:  # the inbox's own: not a kept event
                self._chat.handle(event)
                return
            if not self._store.chat.hold(event.event_id, self._worker, self._clock()):
                return  # another worker took it over meanwhile
            self._chat.handle(event)
            self._store.chat.handled(event.event_id, self._clock())
        except HunterError as exc:  # the database is away: it is taken up again later
            log.error("could not answer a %s webhook event: %s", event.kind, exc)
        except Exception:  # a bug: one bad event must not end the chat
            log.exception("handling a %s webhook event failed", event.kind)

    def _sweep_often(self) -> None:
        self.sweep()
        while not self._stopping.wait(SWEEP_EVERY):
            self.sweep()

    def stored_event(self, payload: object) -> ChatEvent | None:
        """A kept event read back by the first of the chat's channels that knows it."""
        for reader in self._readers:
            event = reader(payload)
            if event is not None:
                return event
        return None

    def sweep(self) -> int:
        """Take over the events stopped or dead workers left; how many were queued."""
        now = self._clock()
        try:
            kept = self._store.chat.take_stranded(self._worker, now, now - HOLD, CHAT_BACKLOG)
        except HunterError as exc:
            log.error("could not look for webhook events left unanswered: %s", exc)
            return 0
        events = [event for event in map(self.stored_event, kept) if event is not None]
        for event in events:
            self._enqueue(event)
        return len(events)

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Block until every queued event is answered (tests, and a clean stop)."""
        return self._queue.wait_idle(timeout)

    def stop(self, deadline: float) -> None:
        """Start no new event; let the ones being answered finish until `deadline` (a
        time.monotonic() value); leave the rest in the store for the next worker."""
        self._stopping.set()
        left = [event.event_id for event in self._queue.close()]
        if left:
            try:
                self._store.chat.release(left, self._worker)
            except HunterError as exc:  # they are taken over once the hold runs out
                log.error("could not hand back %d webhook events: %s", len(left), exc)
        # The sweeper too: a sweep still running when the store closes would use a closed
        # connection (with SQLite, a crash of the whole process).
        for thread in [*self._workers, self._sweeper]:
            thread.join(max(0.0, deadline - time.monotonic()))
        if any(thread.is_alive() for thread in self._workers):
            log.warning("an answer was still in flight at the stop; its event stays held")
