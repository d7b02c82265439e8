"""Telegram's recipients and the chat's words on Telegram: a `to` of Telegram's is "telegram:"
and the chat's id (a user's is positive; a group's or supergroup's negative), and Telegram's
people type commands as Latin words after a slash.
"""

from __future__ import annotations

import re

from hunter.deliver.channel import ChatWords, Recipient

NAME = "Telegram"
PREFIX = "telegram:"
HOOK_PATH = "/telegram/webhook"  # where Telegram calls hunter (setWebhook's url)
ID = re.compile(r"telegram:-?[1-9][0-9]{0,19}")
IDS_HELP = '"telegram:<chat id>" (a number, negative for a group)'

# In a group a bot with privacy mode on (BotFather's default) sees only commands, so the
# slash commands come first.
WORDS = ChatWords(
    help=(
        "hunter ส่งงานใหม่ที่ตรงกับคำของคุณมาที่แชทนี้\n"
        "• /new (งานใหม่): งานที่รออยู่ตอนนี้\n"
        "• /status (สถานะ): แหล่งงานและงานที่รอ\n"
        "• /words (คำ): คำ งบ และคำที่ปิดไว้ของแชทนี้\n"
        "• /add WORD, /remove WORD (เพิ่ม/ลบ คำ) · /budget 5000 (งบ)\n"
        "• /unmute WORD (เปิดคำ): ยกเลิก ไม่เอาคำนี้\n"
        "• /places กรุงเทพ ปริมณฑล (ที่ทำงาน) · /languages ไทย อังกฤษ (ภาษา)\n"
        "• /pause, /resume (หยุด/ต่อ) · /why LINK (ทำไม)\n"
        "• /help (ช่วยด้วย): ข้อความนี้\n"
        "ปุ่มใต้งาน: 👍 สนใจ · 👎 ไม่สนใจ · ไม่เอาคำนี้ (30 วัน) · สมัครแล้ว"
    ),
    more="อีก {n} งานรออยู่: ส่ง /new อีกครั้ง · {n} more wait: /new again.",
    add='add a [[chats]] with to = "{id}" to hunter.toml',
)


def on_telegram(to: str | None) -> bool:
    return (to or "").startswith(PREFIX)


def chat_number(to: str | None) -> int:
    """The Bot API's chat_id of a `to`."""
    if to is None or not ID.fullmatch(to):
        raise ValueError(f"not a Telegram chat: {to!r}")
    return int(to[len(PREFIX) :])


def recipient(to: str | None) -> Recipient:
    group = (to or "").startswith(f"{PREFIX}-")
    kind = "Telegram group" if group else "Telegram user"
    return Recipient(NAME, kind, group=group, asked=True)  # getChat: still there?
