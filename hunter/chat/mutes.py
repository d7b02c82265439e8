"""A chat's mutes: a card's "ไม่เอาคำนี้" mutes the word it matched for MUTE_FOR, and
"เปิดคำ WORD" / "unmute WORD" lifts it from the chat (it was `hunter unmute` only, which a
person on their phone cannot run). Each for the chat it is said in; the store keeps them
(hunter_chat_mutes), the judge reads them with the chat's rules."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from hunter.rules.keywords import word_problem
from hunter.store import Store

CHANGED = ("คำ", "งานใหม่")  # quick replies after a change
MUTE_FOR = timedelta(days=30)  # a card's mute button


class Mutes:
    """One chat's mutes, as its buttons and commands change them; `cap`: the words it may
    mute (its keywords' cap)."""

    def __init__(self, store: Store, timezone: str, cap: int) -> None:
        self.store, self.timezone, self.cap = store, timezone, cap

    def mute(self, argument: str, chat: str, now: datetime) -> str:
        """A card's mute button: `argument` muted in `chat` for MUTE_FOR, or why not (a
        button's data is the chat's to write too: a typed word's rules hold)."""
        word = argument.casefold()
        refused = self.refused(word, chat, now)
        if refused:
            return refused
        until = now + MUTE_FOR
        self.store.chat.mute(word, until, now, chat)
        local = until.astimezone(ZoneInfo(self.timezone))
        return (
            f"ปิดคำ “{argument}” ถึง {local:%d %b} (เปิดคำ {argument} เพื่อยกเลิก) · muted "
            f"“{argument}” for 30 days (unmute {argument} undoes it)"
        )

    def still(self, word: str, chat: str, at: datetime) -> str:
        """A note that `word`, just added, is still muted by a card's button: its listings
        stay out until the mute ends or เปิดคำ lifts it; "" when it is not."""
        rules = self.store.chat.rules(at).get(chat)
        until = rules.mutes.get(word) if rules else None
        if until is None:
            return ""
        local = until.astimezone(ZoneInfo(self.timezone))
        return (
            f"\nยังปิดคำนี้อยู่ถึง {local:%d %b} (เปิดคำ {word}) · still muted until "
            f"{local:%d %b}: unmute {word} lifts it"
        )

    def refused(self, word: str, chat: str, now: datetime) -> str | None:
        """Why `word` may not be muted in `chat`: what a typed keyword may not be (hidden
        characters, look-alikes, too long), or past the cap of a chat's keywords (forged
        buttons must not leave mutes of hidden words); None: it may."""
        problem = word_problem(word)
        if problem:
            return problem
        rules = self.store.chat.rules(now).get(chat)
        muted = rules.mutes if rules else {}
        if word not in muted and len(muted) >= self.cap:
            return (
                f"ปิดคำได้ไม่เกิน {self.cap} คำ เปิดคำหนึ่งก่อน · a chat mutes at most "
                f"{self.cap} words: unmute one first"
            )
        return None

    def lift(self, argument: str, chat: str) -> tuple[str, tuple[str, ...]]:
        """เปิดคำ: `argument`'s mute lifted in `chat`; the reply and its quick replies."""
        word = argument.casefold()
        if not self.store.chat.unmute(word, chat):
            return (
                f"“{word}” ไม่ได้ปิดไว้ (ดูด้วย คำ) · “{word}” is not muted in this chat "
                "(คำ / words lists what is)",
                ("คำ",),
            )
        return f"เปิดคำ “{word}” แล้ว · “{word}” is no longer muted: its listings come again", CHANGED
