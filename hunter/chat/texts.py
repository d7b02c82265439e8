"""What the chat says, in Thai first and English after: its fixed answers (the words it
understands are commands.py's)."""

from __future__ import annotations

from hunter.deliver.channel import Replier

PRIVATE_TEXT = (
    "ขออภัย บอทนี้เป็นบอทส่วนตัว ตอบเฉพาะเจ้าของเท่านั้น\n"
    "Sorry, this bot is private: it answers its owner only."
)
TOO_FAST_TEXT = (
    "ส่งเร็วเกินกว่าที่ตอบทัน คำสั่งบางส่วนถูกข้าม ส่งอีกครั้งในอีกสักครู่ · You sent more "
    "commands than hunter answers at once: some were skipped; send them again in a minute."
)
NOTHING_NEW = "ยังไม่มีงานใหม่ · Nothing new yet."
ONLY_SENT = "ไม่มีงานรอส่ง นี่คืองานล่าสุดที่ส่งไปแล้ว · Nothing waits; the last ones sent."


def help_text(replier: Replier) -> str:
    """The commands, as the chat's channel types them."""
    return replier.words.help


def more_waiting(waiting: int, replier: Replier) -> str:
    return replier.words.more.format(n=waiting)


def welcome(chat_id: str | None, owner: bool, replier: Replier) -> str:
    recipient = replier.recipient(chat_id)
    where = recipient.kind.split()[-1]  # "Telegram group" -> "group"
    if owner:
        return f"สวัสดี! hunter ส่งงานใหม่มาที่แชทนี้ (this {where}: {chat_id})\n{help_text(replier)}"
    fix = replier.words.add.format(id=chat_id)
    return (
        f"{PRIVATE_TEXT}\n"
        f"This {where}'s id is {chat_id}: if this is your own hunter, {fix} and restart."
    )
