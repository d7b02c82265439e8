"""What a keyword may be, the same wherever it is written: in hunter.toml ([filter] and
[[chats]] include and exclude) and from a chat (เพิ่ม). Each refusal names what is wrong, in
Thai and English, so that a person can fix it: a hidden character copied from a web page
matches nothing, and a lone Thai letter or mark matches nearly every listing."""

from __future__ import annotations

import unicodedata

WORD_MAX = 60  # characters of one keyword
KEYWORDS_MAX = 100  # keywords one chat may add from the chat (judging time grows with them)
THAI_MIN = 2  # letters of a Thai keyword: Thai matches inside words, so one matches anything
# Scripts whose letters pass for Latin ones ("python" with a Cyrillic U+0440 is not "python").
_LOOKALIKES = {"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE"}


def word_problem(word: str) -> str | None:
    """Why `word` cannot be a keyword, in the reply's words; None when it can. Each refusal
    names what is wrong, so that a person can fix it."""
    if not word:
        return "บอกคำด้วย เช่น “เพิ่ม python” · say the word, e.g. “add python”"
    hidden = next((c for c in word if unicodedata.category(c)[0] in "CZ" and c != " "), None)
    if hidden is not None:
        name = unicodedata.name(hidden, "a control character")
        return (
            f"คำนี้มีตัวอักษรที่มองไม่เห็น (U+{ord(hidden):04X} {name}) พิมพ์คำใหม่อีกครั้ง · the "
            f"word holds a hidden character (U+{ord(hidden):04X} {name}): type it again"
        )
    if len(word) > WORD_MAX:
        return f"คำยาวได้ไม่เกิน {WORD_MAX} ตัวอักษร · a keyword is at most {WORD_MAX} characters"
    scripts = {_script(c) for c in word if c.isalpha()} & _LOOKALIKES
    if "LATIN" in scripts and len(scripts) > 1:
        other = sorted(scripts - {"LATIN"})[0].title()
        odd = "".join(c for c in word if _script(c) == other.upper())
        return (
            f"คำนี้ปนตัวอักษร {other} ({odd}) กับตัวอักษรละติน พิมพ์ด้วยแป้นภาษาเดียว · the word "
            f"mixes {other} letters ({odd}) with Latin ones: type it in one alphabet"
        )
    letters = [c for c in word if unicodedata.category(c)[0] in "LN"]
    if not letters or unicodedata.category(word[0])[0] == "M":
        return (
            "คำต้องขึ้นต้นด้วยตัวอักษรหรือตัวเลข ไม่ใช่สระหรือวรรณยุกต์ลอย · a keyword starts "
            "with a letter or a digit, not a lone vowel or tone mark"
        )
    if all(_script(c) == "THAI" for c in letters) and len(letters) < THAI_MIN:
        return (
            f"คำภาษาไทยต้องมีอย่างน้อย {THAI_MIN} ตัวอักษร (ตัวเดียวเจอในเกือบทุกงาน) · a Thai "
            f"keyword has at least {THAI_MIN} letters: one alone is in nearly every listing"
        )
    return None


def _script(char: str) -> str:
    """The script a letter belongs to, by the first word of its Unicode name."""
    return unicodedata.name(char, "?").split(" ", 1)[0]


def in_english(problem: str) -> str:
    """A refusal's English half, for a file's error line."""
    return problem.split(" · ", 1)[-1]
