"""What a stranger sees of the bot before pressing Start, and the list "/" shows:
the bot's commands, its description (in an empty chat) and its short description (its
profile, and a shared link), in English for everyone and in Thai for a Thai app
(`language_code` "th"). `hunter telegram setup` sets them.

Telegram's limits (Bot API: setMyCommands, BotCommand, setMyDescription,
setMyShortDescription): at most 100 commands, each 1-32 of a-z, 0-9 and _, described in
1-256 characters; a description 0-512 characters, a short one 0-120.
"""

from __future__ import annotations

import re
from typing import Any

COMMAND = re.compile(r"[a-z0-9_]{1,32}")
COMMANDS_MOST, ABOUT_MOST, DESCRIPTION_MOST, SHORT_MOST = 100, 256, 512, 120

# (command, English, Thai): what hunter/chat/commands.py understands, as a person uses it.
COMMANDS = (
    ("start", "Get new job listings here", "รับงานใหม่ในแชทนี้"),
    ("add", "Add a keyword: /add python", "เพิ่มคำ: /add python"),
    ("remove", "Remove a keyword: /remove python", "ลบคำ: /remove python"),
    ("unmute", "Lift a card's mute: /unmute python", "เปิดคำที่ปิดไว้: /unmute python"),
    ("words", "Your keywords and rules", "คำและเงื่อนไขของคุณ"),
    ("new", "What waits for you, now", "งานที่รอส่ง ตอนนี้เลย"),
    ("budget", "Least pay: /budget 5000", "งบขั้นต่ำ: /budget 5000"),
    ("languages", "Languages you read: /languages en th", "ภาษาที่อ่าน: /languages ไทย อังกฤษ"),
    ("places", "Where you can work: /places Bangkok, remote", "ที่ทำงาน: /places กรุงเทพ ปริมณฑล"),
    ("pause", "Hold alerts", "พักการแจ้งเตือน"),
    ("resume", "Alerts again", "แจ้งเตือนต่อ"),
    ("why", "Why a listing came, or not: /why LINK", "ทำไมได้ หรือไม่ได้งานนี้: /why ลิงก์"),
    ("status", "What hunter reads and sends", "สถานะของบอท"),
    ("stop", "Stop alerts here (keywords kept)", "หยุดแจ้งเตือน (เก็บคำไว้)"),
    ("forget", "Delete all hunter keeps of this chat", "ลบข้อมูลทั้งหมดของแชทนี้"),
    ("help", "How to use hunter", "วิธีใช้"),
)
DESCRIPTION = {
    "": (
        "hunter sends you new job listings from freelance and job boards (Fastwork, JobThai, "
        "RemoteOK and more) that match your keywords: each once, as soon as it is posted. "
        "Press Start, then send /add and a word, e.g. /add python. /forget deletes all it "
        "keeps about you."
    ),
    "th": (
        "hunter ส่งงานใหม่จากเว็บฟรีแลนซ์และเว็บหางาน (Fastwork, JobThai, RemoteOK และอื่น ๆ) "
        "ที่ตรงกับคำของคุณ งานละครั้ง ทันทีที่ลงประกาศ กด Start แล้วส่ง /add ตามด้วยคำ เช่น "
        "/add python ส่ง /forget เพื่อลบข้อมูลทั้งหมดของคุณ"
    ),
}
SHORT = {
    "": "New job listings that match your keywords, each once, as soon as they are posted.",
    "th": "งานใหม่ที่ตรงกับคำของคุณ งานละครั้ง ทันทีที่ลงประกาศ",
}


def calls() -> list[tuple[str, dict[str, Any]]]:
    """The Bot API calls that set the menu and the descriptions, English (for everyone) and
    Thai (language_code "th")."""
    made: list[tuple[str, dict[str, Any]]] = []
    for language, column in (("", 1), ("th", 2)):
        chosen = {"language_code": language} if language else {}
        commands = [{"command": c[0], "description": c[column]} for c in COMMANDS]
        made.append(("setMyCommands", {"commands": commands, **chosen}))
        made.append(("setMyDescription", {"description": DESCRIPTION[language], **chosen}))
        made.append(("setMyShortDescription", {"short_description": SHORT[language], **chosen}))
    return made
