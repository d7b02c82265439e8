"""Strangers who join: Start, the owner's Approve or Refuse, stop and forget.

With `[subscribers] join = "open"`, a stranger's Start (Telegram's /start; a link's start
parameter brings its first keywords) makes it a subscriber at once; with "approve" it waits,
and the owner gets a card asking; with "closed" (the default) strangers are told the bot is
private, as before. A subscriber gets only the listings matching the keywords it sets from its
chat, sees only its own rows, and ends it with stop (its keywords kept for a Start again) or
forget (everything hunter holds about that chat deleted: Thailand's PDPA, the GDPR). The store
decides every join (hunter/store/subscribers.py), so `max` holds across replicas.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import datetime

from hunter.chat import asks
from hunter.chat.commands import Command
from hunter.chat.tuning import Tuning
from hunter.deliver.channel import ChatEvent
from hunter.rules.destinations import OWNER, Destinations
from hunter.rules.keywords import word_problem
from hunter.settings.config import Config
from hunter.store import Store
from hunter.store.subscribers import Joined
from hunter.words import notices

log = logging.getLogger("hunter")

HOW_TO = (
    "ส่ง “add คำ” เพื่อรับงานที่ตรงกับคำนั้น เช่น add python (หลายคำ ส่งทีละคำ) · "
    "Send “add WORD” for the listings that match it, e.g. add python (one word a message). "
    "words lists yours, stop ends it, forget deletes all hunter keeps about this chat."
)
JOINED_TEXT = "ยินดีต้อนรับ! · Welcome: you get new listings here once you set keywords.\n"
ASKED_TEXT = (
    "ส่งคำขอถึงเจ้าของบอทแล้ว จะแจ้งเมื่ออนุมัติ · Asked the bot's owner: you will be told "
    "here once they let you in."
)
FULL_TEXT = (
    "ขออภัย ตอนนี้สมาชิกเต็มแล้ว ลองใหม่ภายหลัง · Sorry, this bot has all the subscribers it "
    "takes for now: try again later."
)
STOPPED_TEXT = (
    "หยุดแล้ว จะไม่ส่งอะไรมาอีก กด /start เพื่อกลับมา หรือ forget เพื่อลบข้อมูลทั้งหมด · "
    "Stopped: nothing more comes here. /start comes back (your keywords are kept); forget "
    "deletes all hunter keeps about this chat."
)
FORGOTTEN_TEXT = "ลบข้อมูลทั้งหมดของแชทนี้แล้ว · Everything hunter kept about this chat is deleted."
JOIN_HINT = "กด /start เพื่อรับงานใหม่ · Press /start to get new listings here."
CONFIGURED_TEXT = (
    "แชทนี้ตั้งไว้ในไฟล์ hunter.toml เจ้าของบอทเอาออกได้ที่นั่น (หยุด = pause พักไว้) · This "
    "chat is set in hunter.toml: its owner removes it there (pause holds the pushes)."
)
# What changes a subscriber: in a group, only who started it or its admins say these.
CHANGES = frozenset(
    {"add", "remove", "budget", "languages", "places", "pause", "resume", "stop", "forget"}
)
NOT_YOURS = (
    "ในกลุ่มนี้ เฉพาะคนที่เริ่มใช้บอทที่นี่หรือแอดมินของกลุ่มเท่านั้นที่เปลี่ยนได้ · In this group, "
    "only who started hunter here or the group's admins change its alerts."
)
CAP_AGAIN = 3600.0  # seconds before a subscriber is told of its keyword cap again
CAP_TOLD_KEPT = 10_000  # chats remembered as told


class Joining:
    def __init__(
        self,
        config: Config,
        store: Store,
        clock: Callable[[], datetime],
        may_join: Callable[[str], bool],
    ) -> None:
        """`may_join`: whether strangers may join on the channel of a chat id."""
        self.config, self.store, self.clock = config, store, clock
        self.settings = config.subscribers
        self._may_join = may_join
        self._told_cap: dict[str, float] = {}  # subscriber -> when it may hear of the cap again
        # Called when a notice a person waits on was queued (an ask's card, a chat let in):
        # `hunter run` delivers at once instead of at the next read (app/schedule.py).
        self.on_notice: Callable[[], None] = lambda: None

    def open_to(self, chat_id: str | None) -> bool:
        """Whether the chat `chat_id` may join (hunter.toml lets strangers in, on its channel)."""
        return bool(chat_id) and self.settings.open and self._may_join(chat_id or "")

    def start(self, event: ChatEvent) -> str:
        """A stranger's Start: joined, asked, or told why not; a link's words set at once."""
        chat = event.chat_id or ""
        now = self.clock()
        joined = self.store.subscribers.join(
            chat, self.settings.asks, self.settings.max, now, event.sender or None, event.who
        )
        if joined is Joined.FULL:
            log.warning("a chat could not join: [subscribers] max = %d", self.settings.max)
            return FULL_TEXT
        if joined in (Joined.ASKED, Joined.WAITING):
            if joined is Joined.ASKED and asks.tell_owner(self.store, now, {chat: event.who}):
                self.on_notice()  # the owner hears at once, not at the next read
            self._keep_words(event, chat)
            return ASKED_TEXT
        said = self._keep_words(event, chat)
        if joined is Joined.JOINED:
            log.info("a chat joined")
        return JOINED_TEXT + (said or HOW_TO)

    def _keep_words(self, event: ChatEvent, chat: str) -> str:
        """The start link's words, added as if typed (each checked, at most `max_keywords`)."""
        added, at = [], event.at or self.clock()
        for word in event.text.split()[: self.settings.max_keywords]:
            folded = word.casefold()
            if word_problem(word) is None and self.store.chat.tune_word(
                chat, folded, "add", at, self.settings.max_keywords
            ):
                added.append(folded)
        if not added:
            return ""
        return f"คำ · keywords: {', '.join(added)}\n{HOW_TO}"

    def may_change(
        self,
        event: ChatEvent,
        chat: str,
        in_group: bool,
        is_admin: Callable[[str, str], bool],
    ) -> bool:
        """Whether the sender of `event` may change `chat`: a chat of hunter.toml's, or of one
        person, anyone; a subscribed group, who started it there or the group's admins, as
        its channel says (any member changed its words, paused it or forgot it)."""
        if not in_group or not self.settings.open:
            return True
        found = self.store.subscribers.of(chat)
        if found is None or (found.started_by and found.started_by == event.sender):
            return True  # hunter.toml's chat, or who started it
        return bool(event.sender) and is_admin(event.chat_id or "", event.sender)

    def stop(self, chat: str) -> str:
        self.store.subscribers.leave(chat, self.clock())
        return STOPPED_TEXT

    def forget(self, chat: str) -> str:
        gone = self.store.subscribers.forget(chat)
        log.info("a chat asked to be forgotten: %d rows deleted", gone)
        return FORGOTTEN_TEXT

    def ended(self, event: ChatEvent) -> None:
        """The bot was blocked, or removed from the group: it ends as a stop does. Or the
        group became a supergroup (`moved`): it goes on under its new id."""
        chat = event.chat_id or ""
        if event.kind == "moved":
            if self.store.subscribers.move(chat, event.data, self.clock()):
                log.info("a subscribed group became a supergroup: it moved to its new id")
        elif self.store.subscribers.leave(chat, self.clock()):
            log.info("a subscriber left (the bot was blocked or removed)")

    def decide(self, command: Command) -> str:
        """The owner's approve / refuse of a chat that asked."""
        chat, now = command.argument.strip(), self.clock()
        if command.verb == "approve":
            if not self.store.subscribers.approve(chat, now):
                return f"{chat} ไม่ได้รออนุมัติ · {chat} is not waiting to join"
            if self.store.outbox.enqueue(notices.let_in(chat, now), now, chat):
                self.on_notice()
            return f"อนุมัติ {chat} แล้ว · {chat} is in"
        if not self.store.subscribers.leave(chat, now):
            return f"{chat} ไม่ได้รออนุมัติ · {chat} is not waiting to join"
        self.store.subscribers.forget(chat)  # refused: nothing of it is kept
        return f"ปฏิเสธ {chat} แล้ว · {chat} is refused"

    # -- what the chat's answers ask of a subscriber -------------------------------------------
    def destinations(self, base: Destinations, chat_id: str | None) -> Destinations:
        """hunter.toml's chats (`base`), and the one an event came from when it is a
        subscriber in (one row read: not every subscriber for every event)."""
        if not self.settings.open or not chat_id or base.name_of(chat_id) is not None:
            return base
        found = self.store.subscribers.of(chat_id)
        if found is None or not found.active:
            return base
        return base.with_subscribers([chat_id])

    def tuning(self, configured: Tuning, destinations: Destinations, subscriber: bool) -> Tuning:
        """A configured chat's tuning, or a subscriber's: its own words, within its cap."""
        if not subscriber:
            return configured
        return Tuning(self.config, self.store, destinations, self.settings.max_keywords)

    def command(
        self, command: Command | None, chat: str, tuning: Tuning, now: datetime
    ) -> str | None:
        """The answer to a command that is about subscribers (stop, forget, the owner's
        approve and refuse, a subscriber's status: its own rows only); None for the others."""
        verb = command.verb if command else "help"
        subscriber = tuning.destinations.subscriber(chat)
        if verb in ("stop", "forget"):
            if not subscriber:
                return CONFIGURED_TEXT
            return self.stop(chat) if verb == "stop" else self.forget(chat)
        if verb in ("approve", "refuse") and command and chat == OWNER:
            return self.decide(command)
        if verb == "asks" and chat == OWNER:
            return asks.listed(self.store)
        if verb == "status" and subscriber:
            words, _quick = tuning.words(chat, now)
            return f"{words}\nรอส่ง · waiting: {self.store.outbox.count_pending(chat)}"
        return None

    def may_tell_cap(self, chat: str) -> bool:
        """Whether `chat` may be told of its keyword cap now: once an hour (per process),
        however many words it sends past it."""
        now = time.monotonic()
        if self._told_cap.get(chat, 0.0) > now:
            return False
        if len(self._told_cap) > CAP_TOLD_KEPT:  # many chats at once: forget the past ones
            self._told_cap = {c: t for c, t in self._told_cap.items() if t > now}
        self._told_cap[chat] = now + CAP_AGAIN
        return True
