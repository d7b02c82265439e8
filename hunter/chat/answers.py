"""What hunter answers to a message, a button or a new friend (inbox.py brings each event
here once).

Only the chats hunter alerts (the owner's, the [[chats]] and the subscribers) may command,
each for itself; where hunter.toml lets strangers join ([subscribers], joining.py), a
stranger's Start makes it a subscriber, else it is told "this bot is private" once in a long
while (PRIVATE_AGAIN), and nothing about any listing. In a group or a multi-person chat
people talk to each other: only the command words and the card buttons are answered there.

"งานใหม่" ("new") is delivered by hunter/deliver/reply.py exactly as a push is (claim, render,
send, mark), so a listing reaches its chat once whether a reply or a push carries it; "สถานะ"
("status") is the report `hunter status` prints (hunter/status/report.py), as this chat
needs it. The words each command takes are in commands.py.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from hunter.chat import commands, texts
from hunter.chat.joining import CHANGES, FULL_TEXT, JOIN_HINT, NOT_YOURS, Joining
from hunter.chat.tuning import Tuning
from hunter.chat.why import Why
from hunter.deliver import rate
from hunter.deliver.channel import ByPrefix, ChatEvent, Recipient, Replier
from hunter.deliver.outcome import Kind, PushResult
from hunter.deliver.reply import ReplyDelivery
from hunter.rules.destinations import OWNER, Destinations
from hunter.settings.config import Config
from hunter.status import report
from hunter.status.text import chat_text
from hunter.store import Store
from hunter.words.details import APPLIED, DISMISS, LIKE, MUTE, SAY

log = logging.getLogger("hunter")

PRIVATE_AGAIN = timedelta(days=7)  # a stranger's chat is told "private" again after this
# Events after which a chat's members, or whether the bot can reach it, are read again before
# the next push (LINE's kinds, and Telegram's as updates.py names them). A follow is a person
# who added the bot (LINE: or unblocked it) or pressed Start (Telegram): a chat the bot could
# not reach until then gets what waited at the next poll, not a day later.
CHAT_CHANGED = {"join", "leave", "memberJoined", "memberLeft", "follow", "unfollow"}
TOO_FAST = "too fast"  # the inbox's own kind: the chat sent more than it can be answered
REPLY_WAIT_MOST = 5.0  # seconds an answer refused by a rate limit waits to be said again


MARKS = {DISMISS: "dismissed", APPLIED: "applied", LIKE: "liked"}  # a card's buttons' marks


class Chat:
    def __init__(
        self,
        config: Config,
        store: Store,
        replier: Replier,
        owner: str | None,
        clock: Callable[[], datetime],
        worker: str,
        others: Mapping[str, Replier] | None = None,
        channels: report.Reporting | None = None,
        status_link: str | None = None,
        may_join: Callable[[str], bool] | None = None,
    ) -> None:
        """`replier` answers the chats whose ids have no prefix; `others` the chats whose id
        starts with theirs. `channels` says what สถานะ tells of them (app/ passes its router;
        default: the repliers, the first one's quota). `may_join`: whether strangers may join
        on a chat id's channel (default: on none)."""
        self.config, self.store = config, store
        self.repliers = ByPrefix[Replier](replier, others or {})
        rate.share([replier, *(others or {}).values()], store)  # a bot's pace, with delivery's
        self.channels: report.Reporting = channels or _Repliers(self.repliers)
        self._answered: set[str] = set()  # events being handled that were answered
        self.status_link = status_link  # the status page, token and all: the owner's alone
        self.destinations = Destinations(owner, config.chats)
        self.clock, self.worker = clock, worker
        self.tuning = Tuning(config, store, self.destinations)
        self.why = Why(self.tuning, clock, self._next_push_at)
        self.joining = Joining(config, store, clock, may_join or (lambda _chat: False))

    @property
    def configured(self) -> frozenset[str]:
        """The ids of the chats that may command: the owner's and each [[chats]]'."""
        ids = {chat.to for chat in self.destinations.chats}
        return frozenset(ids | ({self.destinations.owner} if self.destinations.owner else set()))

    def handle(self, event: ChatEvent) -> None:
        """Answer one event (the inbox brings each one once), for the chat it came from. A
        tapped button is always acknowledged, answered or not (a stranger's told already, a
        tap on an inline message with no chat), so that its spinner stops."""
        try:
            self._handle(event)
        finally:
            if event.kind == "tap" and event.event_id not in self._answered:
                replier = self.repliers.of(event.chat_id or event.event_id)
                replier.acknowledge(event)
            self._answered.discard(event.event_id)

    def _handle(self, event: ChatEvent) -> None:
        now = self.clock()
        destinations = self.joining.destinations(self.destinations, event.chat_id)
        chat = destinations.name_of(event.chat_id)  # None: a stranger's chat
        command = commands.parse(event.text) if event.kind == "message" else None
        if event.kind == TOO_FAST:
            if chat is not None:
                self._text(event, texts.TOO_FAST_TEXT)
            return
        if event.kind in CHAT_CHANGED and chat is not None and event.chat_id:
            self.store.pace.forget_members(event.chat_id)  # a push's cost is read again
        subscriber = chat is not None and destinations.subscriber(chat)
        tuning = self.joining.tuning(self.tuning, destinations, subscriber)
        stranger_joins = chat is None and self.joining.open_to(event.chat_id)
        if event.kind in ("leave", "moved") and subscriber:
            self.joining.ended(event)  # blocked, removed from the group, or a supergroup now
        elif event.kind == "follow" and (subscriber or stranger_joins):
            said = self.joining.start(event)
            if said != FULL_TEXT or self._told_private(event, now):  # "full": once a while
                self._text(event, said)
        elif event.kind in ("follow", "join"):
            # A stranger is welcomed (with the chat's id, to set up hunter) like any "private"
            # answer: once in a long while, however often Telegram's /start is sent.
            if chat is not None or self._told_private(event, now):
                replier = self.repliers.of(event.chat_id)
                if stranger_joins:
                    self._text(event, JOIN_HINT)
                else:
                    self._text(event, texts.welcome(event.chat_id, chat is not None, replier))
        elif event.kind == "tap" and chat is not None:
            self._button(event, now, chat, tuning)  # acts even when it is too late to answer
        elif event.kind == "message" and self._in_group(event) and command is None:
            return  # in a group people talk to each other: only commands are for hunter
        elif event.kind == "message" and chat is not None:
            self._command(event, command, chat, now, tuning)
        elif command is not None and command.verb == "forget" and event.chat_id:
            # Anyone may ask that hunter forget their chat (a subscriber that stopped, too).
            self._text(event, self.joining.forget(event.chat_id))
        elif event.kind in ("message", "tap") and self._told_private(event, now):
            self._text(event, JOIN_HINT if stranger_joins else texts.PRIVATE_TEXT)

    def _in_group(self, event: ChatEvent) -> bool:
        """Many people read this chat: as its channel, or its replier reading its id, says."""
        return event.in_group or self.repliers.of(event.chat_id).recipient(event.chat_id).group

    def _may_change(self, event: ChatEvent, chat: str) -> bool:
        """In a group, only who started hunter there or its admins change it (or tap for it)."""
        is_admin = self.repliers.of(event.chat_id).is_admin
        return self.joining.may_change(event, chat, self._in_group(event), is_admin)

    def _told_private(self, event: ChatEvent, now: datetime) -> bool:
        """Whether a stranger's chat is to be told "private" now (once in a long while)."""
        if not event.chat_id or not self.repliers.of(event.chat_id).can_answer(event, now):
            return False
        return self.store.chat.note_private(event.chat_id, now, now - PRIVATE_AGAIN)

    # -- what the owner asks ------------------------------------------------------------------
    def _command(
        self,
        event: ChatEvent,
        command: commands.Command | None,
        chat: str,
        now: datetime,
        tuning: Tuning,
    ) -> None:
        verb = command.verb if command else "help"
        subscriber = tuning.destinations.subscriber(chat)
        if verb in CHANGES and not self._may_change(event, chat):
            self._text(event, NOT_YOURS)  # in a group: who started it, or its admins
        elif verb == "new":
            self._new(event, chat)
        elif (said := self.joining.command(command, chat, tuning, now)) is not None:
            self._text(event, said)  # stop, forget, approve, refuse; a subscriber's status
        elif verb == "status":
            said = self._status(chat)
            # The page's link holds its token: only in the owner's own chat, never a group's.
            if self.status_link and chat == OWNER and not self._in_group(event):
                said += f"\nหน้าสถานะ · status page: {self.status_link}"
            self._text(event, said)
        elif verb == "why" and command:
            why = self.why if tuning is self.tuning else Why(tuning, self.clock, self._next_push_at)
            self._text(event, why.explain(command.argument, chat))
        elif verb in commands.TUNING and command:
            # Stamped with the channel's time of the message, not this replica's: of two changes
            # handled at once by two replicas, the one said last wins.
            reply, quick = tuning.apply(command, chat, event.at or now)
            if subscriber and reply == tuning.cap_refusal and not self.joining.may_tell_cap(chat):
                return  # a refusal said once an hour, however many words are sent
            self._text(event, reply, quick)
        else:
            self._text(event, texts.help_text(self.repliers.of(event.chat_id)))

    def _new(self, event: ChatEvent, chat: str) -> None:
        """What waits for this chat, in a reply (free), claimed as a push would be; when
        nothing waits, the last ones sent again (they were delivered: no row changes)."""

        def send(messages: list[dict[str, Any]]) -> PushResult:
            return self._reply(event, messages)

        replier = self.repliers.of(event.chat_id)
        replies = ReplyDelivery(self.store, replier, self.clock, self.worker)
        if replies.carry(chat, send, lambda n: texts.more_waiting(n, replier)):
            return
        recent = self.store.outbox.recent_sent(replier.max_recent, chat)
        if not recent:
            self._text(event, texts.NOTHING_NEW)
            return
        self._reply(event, replier.render(recent, texts.ONLY_SENT, True))

    def _status(self, chat: str) -> str:
        """The same report `hunter status` prints, as this chat needs it."""
        now = self.clock()
        gathered = report.gather(
            self.config, self.store, self.destinations, self.channels, now, rows=0
        )
        return chat_text(gathered, chat, self.config.timezone) or "no sources polled yet"

    def _next_push_at(self) -> datetime | None:
        quota = report.quota_view(self.channels)
        return report.next_push_at(self.config, quota, self.store.pace.state(), self.clock())

    # -- the buttons under a card -------------------------------------------------------------
    def _button(self, event: ChatEvent, now: datetime, chat: str, tuning: Tuning) -> None:
        verb, _, argument = event.data.partition(" ")
        if verb == SAY and argument:  # a word offered under an answer, tapped: as if typed
            self._command(event, commands.parse(argument), chat, now, tuning)
        elif verb in (MUTE, *MARKS) and argument and not self._may_change(event, chat):
            self._text(event, NOT_YOURS)  # a tap teaches the chat's taste
        elif verb == MUTE and argument:
            self._text(event, tuning.mutes.mute(argument, chat, now))
        elif verb in MARKS and argument:
            self._text(event, marked(self.store, argument, MARKS[verb], now, chat))
        else:
            self._text(event, texts.help_text(self.repliers.of(event.chat_id)))

    # -- replies ------------------------------------------------------------------------------
    def _text(self, event: ChatEvent, text: str, quick: tuple[str, ...] = ()) -> PushResult:
        return self._reply(event, [self.repliers.of(event.chat_id).text(text, quick)])

    def _reply(self, event: ChatEvent, messages: list[dict[str, Any]]) -> PushResult:
        replier = self.repliers.of(event.chat_id)
        if not replier.can_answer(event, self.clock()):
            return PushResult(Kind.PERMANENT, None, "too late to answer this event")
        self._answered.add(event.event_id)
        result = replier.answer(event, messages)
        if result.status == 429 and not result.maybe_delivered:  # not delivered: once more
            time.sleep(min(result.retry_after or 1.0, REPLY_WAIT_MOST))
            if replier.can_answer(event, self.clock()):
                result = replier.answer(event, messages)
        if result.kind is not Kind.SENT:
            log.warning("reply to a %s event failed: %s", event.kind, result.summary)
        return result


class _Repliers:
    """The status's view of the channels when only the repliers are known: the quota of the
    channel whose ids have no prefix."""

    def __init__(self, repliers: ByPrefix[Replier]) -> None:
        self.repliers = repliers

    @property
    def quota_name(self) -> str:
        return self.repliers.default.name

    def quota(self) -> tuple[int | None, int] | None:
        return self.repliers.default.quota()

    def recipient(self, to: str | None) -> Recipient:
        return self.repliers.of(to).recipient(to)


def marked(store: Store, job_id: str, mark: str, now: datetime, chat: str) -> str:
    """Mark `chat`'s own row of `job_id` from a card's button, and say so. Only a row of this
    chat's own (its `chat` column, never its id's text, which a board writes);
    another chat's card is unknown here."""
    title = mark_row(store, job_id, mark, now, chat)
    if title is None:
        return "ไม่พบงานนี้แล้ว · That listing is no longer known."
    if mark == "dismissed":
        return f"ไม่สนใจ: {title[:80]} · it will not come back; listings like it are held back"
    if mark == "liked":
        return f"👍 {title[:80]} · listings like it come even without your words"
    return f"สมัครแล้ว: {title[:80]} · kept for hunter status --applied"


def mark_row(store: Store, job_id: str, mark: str, now: datetime, chat: str) -> str | None:
    """Mark `chat`'s own row of `job_id` from a card's button: its title, None when the chat
    has no such row. A card sent before schema 15 named a chat's row "<id>#<chat>"."""
    title = store.chat.mark(job_id, mark, now, chat)
    if title is None and chat and job_id.endswith(f"#{chat}"):
        title = store.chat.mark(job_id[: -len(chat) - 1], mark, now, chat)
    return title
