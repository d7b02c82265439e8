"""The LINE chat talks back: what hunter answers to a message, a button or a new friend.

Every answer is a reply, never a push: LINE does not count replies against the month's
messages. Each webhook event is handled once (the store claims its id), whichever replica LINE
reaches and however often LINE redelivers it. Only the chat in LINE_TO may command; anyone
else gets one polite "this bot is private" and nothing about any listing.

"งานใหม่" ("new") takes what waits in the outbox exactly as a push does (claim, reply, then
mark sent), so a listing reaches LINE once whether a reply or a push carries it; a reply that
fails puts its listings back to waiting.
"""

from __future__ import annotations

import logging
import queue
import threading
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from hunter import report
from hunter.config import Config
from hunter.errors import HunterError, LineError
from hunter.line import render
from hunter.line.render import APPLIED, DISMISS, MAX_BUBBLES, MAX_PER_PUSH, MUTE
from hunter.line.webhook import BadRequest, ChatEvent, parse
from hunter.policy import Kind, PushResult
from hunter.store import Store
from hunter.store.records import Failure

log = logging.getLogger("hunter")

MUTE_FOR = timedelta(days=30)
NEW = {"new", "งานใหม่"}
STATUS = {"status", "สถานะ"}
HELP = {"help", "ช่วยด้วย", "?"}

HELP_TEXT = (
    "hunter ส่งงานใหม่ที่ตรงกับคำของคุณมาที่แชทนี้\n"
    "• งานใหม่ (new): งานที่รออยู่ตอนนี้ ไม่เสียโควตา\n"
    "• สถานะ (status): แหล่งงาน งานที่รอ และโควตา LINE\n"
    "• ช่วยด้วย (help): ข้อความนี้\n"
    "ปุ่มใต้การ์ด: ไม่สนใจ · ไม่เอาคำนี้ (30 วัน) · สมัครแล้ว"
)
PRIVATE_TEXT = (
    "ขออภัย บอทนี้เป็นบอทส่วนตัว ตอบเฉพาะเจ้าของเท่านั้น\n"
    "Sorry, this bot is private: it answers its owner only."
)


class Replier(Protocol):
    def reply(self, reply_token: str, messages: list[dict[str, Any]]) -> PushResult: ...

    def quota(self) -> tuple[int | None, int] | None: ...


class Chat:
    def __init__(
        self,
        config: Config,
        store: Store,
        replier: Replier,
        owner: str | None,
        clock: Callable[[], datetime],
        worker: str,
    ) -> None:
        self.config = config
        self.store = store
        self.replier = replier
        self.owner = owner
        self.clock = clock
        self.worker = worker

    def handle(self, event: ChatEvent) -> None:
        """Answer one event, once, whoever else got it too."""
        if not event.event_id or not self.store.claim_event(event.event_id, self.clock()):
            log.info("webhook event %s already handled", event.event_id or "(no id)")
            return
        if not event.reply_token:
            return  # unfollow, leave and the like: nothing to answer
        owner = event.chat_id is not None and event.chat_id == self.owner
        if event.kind in ("follow", "join"):
            self._text(event, self._welcome(event, owner))
        elif not owner:
            if event.kind in ("message", "postback"):
                self._text(event, PRIVATE_TEXT)
        elif event.kind == "message":
            self._command(event)
        elif event.kind == "postback":
            self._button(event)

    # -- what the owner asks ------------------------------------------------------------------
    def _command(self, event: ChatEvent) -> None:
        word = event.text.strip().casefold()
        if word in NEW:
            self._new(event)
        elif word in STATUS:
            self._text(event, self._status())
        else:
            self._text(event, HELP_TEXT)

    def _new(self, event: ChatEvent) -> None:
        now = self.clock()
        key = str(uuid.uuid4())
        batch = self.store.claim_new(self.worker, key, MAX_PER_PUSH, now)
        if not batch:
            recent = self.store.recent_sent(MAX_BUBBLES)
            if not recent:
                self._text(event, "ยังไม่มีงานใหม่ · Nothing new yet.")
                return
            shown = "ไม่มีงานรอส่ง นี่คืองานล่าสุดที่ส่งไปแล้ว · Nothing waits; the last ones sent."
            self._reply(event, render.messages(recent, shown, actions=True))
            return
        waiting = self.store.count_pending()
        more = f"อีก {waiting} งานรออยู่: แตะ งานใหม่ อีกครั้ง · {waiting} more wait."
        messages = render.messages([c.listing for c in batch], more if waiting else None, True)
        result = self._reply(event, messages)
        if result.kind is Kind.SENT:
            self.store.mark_sent(key, self.clock())
            log.info("%d listings sent in a reply", len(batch))
        else:  # LINE did not take them (or may not have): they wait for the next push
            self.store.mark_failed(key, self.worker, Failure.unsent())

    def _status(self) -> str:
        now = self.clock()
        tz = ZoneInfo(self.config.timezone)
        lines = []
        for source in self.store.sources():
            state = "❌ " + (source.last_error or "")[:80] if source.last_error else "✅"
            if source.broken_at:
                state = "⚠️ broken: " + (source.last_error or "no listings")[:80]
            lines.append(f"{source.name}: {state}")
        outbox = self.store.outbox_counts()
        try:
            quota = report.line_quota_of(self.replier.quota())
        except LineError as exc:  # LINE could not tell; the rest of the status still helps
            quota = {"error": str(exc)}
        pace = report.pace(self.config, quota, self.store.pace_state(), now, outbox["pending"])
        lines.append(f"รอส่ง {outbox['pending']} · waiting {outbox['pending']}")
        if outbox["stuck"]:
            lines.append(f"ติดค้าง {outbox['stuck']} · stuck {outbox['stuck']}: hunter status")
        if pace["plan"] is not None:
            next_at = datetime.fromisoformat(pace["next_push_at"]).astimezone(tz)
            lines.append(f"LINE {pace['used']}/{pace['plan']} · next push {next_at:%d %b %H:%M}")
        mutes = self.store.mutes(now)
        if mutes:
            lines.append("ปิดคำ · muted: " + ", ".join(sorted(mutes)))
        return "\n".join(lines) or "no sources polled yet"

    # -- the buttons under a card -------------------------------------------------------------
    def _button(self, event: ChatEvent) -> None:
        verb, _, argument = event.data.partition(" ")
        now = self.clock()
        if verb == MUTE and argument:
            word = argument.casefold()
            until = now + MUTE_FOR
            self.store.mute(word, until, now)
            local = until.astimezone(ZoneInfo(self.config.timezone))
            self._text(
                event,
                f"ปิดคำ “{argument}” ถึง {local:%d %b} · muted “{argument}” for 30 days "
                f"(hunter unmute {argument} to undo)",
            )
        elif verb in (DISMISS, APPLIED) and argument:
            mark = "dismissed" if verb == DISMISS else "applied"
            title = self.store.mark(argument, mark, now)
            if title is None:
                self._text(event, "ไม่พบงานนี้แล้ว · That listing is no longer known.")
            elif mark == "dismissed":
                self._text(event, f"ไม่สนใจ: {title[:80]} · it will not come back")
            else:
                self._text(event, f"สมัครแล้ว: {title[:80]} · kept for hunter status --applied")
        else:
            self._text(event, HELP_TEXT)

    # -- replies ------------------------------------------------------------------------------
    def _welcome(self, event: ChatEvent, owner: bool) -> str:
        where = {"U": "user", "C": "group", "R": "room"}.get((event.chat_id or "?")[:1], "chat")
        if owner:
            return f"สวัสดี! hunter ส่งงานใหม่มาที่แชทนี้ (this {where}: {event.chat_id})\n{HELP_TEXT}"
        return (
            f"{PRIVATE_TEXT}\n"
            f"This {where}'s id is {event.chat_id}: if this is your own hunter, set LINE_TO "
            "to it and restart."
        )

    def _text(self, event: ChatEvent, text: str) -> PushResult:
        return self._reply(event, [render.text_message(text)])

    def _reply(self, event: ChatEvent, messages: list[dict[str, Any]]) -> PushResult:
        result = self.replier.reply(event.reply_token or "", messages)
        if result.kind is not Kind.SENT:
            log.warning("reply to a %s event failed: %s", event.kind, result.summary)
        return result


class Inbox:
    """Where POST /line/webhook hands LINE's requests: checked and queued at once (LINE waits
    for the answer, and the work may take longer), answered by one worker thread after."""

    def __init__(self, secret: str, chat: Chat) -> None:
        self._secret = secret
        self._chat = chat
        self._events: queue.Queue[ChatEvent] = queue.Queue()
        threading.Thread(target=self._work, name="line-chat", daemon=True).start()

    def receive(self, body: bytes, signature: str | None) -> int:
        """The HTTP status for this request: 400 unless LINE signed it; 200 once queued."""
        try:
            events = parse(body, signature, self._secret)
        except BadRequest as exc:
            log.warning("webhook request refused (400): %s", exc)
            return 400
        for event in events:
            self._events.put(event)
        return 200

    def wait_idle(self) -> None:
        """Block until every queued event is handled (tests, and a clean stop)."""
        self._events.join()

    def _work(self) -> None:
        while True:
            event = self._events.get()
            try:
                self._chat.handle(event)
            except HunterError as exc:  # the database is away: the user can simply ask again
                log.error("could not answer a %s webhook event: %s", event.kind, exc)
            except Exception:  # a bug: one bad event must not end the chat
                log.exception("handling a %s webhook event failed", event.kind)
            finally:
                self._events.task_done()
