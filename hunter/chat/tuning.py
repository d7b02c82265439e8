"""Tuning hunter from the chat: keywords, budget and pause, each for the chat it is said in.

    เพิ่ม WORD / add WORD        a keyword more            ลบ WORD / remove WORD   one less
    คำ / words                   what is in force          งบ N / budget N         minimum budget
    หยุด / pause, ต่อ / resume   pushes stop and start     ทำไม LINK / why LINK    see why.py

A change is kept in the store (hunter_tuning, hunter_chat_settings) and the next poll of any
replica, or `run --once`, judges with it; hunter.toml stays the start, and `hunter tuning
--reset` drops what the chats changed. Bad input gets a reply that says what is accepted, and
nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from hunter.chats import OWNER, Destinations
from hunter.config import Config
from hunter.pay import HOME, describe_floors, describe_terms, parse_floor, pay_text
from hunter.sources.spec import FilterConfig
from hunter.store import Store

VERBS: dict[str, tuple[str, ...]] = {
    "add": ("เพิ่ม", "add"),
    "remove": ("ลบ", "remove"),
    "words": ("คำ", "words"),
    "budget": ("งบ", "budget"),
    "pause": ("หยุด", "pause"),
    "resume": ("ต่อ", "resume"),
    "why": ("ทำไม", "why"),
}
TAKES_ARGUMENT = {"add", "remove", "budget", "why"}
WORD_MAX = 60  # characters of one keyword
CHANGED = ("คำ", "งานใหม่")  # quick replies after a change


@dataclass(frozen=True)
class Command:
    verb: str  # a key of VERBS
    argument: str


def parse(text: str) -> Command | None:
    """The tuning command a message is, if it is one: the verb alone, or the verb, a space and
    its argument. People chat in groups: "ต่อไป" or "งบประมาณเท่าไหร่" is not a command."""
    parts = text.split(maxsplit=1)
    if not parts:
        return None
    folded, argument = parts[0].casefold(), parts[1] if len(parts) > 1 else ""
    for verb, words in VERBS.items():
        if folded in words and (verb in TAKES_ARGUMENT or not argument.strip()):
            return Command(verb, argument.strip())
    return None


def word_problem(word: str) -> str | None:
    """Why `word` cannot be a keyword, in the reply's words; None when it can."""
    if not word:
        return "บอกคำด้วย เช่น “เพิ่ม python” · say the word, e.g. “add python”"
    if len(word) > WORD_MAX or not word.isprintable():
        return (
            f"คำยาวได้ไม่เกิน {WORD_MAX} ตัวอักษร · a keyword is at most {WORD_MAX} printable characters"
        )
    return None


class Tuning:
    """What a configured chat changes of its rules, and how it reads them back."""

    def __init__(self, config: Config, store: Store, destinations: Destinations) -> None:
        self.config, self.store, self.destinations = config, store, destinations

    def base(self, chat: str) -> FilterConfig:
        """hunter.toml's filter for `chat`: the global [filter], with the chat's own keys
        (a source's own keys still apply to that source's listings)."""
        chosen = self.destinations.chat_named(chat)
        if chat == OWNER or chosen is None:
            return self.config.filter
        return replace(self.config.filter, **chosen.rules)

    def apply(self, command: Command, chat: str, now: datetime) -> tuple[str, tuple[str, ...]]:
        """Do `command` for `chat`: the reply, and the quick replies under it."""
        argument = command.argument
        if command.verb in ("add", "remove"):
            problem = word_problem(argument)
            if problem:
                return problem, ()
            word = argument.casefold()
            self.store.chat.tune_word(chat, word, command.verb, now)
            said = "เพิ่มคำ" if command.verb == "add" else "ลบคำ"
            done = "added" if command.verb == "add" else "removed"
            return f"{said} “{word}” แล้ว · {done} “{word}”", CHANGED
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
                self.store.chat.tune_settings(chat, now, min_budget=floor.amount)
            else:
                self.store.chat.tune_floor(chat, floor, now)
            shown = pay_text(floor.amount, None, floor.currency, floor.period)
            if not floor.period:
                shown += " ต่องาน · a whole job"
            if not floor.amount:
                shown = f"ไม่กำหนด · none ({describe_terms(floor.currency, floor.period)})"
            return f"งบขั้นต่ำ · minimum budget: {shown}", CHANGED
        if command.verb in ("pause", "resume"):
            paused = command.verb == "pause"
            self.store.chat.tune_settings(chat, now, paused=paused)
            if paused:
                return (
                    "หยุดส่งแล้ว งานใหม่ยังเก็บไว้ แตะ งานใหม่ เพื่อดู · paused: listings wait, "
                    "งานใหม่ still brings them",
                    ("ต่อ", "งานใหม่"),
                )
            return "ส่งต่อแล้ว · pushes resume", CHANGED
        return self.words(chat, now)

    def words(self, chat: str, now: datetime) -> tuple[str, tuple[str, ...]]:
        """The keywords, excluded words, budget, pause and mutes in force in `chat`."""
        rules = self.store.chat.rules(now).get(chat)
        base = self.base(chat)
        rule = rules.apply(base) if rules else base
        lines = [
            "คำ · words: " + (", ".join(rule.include) or "ทุกงาน · everything"),
            "ไม่เอา · exclude: " + (", ".join(rule.exclude) or "-"),
            "งบขั้นต่ำ · min budget: " + (", ".join(describe_floors(rule)) or "-"),
        ]
        if rules and rules.paused:
            lines.append("หยุดส่งอยู่ · paused (ต่อ resumes)")
        if rules and rules.mutes:
            lines.append("ปิดคำ · muted: " + ", ".join(sorted(rules.mutes)))
        quick = tuple(f"ลบ {word}" for word in rule.include[:8])
        return "\n".join(lines), (*quick, "ต่อ" if rules and rules.paused else "หยุด", "งบ 0")
