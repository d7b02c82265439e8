"""What a title's words say of the job, whatever the chat: its words, its rank, its role
("Cloud Security *Engineer*"), and whether it names a trade at all ("Senior Engineer" does
not). Pure, no I/O; roles.py, taste.py and languages_apart.py read titles by it."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

LATIN_WORD = re.compile(r"[a-z0-9\u00c0-\u024f]+")
# Scripts written without spaces between words, read as a phrase anywhere in a title: Thai,
# Chinese and Japanese (and Korean, whose words are spaced but whose titles run together).
UNSPACED = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
HAN = re.compile(r"[\u3400-\u9fff]")


def words_of(text: str) -> tuple[str, ...]:
    """`text`'s Latin words, folded, in order."""
    return tuple(LATIN_WORD.findall(text.casefold()))


# A title's rank, in the languages of the boards: two listings of ranks that differ are two jobs
# (languages_apart.py), and a rank says no trade
RANKS = frozenset(
    [
        "senior", "sr", "junior", "jr", "lead", "principal", "staff", "head", "intern",
        "trainee", "apprentice", "praktikant", "werkstudent", "stagiaire",
    ]
)  # fmt: skip
# What a title says a person does (its role, beside its field: "Cloud Security *Engineer*"),
# in the languages of the boards (taste.py: a role 👎'd often enough and never 👍'd holds back
# the keyword hits whose every role it is, unless the chat's own words name that role).
ROLE_WORDS = (
    "engineer developer analyst architect consultant manager executive specialist "
    "administrator technician designer scientist tester writer representative director "
    "officer coordinator assistant recruiter accountant agent advisor auditor editor "
    "programmer researcher trainer teacher translator operator"
)
ROLES = {
    **{word: word for word in ROLE_WORDS.split(" ")},
    "engineers": "engineer", "developers": "developer", "analysts": "analyst",
    "entwickler": "developer", "ingenieur": "engineer", "berater": "consultant",
    "วิศวกร": "engineer", "นักพัฒนา": "developer", "โปรแกรมเมอร์": "programmer",
    "นักวิเคราะห์": "analyst", "ผู้จัดการ": "manager", "เจ้าหน้าที่": "officer",
    "ที่ปรึกษา": "consultant", "นักออกแบบ": "designer", "พนักงานขาย": "representative",
    "工程师": "engineer", "开发": "developer", "分析师": "analyst", "经理": "manager",
}  # fmt: skip
# A title's Chinese role word ("LLM 工程师"): its English one, for its family
HAN_ROLE = re.compile("|".join(sorted((w for w in ROLES if HAN.search(w)), key=len, reverse=True)))
# Role words say what a person does, not which job: two titles that share only "product" and
# "manager" share one word of what the job is (taste.SHARED_LEAST counts the others)
ROLE_SET = frozenset(ROLES)


def roles_of(title: str) -> frozenset[str]:
    """The roles a title names ("Cloud Security Engineer": engineer), as ROLES reads them."""
    text = unicodedata.normalize("NFKC", title).casefold()
    found = {role for word, role in ROLES.items() if not word.isascii() and word in text}
    found |= {ROLES[w] for w in re.findall(r"[a-zäöü]+", text) if w in ROLES}
    return frozenset(found)


# A title whose only role word says no trade ("Senior Engineer", "Developer II", "Specialist
# (m/w/d)"): its text says what the job is. The words around such a role that say nothing of it
# either: rank, terms, gender marks, numbers.
_GENERIC_WORDS = (
    "engineer engineers developer developers specialist consultant programmer associate "
    "expert professional software entwickler ingenieur spezialist berater"
)
_EMPTY_WORDS = (
    "mid level remote hybrid onsite full part time contract freelance permanent "
    "m w d f x h all genders i ii iii iv v"
)
_GENERIC = frozenset(_GENERIC_WORDS.split())
_EMPTY = RANKS | frozenset(_EMPTY_WORDS.split())
_GENERIC_SCRIPTS = ("วิศวกร", "นักพัฒนา", "โปรแกรมเมอร์", "工程师", "开发工程师")
TEXT_HEAD = 240  # characters of a text read for what a generic title's job is


@lru_cache(maxsize=4096)
def generic(title: str) -> bool:
    """Whether `title` names no trade: its only role word is generic (or Thai or Chinese for
    one), the rest rank, terms, gender marks and numbers."""
    folded = title.casefold()
    if UNSPACED.search(folded):
        rest = re.sub(r"[\s\W\d_a-z]+", "", folded)
        return rest in _GENERIC_SCRIPTS
    said = [w for w in words_of(folded) if w not in _EMPTY and not w.isdigit()]
    return bool(said) and all(w in _GENERIC for w in said)


# A learner's place, in the boards' languages: an internship, an apprenticeship, a working
# student's job ("Lehre zum Koch", "ฝึกงาน ตำแหน่ง Data Engineer", "实习生")
_LEARNER = re.compile(
    r"\b(?:interns?|internships?|trainees?|apprentices?|apprenticeships?|praktikant(?:in)?"
    r"|praktikum|werkstudent(?:in)?|stagiaire|lehre|lehrling|ausbildung(?:splatz)?|azubi"
    r"|becari[oa]|prácticas|estágio|estagiári[oa]|stażysta|staż|stagista|tirocinio)\b"
    r"|ฝึกงาน|实习",
    re.IGNORECASE,
)
_STUDENT = re.compile(r"\bstudent|\bstudium\b|นักศึกษา|学生", re.IGNORECASE)


def for_learners(title: str, include: tuple[str, ...]) -> bool:
    """Whether `title` is a learner's place (an internship, an apprenticeship) that none of a
    chat's words asks for: a cook is not sent "Lehre zum Koch", a data scientist no "ฝึกงาน"."""
    if not _LEARNER.search(title):
        return False
    return not any(_LEARNER.search(word) or _STUDENT.search(word) for word in include)
