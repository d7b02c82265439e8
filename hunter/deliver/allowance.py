"""The month's messages of the paced channel as one delivery spends them: may a new batch be
pushed now, and is a warning due because something else spends the channel's messages.

pace.py decides (pure); this reads the channel's quota once per delivery, claims each push of the
allowance in the store (so that replicas and `run --once` share one pace), and queues the
quota notice through the outbox. The deliverer asks; it keeps no count of its own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from hunter.deliver.channel import Channel, Channels
from hunter.deliver.pace import MonthPlan, Pacer
from hunter.errors import ChannelError, ChatGone, TokenRefused
from hunter.redact import clip
from hunter.rules.destinations import OWNER, Destinations
from hunter.settings.config import Config
from hunter.store import Claimed, Store
from hunter.store.records import GONE, ChatRow, PaceState
from hunter.words import notices

log = logging.getLogger("hunter")

MEMBERS_FRESH = timedelta(days=1)  # a group's member count is read again after this
# ... and a chat the channel said the bot is not in, sooner: its notice promises that its
# listings go with the next poll once the bot is back (a new user's owner chat, whose id was
# right once its person pressed Start, waited a day)
GONE_ASKED_AGAIN = timedelta(minutes=10)
OWNER_GONE_FIX = (
    "its listings wait, and it is asked again at each poll: check its id, and that its person "
    "pressed Start in the bot's chat (a group: that the bot is in it)"
)
SHAPE_NOTICE_WAITS = timedelta(days=1)  # for a listing's push to go with, at most


@dataclass(frozen=True)
class Grant:
    granted: bool
    next_push_at: datetime | None = None  # when a new batch may go, if it is not soon
    why: str | None = None  # what holds the chat, where it is no pace nor quiet hours


class Allowance:
    def __init__(
        self,
        config: Config,
        store: Store,
        channels: Channels,
        clock: Callable[[], datetime],
        destinations: Destinations,
        pacing: bool = True,
    ) -> None:
        self.config, self.store, self.channels, self.clock = config, store, channels, clock
        self.destinations = destinations  # the chats' names, as the deliverer has them
        self.calendar = config.calendar
        self.poll_every = timedelta(minutes=config.interval_minutes)
        # pacing=False is the first release's behaviour: a push whenever something waits.
        self.pacer = Pacer(self.calendar, self.poll_every) if pacing else None
        self._plan: MonthPlan | None = None  # the paced channel's quota, once per delivery
        self._pace: PaceState | None = None  # the pace row as this delivery's last claim left it
        self._chats: dict[str, ChatRow] | None = None  # members and spending, once per delivery

    def begin(self) -> None:
        """A new delivery: the paced channel's quota and the chats' members are read again when
        needed."""
        self._plan, self._pace, self._chats = None, None, None

    def chats(self) -> dict[str, ChatRow]:
        """Each chat's recipients and spending as the store keeps them (read once)."""
        if self._chats is None:
            self._chats = self.store.pace.chats()
        return self._chats

    def order(self, names: list[str], now: datetime) -> list[str]:
        """Whose new batch goes first: the owner's chat (`names[0]`), then the others by the
        messages they spent this month, so the month is shared by what each chat asks for and
        the owner is never starved."""
        if len(names) == 1:
            return names  # no [[chats]]: no spending to read
        month = self.calendar.month(now)
        chats = self.chats()
        spent = {n: chats[n].spent_in(month) if n in chats else 0 for n in names[1:]}
        return [names[0], *sorted(names[1:], key=lambda n: (spent[n], n))]

    def cost(self, chat: str, to: str | None) -> int:
        """Messages one push to `chat` (at `to`) costs: 1, or, where the channel counts one
        per member (a LINE group), its members, read at most daily (sooner when members came
        or went). Raises ChannelError when it cannot tell and the count was never read,
        ChatGone while the chat is known to be gone."""
        if to is None or not (where := self.channels.recipient(to)).asked:
            return 1
        if not where.per_member and self.destinations.subscriber(chat):
            return 1  # a subscriber gone is told by a push's refusal: no daily ask for each
        address = where.address or to
        now = self.clock()
        known = self.chats().get(chat)
        if known is not None and known.to != address:
            known = None  # the chat now points elsewhere: its old count says nothing
        if known is not None and known.members is not None and _fresh(known, now):
            if known.gone:
                said = f"{where.channel} said so on {known.members_at:%d %b}"
                raise ChatGone(f"the bot is not in {to} ({said})")
            return known.members if where.per_member else 1
        try:
            members = max(self.channels.members(to), 1)
        except ChatGone as exc:
            self._gone(chat, address, known, now, to, str(exc))
            raise
        except ChannelError:
            if known is not None and known.members is not None and not known.gone:
                # the channel is away: the last count is the best guess
                return known.members if where.per_member else 1
            raise
        self.store.pace.set_members(chat, address, members, now)
        self._chats = None
        return members if where.per_member else 1

    def gone(self, chat: str, to: str, why: str) -> None:
        """`chat` is gone, as a push to it just said (Telegram's 403, in `why`): kept so, and
        told."""
        address = self.channels.recipient(to).address or to
        self._gone(chat, address, self.chats().get(chat), self.clock(), to, why)

    def _gone(
        self, chat: str, address: str, known: ChatRow | None, now: datetime, to: str, why: str
    ) -> None:
        """The bot left `chat` (its channel said so): kept as its member count (GONE), asked
        again after GONE_ASKED_AGAIN; the owner told once, through the outbox. Its rows wait,
        no push tried (a group the bot left once cost 23 refused pushes a poll). A
        subscriber that blocked the bot, or a group that removed it, leaves, as by /stop."""
        if self.destinations.subscriber(chat):
            if self.store.subscribers.leave(chat, now):
                log.info("a subscriber is gone (%s says so): it left", self.channels.of(to).name)
            return
        self.store.pace.set_members(chat, address, GONE, now)
        self._chats = None
        if known is not None and known.gone and known.to == address:
            return  # told already
        if chat == OWNER and self.destinations.owner is not None:  # telling it reaches no one
            log.error("the owner's chat %s: %s; %s", to, why, OWNER_GONE_FIX)
            return
        # The owner's chat without LINE_TO is the first [[chats]]: one notice for the two,
        # which share its name and so the notice's id.
        label = self.destinations.label(chat)
        notice = notices.chat_gone(label, to, now, self.config.timezone, why)
        if self.store.outbox.enqueue(notice, now):
            log.error("%s: its listings wait; the owner is told", notice.title)

    def claim_for(
        self, batch: list[Claimed], chat: str, to: str | None, channel: Channel | None = None
    ) -> Grant:
        """`claim` for a batch of `chat`, at what one push to `to` costs on its channel; not
        granted when that cost cannot be known: the bot left the group (its rows wait until it
        is back), or the channel cannot tell its size yet (the next poll asks again). A
        channel without a quota is granted without the pace, and so is one that refused the
        token: its push is refused too, and says so where the user looks."""
        channel = channel or self.channels.of(to)
        try:
            cost = self.cost(chat, to)
        except ChatGone as exc:
            log.info("chat %s waits: %s", self.destinations.label(chat), exc)
            return Grant(False, why=clip(str(exc), 300))
        except TokenRefused:
            # Not this chat's trouble: the push meets the same refusal and writes it, with the
            # fix, on the rows (outcome: auth), which holds the channel. Nothing is spent.
            return Grant(True)
        except ChannelError as exc:
            log.warning("chat %s waits: %s", self.destinations.label(chat), exc)
            return Grant(False, why=clip(str(exc), 300))  # for `hunter status`
        if not channel.paced:
            return Grant(True)
        made = [notices.rides_along_since(c.listing) for c in batch]
        if all(made) and self.clock() - max(m for m in made if m) < SHAPE_NOTICE_WAITS:
            # A field's notice or the card of the chats that ask to join
            # never takes a listing's place in the month: it goes with the next listing's
            # push, where it costs nothing; alone (from the reserve) only when no listing came
            # for a day.
            return Grant(False)
        return self.claim(batch, cost)

    @property
    def plan_read(self) -> bool:
        return self._plan is not None

    def plan(self) -> MonthPlan:
        """The month's messages: the paced channel's quota (read once per delivery) under the
        config's `monthly_messages` ceiling. Without its answer only the ceiling counts."""
        if self._plan is None:
            paced = self.channels.paced()
            try:
                quota = paced.quota()
            except ChannelError as exc:
                log.warning("could not read %s's message quota: %s", paced.name, exc)
                quota = None
            self._plan = MonthPlan.of(
                quota, self.config.monthly_messages, self.config.reserve_messages
            )
        return self._plan

    def claim(self, batch: list[Claimed], cost: int = 1) -> Grant:
        """Claim one push of the month's allowance for this new batch, `cost` messages (the
        store decides, so replicas share one pace). A batch holding a notice of hunter's own
        spends the reserve."""
        if self.pacer is None:
            return Grant(True)
        plan = self.plan()
        if plan.limit is None:
            return Grant(True)  # unlimited and no ceiling configured: nothing to pace
        now = self.clock()
        notice = any(c.listing.source == notices.SOURCE for c in batch)
        pace = self.pacer.pace(plan, self.store.pace.state(), now, notice, cost)
        state = self._pace = self.store.pace.claim(pace, now, batch[0].chat)
        self._chats = None  # its spending changed
        listings_pace = self.pacer.pace(plan, state, now, notice=False, cost=cost)
        next_at = self.pacer.next_push(state, listings_pace, now)
        if state.granted:  # the next poll's finds will wait: say when
            return Grant(True, next_at if next_at > now + self.poll_every else None)
        log.info(
            "the pace holds new listings until %s (%d of %s messages spent this month)",
            local_time(next_at, self.config.timezone, now),
            state.pushes,
            plan.budget,
        )
        return Grant(False, next_at)

    def warn_quota(self, since: int = 0) -> None:
        """When only the reserve of the month's messages is left and hunter's pace is not why
        (something else spends the channel's messages), queue one notice for the month: it
        goes out with the next push, through the outbox like every alert, paid from the
        reserve. `since`: messages spent after the channel's count was read."""
        plan = self.plan()
        used = plan.used + since
        if plan.limit is None or plan.budget is None or used < max(plan.budget, 1):
            return
        state = self._pace  # the claim that read the plan left it: no second read
        own = state.pushes if state and state.month == self.calendar.month(self.clock()) else 0
        if used <= own:
            return  # the pace spent the month as planned: nothing to warn about
        channel = self.channels.paced().name
        notice = notices.quota(used, plan.limit, self.clock(), self.config.timezone, channel)
        if self.store.outbox.enqueue(notice, self.clock()):
            log.warning("%s: a notice goes out with the next push", notice.title)


def _fresh(known: ChatRow, now: datetime) -> bool:
    """Whether a chat's member count (or that it is gone) was read lately enough to stand."""
    window = GONE_ASKED_AGAIN if known.gone else MEMBERS_FRESH
    return known.members_at is not None and now - known.members_at < window


def local_time(moment: datetime, timezone: str, now: datetime) -> str:
    """ "14:30" today, "08:00 on 01 Dec" another day, in the user's timezone."""
    tz = ZoneInfo(timezone)
    local = moment.astimezone(tz)
    if local.date() == now.astimezone(tz).date():
        return f"{local:%H:%M}"
    return f"{local:%H:%M} on {local:%d %b}"
