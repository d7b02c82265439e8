"""A chat's words in other words (issue 63, rules/roles.py), as a person would check them: the
job their words miss only because the board wrote it otherwise comes, marked as not their
words where it is another title of their kind of job; a job none of their words, their kinds
of job or their taps bring stays out. judge() and the Fanout say the same of each."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hunter.rules.fanout import Fanout
from hunter.rules.filter_config import FilterConfig
from hunter.rules.filters import judge
from hunter.rules.listing import Listing
from hunter.rules.roles import families, families_in, found
from hunter.rules.taste import Tap
from hunter.words.details import KIN_MARK, details


def job(title: str, where: str = "Bangkok") -> Listing:
    return replace(Listing("b:1", "b", title, "https://x.test/1", None, ""), location=where)


def both(listing: Listing, rules: FilterConfig) -> tuple[bool, str, str, str]:
    """judge()'s verdict (matched, reason, like, kin), checked against the Fanout's."""
    verdict = judge(listing, rules)
    through = dict(Fanout([("chat", rules, {})]).judge(listing))
    assert ("chat" in through) is verdict.matched, (verdict, through)
    assert through.get("chat", verdict) == verdict
    return verdict.matched, verdict.reason, verdict.like, verdict.kin


@pytest.mark.parametrize(
    ("keyword", "title"),
    [
        ("security engineer", "Principal Engineer, Product Security (m/f/x)"),
        ("security engineer", "Senior Security Infrastructure Engineer"),
        ("cybersecurity", "Cyber Security Specialist (m/w/d)"),
        ("cyber security", "Cybersecurity Analyst"),
        ("IT-Security", "IT Security Officer"),
        ("helpdesk", "Help-Desk Agent"),
        ("IT Admin", "รับสมัคร Admin แผนกไอที (อ.บางพลี)"),  # "IT" in Thai letters
        ("IT Support", "ช่างไอทีซัพพอร์ท"),
        ("content marketing", "เจ้าหน้าที่คอนเทนต์มาร์เก็ตติ้ง"),
        # the small words that join a keyword's are no words a title must hold (issue 69)
        ("director of engineering", "Director, Engineering"),
        ("Head of Engineering", "Engineering Head (Platform)"),
        ("specjalista ds. bezpieczeństwa", "Specjalista Bezpieczeństwa IT"),
        ("responsable de la sécurité", "Responsable Sécurité Informatique"),
        ("java engineer", "Java/Kotlin Backend Engineer"),  # "/" between stacks, one role
        # Thai and Chinese words apart by a space: each, anywhere (issue 69's people typed so)
        ("ขาย มือถือ", "รับสมัครพนักงานขายมือถือ ประจำสาขา"),
        ("机械设计 实习", "机械设计实习生（北京）"),
        ("backend developer", "Developer (Frontend/Backend)"),
    ],
)
def test_its_own_words_otherwise_written_are_its_words(keyword: str, title: str) -> None:
    matched, reason, like, kin = both(job(title), FilterConfig(include=(keyword,)))
    assert (matched, reason, like, kin) == (
        True,
        f"matches {keyword!r} (its words in the title)",
        "",
        "",
    )


@pytest.mark.parametrize(
    "title",
    [
        "Technical Support Engineer",
        "Application Support (MRT Silom/BTS Sala Deang)",
        "NOC Engineer (Junior–Team Lead)",
        "เจ้าหน้าที่ IT ประจำสาขา",
        "ช่างคอมพิวเตอร์",
        "Großhandel ช่างไอที",  # "ß" folds to two letters: the title's end moves
    ],
)
def test_it_support_brings_a_job_like_it_marked_as_not_its_words(title: str) -> None:
    listing = job(title)
    matched, reason, _like, kin = both(listing, FilterConfig(include=("IT Support",)))
    assert (matched, reason, kin) == (True, "not your words: a job like 'IT Support'", "IT Support")
    marked = judge(listing, FilterConfig(include=("IT Support",))).marked(listing)
    assert f"{KIN_MARK} “IT Support”" in details(marked)  # what the card says


@pytest.mark.parametrize(
    ("keyword", "title"),
    [
        ("patient care coordinator", "Patient Care Specialist"),
        ("customer service agent", "Customer Service Representative (Interim)"),
        ("IT support specialist", "Senior IT Support Officer"),
        ("Sales Associate", "Sales Representative - Retail"),
    ],
)
def test_a_keywords_field_with_another_word_of_its_level_is_a_job_like_it(
    keyword: str, title: str
) -> None:
    # Issue 69: boards say one level of work in one field in several words; a patient
    # coordinator's chat never heard of "Patient Care Specialist"
    listing = job(title)
    matched, reason, _like, kin = both(listing, FilterConfig(include=(keyword,)))
    assert (matched, reason, kin) == (True, f"not your words: a job like {keyword!r}", keyword)
    marked = judge(listing, FilterConfig(include=(keyword,))).marked(listing)
    assert f"{KIN_MARK} “{keyword}”" in details(marked)


@pytest.mark.parametrize(
    ("keyword", "title"),
    [
        ("customer service agent", "Customer Service Manager"),  # another level
        ("patient care coordinator", "Care Patient Specialist"),  # not its field's words
        ("executive assistant", "Chief Executive Officer"),  # an assistant has no peers
        ("patient care coordinator", "Patient Specialist"),  # a part of its field
    ],
)
def test_another_level_or_field_is_no_peer(keyword: str, title: str) -> None:
    assert both(job(title), FilterConfig(include=(keyword,)))[:2] == (False, "no include keyword")


def test_presales_is_a_trade_of_its_own_and_clerks_are_next_to_office_assistants() -> None:
    # ISCO-08 2434 (ICT sales professionals): a presales consultant's chat never heard of an
    # "IT Sales Engineer"; 2433/2434 are no salespeople's family, only their neighbour
    presales = FilterConfig(include=("Presale", "Solution Engineer"))
    assert both(job("IT Sales Engineer"), presales)[:2] == (
        True,
        "not your words: a job like 'Presale'",
    )
    assert both(job("售前工程师 (云计算)"), presales)[0]
    assert both(job("Account Executive"), presales)[:2] == (False, "no include keyword")
    # Group 4's clerks beside the office assistants
    admin = FilterConfig(include=("administrative assistant",))
    assert both(job("Records Clerk"), admin)[:2] == (
        True,
        "near your words: a job next to 'administrative assistant'",
    )
    assert both(job("Warehouse Clerk"), admin)[:2] == (False, "no include keyword")


def test_a_system_administrator_is_next_to_it_support_not_one_of_its_jobs() -> None:
    # ISCO-08 keeps them apart: systems administrators (2522) are professionals beside network
    # and database administrators; user support (3512) technicians beside systems technicians
    # (3513). A sysadmin's chat was sent every helpdesk job as "a job like" its words
    sysadmin = FilterConfig(include=("System Administrator", "ผู้ดูแลระบบ"))
    for title in ("IT Support", "Application Support", "เจ้าหน้าที่ไอทีซัพพอร์ต", "Helpdesk Agent"):
        assert both(job(title), sysadmin)[:2] == (False, "no include keyword"), title
    assert both(job("Linux Administrator"), sysadmin)[:2] == (
        True,
        "not your words: a job like 'System Administrator'",
    )
    assert both(job("Database Administrator (Oracle)"), sysadmin)[:2] == (
        True,
        "near your words: a job next to 'System Administrator'",
    )
    # ... and a helpdesk chat still hears of a sysadmin's job, as one next to its words
    helpdesk = FilterConfig(include=("IT Support",))
    assert both(job("System Administrator (Outsource)"), helpdesk)[:2] == (
        True,
        "near your words: a job next to 'IT Support'",
    )


def test_a_thumbs_up_of_it_support_in_bangkok_brings_technical_support_in_bangkok() -> None:
    # No word of the chat's is in it; its 👍 of an "IT Support" listing brings a job like it
    rules = FilterConfig(
        include=("python",), places=("กรุงเทพฯ",), taps=(Tap(True, "IT Support", "ดูแลคอมพิวเตอร์"),)
    )
    matched, reason, like, _kin = both(job("Technical Support Engineer"), rules)
    assert (matched, like) == (True, "IT Support"), reason
    # ... where the chat works: the same job in Chiang Mai stays out
    assert not both(job("Technical Support Engineer", "Chiang Mai"), rules)[0]


@pytest.mark.parametrize(
    ("include", "title"),
    [
        (("IT Support",), "Pastry Chef"),
        (("IT Support",), "IT Security Officer"),  # its words in another order: another job
        (("IT Support",), "Sales Engineer, Cloud"),
        (("security engineer",), "Security Guard"),
        (("python",), "Technical Support Engineer"),  # no family of python's, no 👍
        (("customer support",), "Customer Marketing Manager"),
        # a title of two roles joined by "/" names each whole: no data engineer here
        (("data engineer",), "Senior Data Scientist/Risk Engineer - Financial Crime"),
        (("ขาย มือถือ",), "ช่างซ่อมมือถือ"),  # one of its parts only
    ],
)
def test_a_job_none_of_its_words_kinds_or_taps_bring_stays_out(
    include: tuple[str, ...], title: str
) -> None:
    assert both(job(title), FilterConfig(include=include))[:2] == (False, "no include keyword")


def test_a_muted_keyword_brings_none_of_its_kind() -> None:
    rules = FilterConfig(include=("IT Support", "python"))
    verdict = judge(job("NOC Engineer"), rules, muted=frozenset({"it support"}))
    assert not verdict.matched


def test_every_family_title_is_in_its_own_family() -> None:
    for name, titles in families().items():
        for title in titles:
            assert name in families_in(title), (name, title)


@pytest.mark.parametrize(
    ("keyword", "title"),
    [
        ("Frontend", "Front-end Engineer"),
        ("Frontend", "Senior Web Developer"),
        ("นักพัฒนาเว็บ", "Web Developer"),
        ("Backend", "Server Side Developer"),
        ("DevOps", "Site Reliability Engineer"),
        ("DevOps", "CI/CD Engineer"),
        ("Sales", "Account Executive, Mid-Market"),
        ("เซลล์", "Sales Representative"),
        ("Sales", "พนักงานไลฟ์สดขายสินค้า"),  # a neighbour: live selling
        ("บัญชี", "Accountant"),
        ("accounting", "Bookkeeper (part-time)"),
        ("accounting", "Payroll Officer"),  # a neighbour: ISCO's numerical clerks
        ("前端", "Senior Frontend Developer"),
        ("QA", "Software Tester"),
        ("Recruiting", "Talent Acquisition Partner"),
        ("Data Science", "Datenanalyst (m/w/d)"),
        ("network engineer", "Network Administrator"),  # ISCO 2523's own family
        ("network engineer", "System Administrator"),  # a neighbour: 2522
        ("วิศวกรเครือข่าย", "Network Engineer (CCNA)"),
        ("digital marketing", "Senior Performance Marketer"),
        ("technical writer", "Copy Editor"),
        # Trades of ISCO's groups beyond IT's, in the languages of the boards
        ("จัดซื้อ", "Purchasing Officer"),
        ("procurement", "Einkäufer (m/w/d)"),
        ("Executive Assistant", "Direktionsassistent/in"),
        ("ธุรการ", "Administrative Assistant"),
        ("Rezeption", "Front Office Agent (w/m/d)"),
        ("Pflege", "Diplomierte Gesundheits- und Krankenpflegerin"),
        ("nurse", "พยาบาลวิชาชีพ"),
        ("machine learning engineer", "Applied AI Engineer"),
        ("LLM", "机器学习工程师"),
        ("ไลฟ์สด", "Live Streaming Host"),
        ("warehouse worker", "Magazijnmedewerker"),
        ("Servicetechniker", "Field Service Technician"),
        ("SAP", "SAP Inhouse Consultant Logistics"),
        ("kierownik projektu", "IT Project Manager"),
        # Every family in French, Spanish, Portuguese, Polish, Dutch and Italian too
        ("accountant", "Księgowa"),
        ("accountant", "Comptable (H/F)"),
        ("Buchhalter", "Boekhouder"),
        ("IT support", "Técnico de Suporte Informático"),
        ("data engineer", "Ingeniero de Datos"),
        ("data engineer", "Engenheiro de Dados Sênior"),
        ("customer service", "Konsultant ds. obsługi klienta"),
        ("nurse", "Infermiera"),
        ("graphic designer", "Grafisch ontwerper"),
        # A title of Latin words and a Chinese role word is its English title's family
        ("LLM 工程师", "Machine Learning Engineer"),
        ("QA 工程师", "Software Tester"),
        ("Frontend 开发", "Web Developer"),
    ],
)
def test_a_field_word_or_a_title_in_the_persons_language_reaches_its_family(
    keyword: str, title: str
) -> None:
    """Made-up titles: a family is reached by the word a person types for the field, or by
    its title in Thai, not only by its full English titles."""
    form = found(title, (keyword,))
    assert form is not None and form.keyword == keyword, (keyword, title, form)


def test_a_role_next_to_the_chats_words_comes_marked_and_two_thumbs_down_leave_it_out() -> None:
    """Made-up listings: a backend developer is told of a full-stack engineer's job, marked
    as near its words; one 👎 of it may be of its stack, two leave that neighbour out (a
    "Full Stack Developer" too, the same role), never its own words' jobs; a 👍 keeps it."""
    rules = FilterConfig(include=("backend developer",))
    full = Listing("a:1", "a", "Full-stack Engineer", "https://a.test/1")
    verdict = judge(full, rules)
    assert verdict.matched and verdict.near == "backend developer"
    assert "near your words" in details(verdict.marked(full))
    other = Listing(
        "a:2", "a", "Fullstack Developer, Payments Platform (TypeScript, AWS)", "https://a.test/2"
    )
    own = Listing("a:3", "a", "Backend Developer (Go)", "https://a.test/3")
    once = replace(rules, taps=(Tap(False, "Full-stack Engineer (PHP)"),))
    assert judge(other, once).matched  # one 👎: of its PHP, perhaps
    twice = (Tap(False, "Full-stack Engineer (PHP)"), Tap(False, "Full Stack Developer, Ads"))
    held = judge(other, replace(rules, taps=twice))
    assert not held.matched and "next to your words, and 👎 of 2 such" in held.reason, held
    assert "“Full Stack Developer, Ads”" in held.reason  # /why names the taps that taught it
    assert judge(own, replace(rules, taps=twice)).matched
    kept = (*twice, Tap(True, "Full Stack Engineer, Data"))
    assert judge(other, replace(rules, taps=kept)).matched  # its 👍 keeps it


@pytest.mark.parametrize(
    ("keyword", "title"),
    [
        ("前端开发", "Frontend Engineer"),
        ("Frontend Developer", "高级前端开发工程师"),
        ("数据分析师", "Data Analyst"),
    ],
)
def test_a_chinese_title_reaches_its_family_and_is_reached(keyword: str, title: str) -> None:
    """Made-up titles: Chinese, written without spaces, is read as a phrase anywhere in a
    title, as Thai is."""
    form = found(title, (keyword,))
    assert form is not None and form.keyword == keyword, (keyword, title, form)


@pytest.mark.parametrize(
    ("title", "text", "kin"),
    [
        ("Senior Engineer", "We are looking for a backend engineer to build payment APIs.", True),
        ("Developer II", "Join us as a back-end developer: Go, PostgreSQL, Kafka.", True),
        ("Engineer (m/w/d)", "Als Backend-Entwickler baust du unsere Schnittstellen.", True),
        ("Senior Engineer", "You will design pumps and valves as a mechanical engineer.", False),
        ("Mechanical Engineer", "Some back-end engineer work on our test rigs' software.", False),
        ("Senior Engineer", "About us. " + "We make pumps. " * 20 + "Back-end engineer.", False),
    ],
)
def test_a_title_that_names_no_trade_is_judged_by_the_start_of_its_text(
    title: str, text: str, kin: bool
) -> None:
    """Made-up listings: "Senior Engineer" says no trade; the start of its text does. A title
    that names one ("Mechanical Engineer") is judged by its title alone, and a text by its
    first 240 characters (where it says what the job is)."""
    listing = Listing("a:1", "a", title, "https://a.test/1", summary=text)
    verdict = judge(listing, FilterConfig(include=("Backend Developer",)))
    assert verdict.matched is kin, verdict
    if kin:
        assert verdict.kin == "Backend Developer" or verdict.keywords == ("Backend Developer",)


def test_a_titles_families_are_those_a_scan_of_every_family_finds() -> None:
    """families_in asks only the forms of a title's own words (an index); it finds what a scan
    of all families' forms finds, for every title and neighbour of roles.json and made-up
    ones in four languages."""
    from hunter.rules.roles import _family_forms, neighbours

    def scan(title: str) -> frozenset[str]:
        return frozenset(
            name for name, family in _family_forms() if any(f.said_by(title) for f in family)
        )

    titles = [t for ts in families().values() for t in ts]
    titles += [t for ts in neighbours().values() for t in ts]
    titles += ["Senior IT-Security Engineer (m/w/d)", "Help Desk Agent", "Admin Sales-IT / IT",
               "เจ้าหน้าที่จัดซื้อ ด่วน", "高级 前端开发工程师", "Gesundheits- und Krankenpflegerin",
               "Pastry Chef", ""]  # fmt: skip
    for title in titles:
        assert families_in(title) == scan(title), title


def test_a_job_like_a_field_word_is_of_the_roles_the_chats_other_words_name() -> None:
    """Issue 69, made-up titles: a governance specialist's "Informationssicherheit" (a field,
    no role) brought every security engineer as "a job like" it, though their other words
    name the roles they do ("IT-Security Manager"). A job like a field word must then be of
    one of those roles; a chat of field words alone still gets the field's jobs."""
    from hunter.rules.roles import in_other_words

    words = ("Informationssicherheit", "IT-Security Manager")
    assert in_other_words("Cloud Security Engineer", "", words) is None
    assert in_other_words("Cloud Security Engineer", "", ("Informationssicherheit",)) is not None
    form = in_other_words("Information Security Manager (m/w/d)", "", words)
    assert form is not None and form.family


def test_a_job_like_a_chats_words_whatever_their_order() -> None:
    """A family's title is kept once, for the chat's first keyword of the family: a field
    word first ("cybersecurity") held back the jobs its role word ("security
    engineer") brings, when the field word came first."""
    from hunter.rules.roles import in_other_words

    words = ("cybersecurity", "security engineer")
    assert in_other_words("Cloud Security Analyst", "", words) is not None
    assert in_other_words("Cloud Security Analyst", "", words[::-1]) is not None
