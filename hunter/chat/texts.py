"""What the chat says, in Thai first and English after: its fixed answers (the words it
understands are commands.py's)."""

from __future__ import annotations

HELP_TEXT = (
    "hunter ส่งงานใหม่ที่ตรงกับคำของคุณมาที่แชทนี้\n"
    "• งานใหม่ (new): งานที่รออยู่ตอนนี้ ไม่เสียโควตา\n"
    "• สถานะ (status): แหล่งงาน งานที่รอ และโควตา LINE\n"
    "• คำ (words): คำ งบ และคำที่ปิดไว้ของแชทนี้\n"
    "• เพิ่ม/ลบ คำ (add/remove WORD) · งบ 5000 (budget N)\n"
    "• หยุด/ต่อ (pause/resume) · ทำไม ลิงก์ (why LINK)\n"
    "• ช่วยด้วย (help): ข้อความนี้\n"
    "ปุ่มใต้การ์ด: ไม่สนใจ · ไม่เอาคำนี้ (30 วัน) · สมัครแล้ว"
)
PRIVATE_TEXT = (
    "ขออภัย บอทนี้เป็นบอทส่วนตัว ตอบเฉพาะเจ้าของเท่านั้น\n"
    "Sorry, this bot is private: it answers its owner only."
)
NOTHING_NEW = "ยังไม่มีงานใหม่ · Nothing new yet."
ONLY_SENT = "ไม่มีงานรอส่ง นี่คืองานล่าสุดที่ส่งไปแล้ว · Nothing waits; the last ones sent."


def more_waiting(waiting: int) -> str:
    return f"อีก {waiting} งานรออยู่: แตะ งานใหม่ อีกครั้ง · {waiting} more wait."


def welcome(chat_id: str | None, owner: bool) -> str:
    where = {"U": "user", "C": "group", "R": "room"}.get((chat_id or "?")[:1], "chat")
    if owner:
        return f"สวัสดี! hunter ส่งงานใหม่มาที่แชทนี้ (this {where}: {chat_id})\n{HELP_TEXT}"
    return (
        f"{PRIVATE_TEXT}\n"
        f"This {where}'s id is {chat_id}: if this is your own hunter, set LINE_TO to it and "
        "restart."
    )
