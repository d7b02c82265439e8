"""LINE's recipients and the chat's words on LINE: what a `to` of LINE's is, and how LINE's
people are told to use the chat.

A LINE id is 33 characters: U and 32 hex digits for a user, C for a group, R for a
multi-person chat (a "room"). A push to a group or room costs one message per member (LINE's
pricing page, as transcribed 2026-08-13), read from LINE's member-count endpoints.
"""

from __future__ import annotations

import re

from hunter.deliver.channel import ChatWords, Recipient

NAME = "LINE"
HOOK_PATH = "/line/webhook"  # where LINE calls hunter (the console's Webhook URL)
ID = re.compile(r"[UCR][0-9a-f]{32}")
IDS_HELP = "a LINE user (U...), group (C...) or room (R...) id of 33 characters"
KINDS = {"U": "user", "C": "group", "R": "room"}

WORDS = ChatWords(
    help=(
        "hunter ส่งงานใหม่ที่ตรงกับคำของคุณมาที่แชทนี้\n"
        "• งานใหม่ (new): งานที่รออยู่ตอนนี้ ไม่เสียโควตา\n"
        "• สถานะ (status): แหล่งงาน งานที่รอ และโควตา LINE\n"
        "• คำ (words): คำ งบ และคำที่ปิดไว้ของแชทนี้\n"
        "• เพิ่ม/ลบ คำ (add/remove WORD) · งบ 5000 (budget N)\n"
        "• เปิดคำ คำ (unmute WORD): ยกเลิก ไม่เอาคำนี้\n"
        "• ที่ทำงาน กรุงเทพ ปริมณฑล (places) · ภาษา ไทย อังกฤษ (languages)\n"
        "• หยุด/ต่อ (pause/resume) · ทำไม ลิงก์ (why LINK)\n"
        "• ช่วยด้วย (help): ข้อความนี้\n"
        "ปุ่มใต้การ์ด: 👍 สนใจ · 👎 ไม่สนใจ · ไม่เอาคำนี้ (30 วัน) · สมัครแล้ว"
    ),
    more="อีก {n} งานรออยู่: แตะ งานใหม่ อีกครั้ง · {n} more wait.",
    add="set LINE_TO to it (or a [[chats]] to)",
)


def recipient(to: str | None, channel: str = NAME) -> Recipient:
    """What a LINE id is (None: LINE_TO, which counts as a person until read)."""
    kind = KINDS.get((to or "U")[:1], "chat")
    group = kind != "user"
    return Recipient(channel, kind, group=group, per_member=group, asked=group)
