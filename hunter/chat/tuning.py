"""Tuning hunter from the chat: keywords, budget and pause, each for the chat it is said in.

    เพิ่ม WORD / add WORD        a keyword more            ลบ WORD / remove WORD   one less
    เปิดคำ WORD / unmute WORD    a card's mute lifted
    คำ / words                   what is in force          งบ N / budget N         minimum budget
    หยุด / pause, ต่อ / resume   pushes stop and start     ทำไม LINK / why LINK    see why.py

A change is kept in the store (hunter_tuning, hunter_chat_settings) and the next poll of any
replica, or `run --once`, judges with it; hunter.toml stays the start, and `hunter tuning
--reset` drops what the chats changed. Bad input gets a reply that says what is accepted, and
nothing changes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from hunter.chat.commands import Command
from hunter.chat.mutes import CHANGED, Mutes
from hunter.errors import StoreError
from hunter.rules.chat_rules import ChatRules
from hunter.rules.destinations import Destinations
from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import judge
from hunter.rules.keywords import KEYWORDS_MAX, word_problem
from hunter.rules.language import read_languages
from hunter.rules.listing import Listing
from hunter.rules.pay import HOME, describe_floors, describe_terms, parse_floor, pay_text
from hunter.rules.place import PLACES_TEXT_MOST, ambiguous, read_chat_places, unknown_said
from hunter.settings.config import Config
from hunter.store import Store

log = logging.getLogger(__name__)
PREVIEWED = frozenset({"add", "remove", "budget", "languages", "places"})
PREVIEW_DAYS = 7
PREVIEW_MOST = 1_000  # the last days' listings judged for a preview, at most
PLACES_USAGE = (
    "ไม่รู้จักสถานที่นี้ ใช้ประเทศ จังหวัด เมือง เขต หรือภูมิภาค เช่น “ที่ทำงาน กรุงเทพ "
    "ปริมณฑล” “ที่ทำงาน remote” (“ที่ทำงาน ทั้งหมด” = ทุกที่) · places are countries, "
    "regions, provinces or cities apart by commas, e.g. “places Portugal, remote”, "
    "“places EMEA” (“places all” takes every place)"
)


class CpuShare:
    """The CPU one kind of work may take from the process, shared by every chat: at most
    `most` seconds at once, refilled at `share` of a core. Work is done while some is left,
    and what it took (its thread's CPU time) is spent after."""

    def __init__(
        self, share: float, most: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._share, self._most, self._clock = share, most, clock
        self._left, self._at = most, clock()
        self._lock = threading.Lock()

    def available(self) -> bool:
        with self._lock:
            now = self._clock()
            self._left = min(self._most, self._left + (now - self._at) * self._share)
            self._at = now
            return self._left > 0

    def spend(self, seconds: float) -> None:
        with self._lock:
            self._left -= seconds


# A preview judges up to PREVIEW_MOST listings, about 120 ms of CPU: 25 subscribers changing
# their places at the 20 a minute they may filled a core, and the owner's
# answers and the deliveries waited. Previews get a tenth of a core; past it, a change is
# answered without one.
PREVIEWS = CpuShare(share=0.1, most=2.0)
NO_PREVIEW = "(ไม่มีตัวอย่างครั้งนี้ · no preview this time: many chats are changing theirs at once)"


def recent(store: Store, at: datetime) -> list[Listing]:
    """The listings a preview judges: the last PREVIEW_DAYS days', at most PREVIEW_MOST."""
    return store.chat.recent(at - timedelta(days=PREVIEW_DAYS), PREVIEW_MOST)


def preview(recent: Sequence[Listing], rules: FilterConfig) -> str:
    """How many of `recent` (what `recent()` read) `rules` would have brought, and the newest
    three (tune in a minute, not in a week); "" when hunter saw none."""
    if not recent:
        return ""
    hits = [listing for listing in recent if judge(listing, rules).matched]
    some = ", ".join(f"“{listing.title[:50]}”" for listing in hits[:3])
    return (
        f"{PREVIEW_DAYS} วันที่ผ่านมา ตรง {len(hits)} จาก {len(recent)} งาน · the last "
        f"{PREVIEW_DAYS} days would have brought {len(hits)} of {len(recent)}"
        + (f": {some}" if some else "")
    )


class Tuning:
    """What a configured chat changes of its rules, and how it reads them back."""

    def __init__(
        self, config: Config, store: Store, destinations: Destinations, cap: int = KEYWORDS_MAX
    ) -> None:
        """`cap`: the keywords the chat may add (a subscriber's: [subscribers] max_keywords)."""
        self.config, self.store, self.destinations = config, store, destinations
        self.cap = cap

    def apply(self, command: Command, chat: str, at: datetime) -> tuple[str, tuple[str, ...]]:
        """Do `command` for `chat`, said at `at` (the channel's time of the message: of two changes,
        the one said last wins): the reply, and the quick replies under it. A change of what the
        chat wants is answered with what it would have brought (try before you wait)."""
        reply, quick = self._apply(command, chat, at)
        if command.verb in PREVIEWED and quick == CHANGED:
            reply = f"{reply}\n{self._preview(chat, at)}".rstrip()
        return reply, quick

    def _preview(self, chat: str, at: datetime) -> str:
        """The preview of `chat`'s rules in force, within the previews' share of the CPU."""
        if not PREVIEWS.available():
            return NO_PREVIEW
        started = time.thread_time()
        try:
            return preview(recent(self.store, at), self.in_force(chat, at)[0])
        except StoreError as exc:  # the change is kept: its answer goes without the preview
            log.warning("no preview for a chat's change: %s", exc)
            return ""
        finally:
            PREVIEWS.spend(time.thread_time() - started)

    def _apply(self, command: Command, chat: str, at: datetime) -> tuple[str, tuple[str, ...]]:
        argument = command.argument
        if command.verb in ("add", "remove"):
            problem = word_problem(argument)
            if problem:
                return problem, ()
            word = argument.casefold()
            if command.verb == "remove" and word not in self.keywords(chat, at):
                return (
                    f"“{word}” ไม่ได้เป็นคำของแชทนี้ (ดูด้วย คำ) · “{word}” is not one of this "
                    "chat's keywords (คำ / words lists them)",
                    ("คำ",),
                )
            if not self.store.chat.tune_word(chat, word, command.verb, at, self.cap):
                return self.cap_refusal, ("คำ",)
            said = "เพิ่มคำ" if command.verb == "add" else "ลบคำ"
            done = "added" if command.verb == "add" else "removed"
            still = self.mutes.still(word, chat, at)
            return f"{said} “{word}” แล้ว · {done} “{word}”{still}", CHANGED
        if command.verb == "unmute":
            return self.mutes.lift(argument, chat)
        if command.verb == "budget":
            floor = parse_floor(argument)
            if floor is None:
                return (
                    "งบต้องเป็นตัวเลข 0 ขึ้นไป เช่น “งบ 5000” (บาทต่องาน) “งบ $25/ชม.” "
                    "“งบ 30000 ต่อเดือน” (งบ 0 = ไม่กำหนด) · the budget is an amount of 0 or "
                    "more, e.g. “budget 5000” (baht a job), “budget $25/hour”, “budget 30000 "
                    "per month” (0 lifts it)",
                    (),
                )
            if (floor.currency, floor.period) == (HOME.currency, HOME.period):
                self.store.chat.tune_settings(chat, at, min_budget=floor.amount)
            else:
                self.store.chat.tune_floor(chat, floor, at)
            shown = pay_text(floor.amount, None, floor.currency, floor.period)
            if not floor.period:
                shown += " ต่องาน · a whole job"
            if not floor.amount:
                shown = f"ไม่กำหนด · none ({describe_terms(floor.currency, floor.period)})"
            return f"งบขั้นต่ำ · minimum budget: {shown}", CHANGED
        if command.verb == "languages":
            return self._languages(argument, chat, at)
        if command.verb == "places":
            return self._places(argument, chat, at)
        if command.verb in ("pause", "resume"):
            paused = command.verb == "pause"
            self.store.chat.tune_settings(chat, at, paused=paused)
            if paused:
                return (
                    "หยุดส่งแล้ว งานใหม่ยังเก็บไว้ แตะ งานใหม่ เพื่อดู · paused: listings wait, "
                    "งานใหม่ still brings them",
                    ("ต่อ", "งานใหม่"),
                )
            return "ส่งต่อแล้ว · pushes resume", CHANGED
        return self.words(chat, at)

    def _languages(self, argument: str, chat: str, at: datetime) -> tuple[str, tuple[str, ...]]:
        """The languages `chat` reads: a listing in none of them is left out, one
        whose language cannot be told is kept."""
        return self._list_said(
            chat, at, read_languages(argument) if argument.strip() else None, argument,
            self.store.chat.tune_languages, "ภาษา · languages", "ทุกภาษา · every language",
            "ภาษาเป็นรหัสสองตัวหรือชื่อภาษา เช่น “ภาษา ไทย อังกฤษ” หรือ “ภาษา th en” "
            "(“ภาษา ทั้งหมด” = ทุกภาษา) · languages are two-letter codes or names, e.g. "
            "“languages en th”, “languages english” (“languages all” reads every one)",
        )  # fmt: skip

    def _places(self, argument: str, chat: str, at: datetime) -> tuple[str, tuple[str, ...]]:
        """Where `chat` can work: a listing elsewhere, and a remote one not open to
        any of them, is left out; one whose place cannot be read is kept."""
        said = argument[:PLACES_TEXT_MOST]
        chosen = read_chat_places(said) if argument.strip() else None
        unknown = unknown_said(said)[:40] if chosen is None else ""
        named = f"ไม่รู้จัก “{unknown}” · hunter does not know “{unknown}” as a place. "
        said, changed = self._list_said(
            chat, at, chosen, argument, self.store.chat.tune_places,
            "ที่ทำงาน · places", "ทุกที่ · every place", (named if unknown else "") + PLACES_USAGE,
        )  # fmt: skip
        notes = [note for p in chosen or () if (note := ambiguous(p))]  # "Valencia": which one
        return "\n".join([said, *notes]), changed

    def _list_said(
        self,
        chat: str,
        at: datetime,
        chosen: tuple[str, ...] | None,
        argument: str,
        tune: Callable[[str, tuple[str, ...] | None, datetime], None],
        head: str,
        every: str,
        wrong: str,
    ) -> tuple[str, tuple[str, ...]]:
        """A list the chat said (its languages, its places): kept and repeated back; the
        rules in force when it said none; `wrong` when a word of it is not one hunter knows."""
        if not argument.strip():
            return self.words(chat, at)
        if chosen is None:
            return wrong, ()
        tune(chat, chosen, at)
        return f"{head}: {', '.join(chosen) or every}", CHANGED

    @property
    def cap_refusal(self) -> str:
        """The answer to a word past the chat's cap (a subscriber hears it once an hour)."""
        return (
            f"เพิ่มได้ไม่เกิน {self.cap} คำ ลบคำที่ไม่ใช้ก่อน · a chat adds at most "
            f"{self.cap} keywords: remove one first"
        )

    @property
    def mutes(self) -> Mutes:
        """A card's mute button and the chat's เปิดคำ (mutes.py), within this chat's cap."""
        return Mutes(self.store, self.config.timezone, self.cap)

    def in_force(self, chat: str, now: datetime) -> tuple[FilterConfig, ChatRules | None]:
        """`chat`'s filter as the next poll judges with it (a source's own keys aside), and
        what the chat changed."""
        changes = self.store.chat.rules(now)
        rules = self.destinations.rules_for(chat, self.config.filter, changes)[0]
        return rules, changes.get(chat)

    def keywords(self, chat: str, now: datetime) -> set[str]:
        """`chat`'s include keywords in force, case-folded."""
        return {word.casefold() for word in self.in_force(chat, now)[0].include}

    def words(self, chat: str, now: datetime) -> tuple[str, tuple[str, ...]]:
        """The keywords, excluded words, budget, pause and mutes in force in `chat`."""
        rule, rules = self.in_force(chat, now)
        lines = [
            "คำ · words: " + (", ".join(rule.include) or "ทุกงาน · everything"),
            "ไม่เอา · exclude: " + (", ".join(rule.exclude) or "-"),
            "งบขั้นต่ำ · min budget: " + (", ".join(describe_floors(rule)) or "-"),
            "ภาษา · languages: " + (", ".join(rule.languages) or "ทุกภาษา · every language"),
            "ที่ทำงาน · places: " + (", ".join(rule.places) or "ทุกที่ · every place"),
        ]
        if rules and rules.paused:
            lines.append("หยุดส่งอยู่ · paused (ต่อ resumes)")
        if rules and rules.mutes:
            lines.append("ปิดคำ · muted: " + ", ".join(sorted(rules.mutes)))
        quick = tuple(f"ลบ {word}" for word in rule.include[:8])
        lifts = tuple(f"เปิดคำ {word}" for word in sorted(rules.mutes)[:2]) if rules else ()
        pause = "ต่อ" if rules and rules.paused else "หยุด"
        return "\n".join(lines), (*quick, *lifts, pause, "งบ 0")
