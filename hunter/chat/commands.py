"""Every command a chat understands, in one table: its words (Thai first), and whether it takes
an argument after a space. A message is a command only when its first word is one of these
and its argument is as the command wants: people chat in groups, and "ต่อไป" or
"งบประมาณเท่าไหร่" is not one. A new command is one row here and its answer in answers.py."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Verb:
    name: str
    words: tuple[str, ...]  # what a person types, case-folded
    argument: bool = False  # it takes one: "เพิ่ม python", "ทำไม LINK"


TABLE = (
    Verb("new", ("งานใหม่", "new")),  # what waits, in a reply (free)
    Verb("status", ("สถานะ", "status")),  # sources, waiting, quota, the next push
    Verb("help", ("ช่วยด้วย", "help", "?")),
    Verb("words", ("คำ", "words")),  # the rules in force in this chat
    Verb("add", ("เพิ่ม", "add"), argument=True),
    Verb("remove", ("ลบ", "remove"), argument=True),
    Verb("unmute", ("เปิดคำ", "unmute"), argument=True),  # a card's "ไม่เอาคำนี้" undone
    Verb("budget", ("งบ", "budget"), argument=True),
    Verb("languages", ("ภาษา", "languages"), argument=True),  # what it reads
    Verb("places", ("ที่ทำงาน", "places"), argument=True),  # where it can work
    Verb("pause", ("หยุด", "pause")),
    Verb("resume", ("ต่อ", "resume")),
    Verb("why", ("ทำไม", "why"), argument=True),
    # A subscriber's own: stop ends it, forget deletes all hunter keeps of the chat.
    Verb("stop", ("เลิก", "stop")),
    Verb("forget", ("ลืม", "forget")),
    # The owner's, for a stranger who asked to join ([subscribers] join = "approve").
    Verb("approve", ("อนุมัติ", "approve"), argument=True),
    Verb("refuse", ("ปฏิเสธ", "refuse"), argument=True),
    Verb("asks", ("คำขอ", "asks")),  # who waits for approval
)
TUNING = {
    "words",
    "add",
    "remove",
    "unmute",
    "budget",
    "languages",
    "places",
    "pause",
    "resume",
    "why",
}  # chat/tuning.py's


@dataclass(frozen=True)
class Command:
    verb: str  # a Verb's name
    argument: str = ""


def parse(text: str) -> Command | None:
    """The command a message is, if it is one: a command's word alone, or, for one that takes
    an argument, its word, a space and the argument."""
    parts = text.split(maxsplit=1)
    if not parts:
        return None
    first, argument = parts[0].casefold(), parts[1].strip() if len(parts) > 1 else ""
    for verb in TABLE:
        if first in verb.words and (verb.argument or not argument):
            return Command(verb.name, argument)
    return None
