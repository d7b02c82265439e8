"""“ทำไม LINK” / “why LINK”: what hunter knows of a listing and what it decided, for the chat
the question is asked in.

Never seen (and which source reads that site), filtered (which rule, with the numbers),
muted, dismissed, primed, merged with the first copy of its job (which, and why),
waiting (paused, quiet hours, the pace and until when, a failed push)
or sent (when). The listing is found by its link or its id, in that chat's rows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from hunter.chat.tuning import Tuning
from hunter.redact import clip
from hunter.rules.chat_rules import ChatRules
from hunter.rules.destinations import OWNER
from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import floor_missed, judge
from hunter.rules.listing import Listing
from hunter.rules.pay import pay_text
from hunter.store.columns import document, optional_moment, optional_text, text
from hunter.words import notices

USAGE = "ส่งลิงก์หรือรหัสงานด้วย เช่น “ทำไม https://…” · send the listing's link or id: “why https://…”"


class Why:
    def __init__(
        self,
        tuning: Tuning,
        clock: Callable[[], datetime],
        next_push_at: Callable[[], datetime | None],
    ) -> None:
        self.tuning, self.clock, self.next_push_at = tuning, clock, next_push_at
        self.config, self.store = tuning.config, tuning.store
        self.tz = ZoneInfo(self.config.timezone)

    def explain(self, argument: str, chat: str) -> str:
        argument = argument.strip()
        if not argument or len(argument) > 2000:
            return USAGE
        is_link = argument.startswith(("http://", "https://"))
        # "<id>#<chat>" is how a chat's row was named before release 15 (a status it printed)
        ids = [] if is_link else sorted({argument, argument.removesuffix(f"#{chat}")})
        rows = self.store.chat.find(ids, argument if is_link else None)
        mine = [r for r in rows if text(r, "chat") == chat]
        # The owner's row of a board's listing explains it to any chat (the same listing,
        # judged by that chat's rules); hunter's own notices are the owner's alone (a group
        # must never be told the owner's LINE month).
        main = [
            r
            for r in rows
            if text(r, "chat") == OWNER and self._listing(r).source != notices.SOURCE
        ]
        if mine:
            return self._known(mine[0], chat)
        if main:
            return self._not_for_this_chat(main[0], chat)
        return self._never_seen(argument, is_link)

    # -- the answers --------------------------------------------------------------------------
    def _known(self, row: Mapping[str, Any], chat: str) -> str:
        status = text(row, "status")
        listing = self._listing(row)
        head = f"“{listing.title[:60]}”: "
        now = self.clock()
        if status == "sent":
            at = optional_moment(row, "sent_at")
            return head + f"ส่งแล้ว {self._when(at)} · sent {self._when(at)}"
        if status == "primed":
            return head + (
                "เห็นตอนอ่านแหล่งนี้ครั้งแรก จึงไม่ส่ง · seen when its source was first read "
                "(priming): those are never sent"
            )
        if status in ("sending", "retry", "stuck"):
            error = optional_text(row, "last_error") or "-"
            where = {
                "sending": "กำลังส่ง · being sent now",
                "retry": "รอส่งใหม่ · waits to be sent again",
                "stuck": "ติดค้าง · stuck (hunter retry)",
            }[status]
            return head + f"{where}: {clip(error, 160)}"
        if status == "pending":
            return head + self._waiting(chat, now)
        dismissed = {m.job_id for m in self.store.chat.marks("dismissed") if m.chat == chat}
        if text(row, "job_id") in dismissed:
            return head + "กดไม่สนใจไว้ · dismissed: it will not come back"
        return head + self._filtered(listing, chat, now)

    def _waiting(self, chat: str, now: datetime) -> str:
        rules = self.store.chat.rules(now).get(chat)
        if rules and rules.paused:
            return "รออยู่ แชทนี้หยุดส่ง (ต่อ = ส่งต่อ) · waiting: this chat is paused (resume)"
        calendar = self.config.calendar
        if calendar.is_quiet(now):
            until = self._when(calendar.quiet_until(now))
            return f"รอพ้นช่วงเงียบ {until} · waiting for quiet hours to end, {until}"
        at = self.next_push_at()
        if at is not None and at > now:
            return (
                f"รอโควตา ส่งได้ {self._when(at)} · waiting for the pace: next push {self._when(at)}"
            )
        return "รอส่งรอบถัดไป · waiting for the next poll's push (or tap งานใหม่)"

    def _filtered(self, listing: Listing, chat: str, now: datetime) -> str:
        changed = self.store.chat.rules(now).get(chat, ChatRules())  # one read for both
        rules, mutes = self._rules(chat, listing.source, changed), changed.mutes
        missed = floor_missed(listing, rules)
        if missed is not None:
            have, want = (pay_text(n, None, listing.currency, listing.period) for n in missed)
            return f"กรองออก: งบ {have} ต่ำกว่า {want} · filtered: budget {have} is under {want}"
        verdict = judge(listing, replace(rules, min_budget=0, min_pay=()), mutes)
        if verdict.matched and listing.same_why:  # matched, and held back as a copy
            return f"งานเดียวกับที่ส่งแล้ว · merged: {listing.same_why}"
        if verdict.matched:
            return "ตอนนั้นไม่ตรงกับคำ (ตอนนี้ตรงแล้ว) · it did not match when it was new; it would now"
        if verdict.reason.startswith("matches only muted"):
            return f"ปิดคำไว้ · muted word: {verdict.reason.split(': ', 1)[-1]}"
        if verdict.reason.startswith("excluded"):
            return f"กรองออก: มีคำต้องห้าม · filtered: {verdict.reason}"
        if verdict.reason.startswith("written in"):  # a language it does not read
            return f"กรองออก: ภาษาที่ไม่ได้อ่าน · filtered: {verdict.reason}"
        if verdict.reason.startswith("place read as"):  # somewhere it cannot work
            return f"กรองออก: สถานที่ไม่ตรง · filtered: {verdict.reason}"
        if verdict.reason.startswith("held back"):  # like a listing it 👎'd
            return f"พักไว้: คล้ายงานที่กด 👎 · {verdict.reason}"
        words = ", ".join(rules.include) or "-"
        return f"กรองออก: ไม่มีคำที่ตั้งไว้ · filtered: none of its words ({words})"

    def _not_for_this_chat(self, row: Mapping[str, Any], chat: str) -> str:
        listing = self._listing(row)
        configured = self.tuning.destinations.chat_named(chat)
        if configured is not None and not configured.reads(listing.source):
            return f"แชทนี้ไม่ได้อ่าน {listing.source} · this chat does not read {listing.source}"
        if text(row, "status") == "primed":
            return self._known(row, chat)
        return f"“{listing.title[:60]}”: " + self._filtered(listing, chat, self.clock())

    def _never_seen(self, argument: str, is_link: bool) -> str:
        said = "hunter ไม่เคยเห็นงานนี้ · never seen"
        if is_link:
            parts = urlsplit(argument)
            host = parts.hostname or ""
            readers = [s.name for s in self.config.sources if urlsplit(s.url).hostname == host]
            known = self.store.chat.sources_linking(f"{parts.scheme}://{parts.netloc}/")
            # Of those, the ones hunter.toml still reads (a source taken out reads nothing).
            configured = {s.name for s in self.config.sources}
            readers += [n for n in known if n in configured and n not in readers]
        else:
            name = argument.partition(":")[0]
            readers = [s.name for s in self.config.sources if s.name == name]
        if readers:
            return (
                f"{said}: {', '.join(readers)} อ่านเว็บนี้ จะเห็นเมื่อเว็บแสดงงานนี้ · "
                f"{', '.join(readers)} reads that site: it comes when the site shows it"
            )
        return f"{said}: ไม่มีแหล่งไหนอ่านเว็บนี้ · no source reads that site"

    # -- helpers ------------------------------------------------------------------------------
    def _rules(self, chat: str, source: str, changed: ChatRules) -> FilterConfig:
        """The filter the poll judges `chat`'s listings of `source` with, today (the global
        [filter] for a source no longer in hunter.toml)."""
        spec = next((s for s in self.config.sources if s.name == source), None)
        base = spec.filter if spec is not None else self.config.filter
        return self.tuning.destinations.rules_for(chat, base, {chat: changed})[0]

    def _listing(self, row: Mapping[str, Any]) -> Listing:
        return Listing.from_payload(text(row, "job_id"), document(row, "listing"))

    def _when(self, at: datetime | None) -> str:
        return "-" if at is None else f"{at.astimezone(self.tz):%d %b %H:%M}"
