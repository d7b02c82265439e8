"""A job's likeness (issue 43): the same job on two boards or posted again is one, and the hard
pairs (the same title at two companies, two roles at one company, one role in two cities, other
pay) stay apart; on the labelled set of 603 real listings, precision and recall."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hunter.rules.employer_key import company_key
from hunter.rules.job_keys import place_parts, title_key
from hunter.rules.likeness import Likeness, same_job, text_share
from hunter.rules.listing import Listing
from hunter.rules.sites import site_of
from hunter.rules.text_sketch import language_of
from tests.support import likeness_set
from tests.support.likeness_set import MADE_UP_BLIND

TEXT = (
    "We build payment tools for small shops in Southeast Asia. You will design and run our "
    "Python services on AWS, review code, and mentor two junior engineers. You have five "
    "years of Python, PostgreSQL and a taste for simple systems."
)


def job(
    title: str = "Senior Python Developer",
    company: str = "Acme Co., Ltd.",
    location: str = "Bangkok, Thailand",
    summary: str = TEXT,
    budget: int | None = None,
    budget_max: int | None = None,
    currency: str = "THB",
    period: str = "month",
    job_id: str = "a:1",
) -> Likeness:
    return Likeness.of(
        Listing(
            job_id=job_id,
            source=job_id.split(":")[0],
            title=title,
            url="https://x.test/" + job_id,
            summary=summary,
            company=company,
            location=location,
            budget=budget,
            budget_max=budget_max,
            currency=currency,
            period=period,
        )
    )


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Senior Python Developer", "senior python developer"),
        ("🔥 URGENT: Senior Python Developer (Remote)", "Senior Python Developer"),
        ("Senior Python Developer (m/w/d)", "Senior Python Developer"),
        ("Security Analyst (w/m/d)", "Security Analyst"),
        ("รับสมัครด่วน! โปรแกรมเมอร์ PHP", "โปรแกรมเมอร์ PHP"),
        ("Full-Stack Developer – React/Node", "Full Stack Developer React Node"),
        ("Sr. Account Mgr", "Senior Account Manager"),  # the words boards shorten
        ("Warehouse Supervisor (Req #48213)", "Warehouse Supervisor"),  # the ad's own number
        ("QA Engineer [JR-2026-117]", "QA Engineer"),
        ("JO-2026-114 Production Supervisor", "Production Supervisor"),
        ("Data Analyst - R0012345", "Data Analyst"),
        ("Senior Front-End Engineer", "Senior Frontend Engineer"),  # one word, two spellings
        ("E-Commerce Manager", "Ecommerce Manager"),
        ("Back End Developer", "Backend Developer"),
        # A title written for two genders is its first
        ("Técnico/a de Mantenimiento", "Técnico de Mantenimiento"),
        ("Starszy Księgowy / Starsza Księgowa", "Starszy Księgowy"),
        ("Infirmier / Infirmière de bloc opératoire (H/F)", "Infirmier de bloc opératoire"),
        ("Boekhouder (M/V/X)", "Boekhouder"),
        ("Koch / Köchin (m/w/d)", "Koch"),
        # Where a title asks for its language says nothing (issue 69's pairs)
        ("French Speaking Customer Service Agent", "Customer Service Agent (French Speaker)"),
        ("Support Specialist - German", "German-speaking Support Specialist"),
        # The terms a board adds after the title ("- unbefristet, 38-Std.-Woche")
        ("Elektriker (m/w/d) Haustechnik - unbefristet, 38-Std.-Woche", "Elektriker Haustechnik"),
    ],
)
def test_titles_that_are_one_job(a: str, b: str) -> None:
    assert title_key(a) == title_key(b) != ""


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Senior Python Developer", "Junior Python Developer"),  # seniority is kept
        ("Python Developer", "Python Developer Intern"),
        ("Full-time Designer", "Part-time Designer"),
        ("นักพัฒนา PHP", "นักพัฒนา Java"),
        ("Engineer II", "Engineer III"),
        ("2026 Graduate Programme", "2027 Graduate Programme"),  # a year is no ad's number
        ("Java / JavaScript Developer", "Java Developer"),  # two words, not two genders
        ("German Speaking Support Agent", "Dutch Speaking Support Agent"),  # two desks
        ("Support Agent (German speaking)", "Support Agent"),
    ],
)
def test_titles_that_are_two_jobs(a: str, b: str) -> None:
    assert title_key(a) != title_key(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Avanade Inc.", "Avanade"),
        ("Proxify AB", "Proxify"),
        ("ROHDE & SCHWARZ Messgerätebau GmbH", "Rohde & Schwarz Messgerätebau GmbH"),
        (
            "Hochschul-IT-Services.nrw KöR",
            "Hochschul-IT-Services.nrw Körperschaft des öffentlichen Rechts",
        ),
        ("บริษัท ลิฟวิ่ง อินไซเดอร์ จำกัด", "ลิฟวิ่ง อินไซเดอร์"),
    ],
)
def test_an_employer_without_its_legal_form(a: str, b: str) -> None:
    assert company_key(a) == company_key(b) != ""


def test_places_remote_or_unstated_are_none_and_countries_one_language() -> None:
    assert place_parts("Anywhere in the World") == ()
    assert place_parts("Remote") == ()
    assert place_parts("") == ()
    assert place_parts("Wien, Österreich") == ("wien", "austria")
    # A remote board's place says whom its job takes: the same place as written.
    assert place_parts("Remote: Europe, Netherlands") == place_parts("Europe,  Netherlands")
    assert place_parts("Kraków, Poland +4 more locations") == ("kraków", "poland")
    # Whom a remote job takes by its hours is no place: "Americas" and "UTC-5 to UTC-3" agree
    assert place_parts("UTC-5 to UTC-3") == place_parts("CET +/- 3 hours") == ()
    assert place_parts("Remote: UTC+7") == ()
    # "or" between two places is a list of them (issue 69: HN's monthly re-post wrote
    # "Amsterdam or REMOTE (EU)", then "Amsterdam / Remote (EU)")
    assert place_parts("Amsterdam or REMOTE (EU)") == place_parts("Amsterdam / Remote (EU)")
    assert place_parts("Amsterdam or REMOTE (EU)") == ("amsterdam", "remote eu")


@pytest.mark.parametrize(
    ("ours", "theirs", "same"),
    [
        ("Düsseldorf, Germany", "Derendorf, Germany", True),  # a district GeoNames lacks
        ("เขตบางนา กรุงเทพมหานคร", "Bangkok", True),  # a district inside its city
        ("BTS อโศก", "กรุงเทพฯ", True),  # a station inside its city
        ("Garching bei München, Germany", "Munich, Germany", True),  # 13 km out: a suburb
        ("Munich, Germany", "Düsseldorf, Germany", False),
        ("Nonthaburi", "Bangkok", False),  # next to each other, two provinces
        ("Zürich, Switzerland", "Genève, Switzerland", False),
        ("Qwertyville, Germany", "Xyzzyburg, Germany", True),  # neither known: both Germany
    ],
)
def test_the_same_place_as_the_place_model_reads_it(ours: str, theirs: str, same: bool) -> None:
    verdict = same_job(job(location=ours), job(location=theirs))
    assert verdict.same is same, verdict


def test_the_same_job_on_two_boards_is_one_and_says_why() -> None:
    first = job(job_id="remotive:1")
    again = job("Senior Python Developer (Remote)", "ACME CO LTD", "Bangkok", job_id="himalayas:9")
    verdict = same_job(again, first)
    assert verdict.same
    assert str(verdict) == "same title, same employer, 100% the same text"


def test_a_board_that_cuts_its_text_still_matches() -> None:
    assert same_job(job(summary=TEXT[:120] + "…"), job()).same


@pytest.mark.parametrize(
    ("other", "why"),
    [
        (job(company="Globex"), "another employer"),  # the same title at two companies
        (job(title="Senior Go Developer"), "another title"),  # two roles at one company
        (job(location="Chiang Mai, Thailand"), "another place"),  # one role in two cities
        (job(budget=50_000, budget_max=60_000), "other pay"),
        (job(summary="A different job entirely: " + TEXT[::-1]), "the same text"),
    ],
)
def test_hard_pairs_stay_apart(other: Likeness, why: str) -> None:
    first = job(budget=80_000, budget_max=90_000)
    verdict = same_job(other, first)
    assert not verdict.same and why in str(verdict), verdict


def test_without_an_employer_only_near_identical_text_merges() -> None:
    bare = job(company="")
    assert same_job(bare, job()).same  # the same text says it
    assert not same_job(job(company="", summary=""), job()).same  # nothing says it
    assert str(same_job(job(company="", summary=""), job())).endswith("no text to compare")
    one_board = same_job(job(company="", summary=""), job(), same_board=True)
    assert not one_board.same and str(one_board).endswith("employer unknown")


def test_a_copycat_boards_text_less_copy_is_never_the_employers_listing() -> None:
    """Issue 55, high 2: a title and an employer with no text, on another board, said "the
    same job" as the employer's own listing for 45 days. A merge needs evidence from both
    sides: the same text, or one board re-posting its own listing."""
    copy, employer = job(summary="", job_id="copycat:1"), job(job_id="employer:9")
    assert not same_job(employer, copy).same  # the employer's, new, beside an earlier copy
    assert str(same_job(employer, copy)) == "same title, no text to compare"
    repost = same_job(job(summary=""), job(summary=""), same_board=True)
    assert repost.same and str(repost) == "same title, same employer on one board"


def test_a_copy_without_text_of_a_listing_seen_with_its_text_is_that_job() -> None:
    """Issue 69: a board that shows no text (JobThai, Himalayas) lists a job another board
    showed before with its text, under the same title and employer at the same place. The
    employer's listing was alerted first; the copy stands for nothing, and its link joins the
    first alert ("also on"). It was a second alert. Its employer's or place's other still
    says apart, and so does the same copy first (the copycat above)."""
    employer, copy = job(job_id="employer:9"), job(summary="", job_id="jobthai:1")
    later = same_job(copy, employer)
    assert later.same and str(later) == "same title, same employer, a copy without text of it"
    assert not same_job(job(summary="", company="Other Co"), employer).same
    assert not same_job(job(summary="", location="Chiang Mai"), employer).same
    assert not same_job(job(summary="", company=""), employer).same


def test_a_job_boards_listing_without_text_seen_first_is_the_employers_job() -> None:
    """Issue 69's pairs: LinkedIn or RemoteOK show a job without its text before another
    board shows it with its text. A job board is no copycat: its link, alerted first, leads
    to the job, and the employer's link joins it. A site no job board's (the copycat above),
    or another employer or place, still says apart."""
    employer = job(job_id="employer:9")

    def bare(url: str, **changes: str) -> Likeness:
        return replace(job(summary="", **changes), site=site_of(url), link=url)

    for url in ("https://www.linkedin.com/jobs/view/1", "https://remoteok.com/remote-jobs/2"):
        first = same_job(employer, bare(url))
        assert first.same and "listing without text" in str(first), (url, first)
    assert not same_job(employer, bare("https://jobs-mirror.example/1")).same
    assert not same_job(employer, bare("https://linkedin.com.mirror.example/1")).same
    assert not same_job(employer, bare("https://www.linkedin.com/1", company="Other Co")).same
    assert not same_job(employer, bare("https://www.linkedin.com/1", location="Chiang Mai")).same


def test_the_same_job_on_two_boards_that_show_no_text_is_one_job() -> None:
    """Issue 63: neither board shows its text (Proxify on We Work Remotely and Working
    Nomads): the same title, employer, place and pay are one job. A wrong merge hides no
    listing now: the copy's link is shown on the first alert. Without an employer on both,
    or beside a listing with its text (the copycat above), still apart."""
    merged = same_job(job(summary=""), job(summary=""))
    assert merged.same and str(merged) == "same title, same employer, neither shows its text"
    assert not same_job(job(summary="", company=""), job(summary="")).same
    assert not same_job(job(summary=""), job(summary="", company="Other Co")).same


def test_texts_in_two_languages_say_nothing_either_way() -> None:
    french = "Nous cherchons un analyste pour la sécurité des systèmes de nos clients et des " * 2
    dutch = "Wij zoeken een analist voor de beveiliging van de systemen van onze klanten en " * 2
    assert (language_of(french), language_of(dutch)) == ("fr", "nl")
    a, b = job(summary=french), job(summary=dutch)
    assert text_share(a, b) is None
    assert same_job(a, b).same  # the same employer, title and place: one job in two languages


def test_the_stored_document_reads_back_the_same() -> None:
    original = job(budget=80_000, budget_max=90_000)
    # The store keeps the listing's link beside it (store/likeness.py): the site is read from it
    stored = {**original.document(), "url": "https://x.test/a:1"}
    back = Likeness.from_document(original.title, stored)
    assert back == original and back.site == "x.test"
    assert Likeness.from_document("x", {"sketch": "not base64!"}).shingles == 0
    short = job(summary="Pitch decks.")  # a text too short to compare but for itself
    stored = {**short.document(), "url": "https://x.test/a:1"}
    assert short.brief and Likeness.from_document(short.title, stored) == short
    assert Likeness.from_document("x", {"brief": True}).brief == 0


@pytest.mark.skipif(
    not likeness_set.DUPES.is_file(),
    reason="../shared/fixtures/dupes is not here (a user's clone); CI has it",
)
def test_the_labelled_set_of_real_listings() -> None:
    """603 real listings of 22 boards, 93 pairs labelled the same job (tests/fixtures/
    likeness/labels.json). No pair merged that is not the same job, none of the hard pairs.
    Five of Proxify's jobs on two boards that show no text are found since issue 63 (a bare
    copy beside a listing with its text still is no evidence: issue 55); one ad on Adzuna's
    sites for two countries, and Experis's two jobs each posted in Italian and in English
    under a title in each, since issue 69 (those two pairs are what its rule was fitted on)."""
    score = likeness_set.score()
    assert (score.listings, score.boards, len(score.same)) == (603, 22, 93)
    assert not score.wrong, sorted(sorted(p) for p in score.wrong)
    assert score.precision >= 0.99
    assert not [why for pair, why in score.apart.items() if pair in score.merged]
    # 0.793 before the place model read Derendorf as somewhere in Germany and a re-advertised
    # job rewritten to 59% of its text counted as the same (issue 54): 0.915; 0.976 since two
    # boards that show no text may be one job (issue 63); 1.000 since a job posted in two
    # languages is one (issue 69)
    assert score.recall >= 0.99, (score.recall, sorted(sorted(p) for p in score.missed))
    assert score.copies_recall >= 0.95, score.copies_recall


def test_made_up_pairs_of_the_kinds_boards_post() -> None:
    """Issue 69's pairs never seen: listings made up by three helpers who read no code, as
    the boards show them, in groups of one job and pairs of two jobs alike (tests/fixtures/
    likeness/made_up*.json). No pair of two jobs is merged in any. The first was tuned on:
    0.587 of its pairs merged before, 0.783 since titles lose a city beside how the job is
    done, employers the trade after their name, a copy without text joins the listing seen
    with it, and pay agrees where one board does not say its period. The second was blind
    (0.415 before, 0.561 after rules fitted to the first and to the kinds its helper named),
    then tuned on: 0.634, and 0.683 since pay in two periods at one place is compared as a
    year's. The third is blind; bench/dupes.py reports its recall."""
    tuned = likeness_set.score(likeness_set.MADE_UP)
    second = likeness_set.score(likeness_set.MADE_UP_2)
    for score in (tuned, second, likeness_set.score(MADE_UP_BLIND)):
        assert not score.wrong, sorted(sorted(p) for p in score.wrong)
        assert not [why for pair, why in score.apart.items() if pair in score.merged]
    assert tuned.recall >= 0.78, (tuned.recall, sorted(sorted(p) for p in tuned.missed))
    assert second.recall >= 0.68, (second.recall, sorted(sorted(p) for p in second.missed))


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Senior Data Engineer (Remote - Europe)", "Senior Data Engineer", True),
        ("Support Lead \u2013 Remote, APAC", "Support Lead", True),
        ("QA Tester (Spain)", "QA Tester (ES)", True),
        ("QA Tester (Spain)", "QA Tester (ESP)", True),
        ("Designer (Contract)", "Designer", True),
        ("Sales Manager, Thailand", "Sales Manager (TH)", True),
        ("QA Tester (Spain)", "QA Tester (Portugal)", False),  # two countries: two jobs
        ("Support Engineer (IT)", "Support Engineer", False),  # IT is the field, not Italy
        ("Security Engineer (GRC)", "Security Engineer (Greece)", False),  # governance, risk
        ("Sales Manager (Latin America)", "Sales Manager - LATAM", True),
        ("Customer Success Manager (West)", "Customer Success Manager (Central)", False),
        ("Python Developer - Django", "Python Developer", False),
        ("Engineer, Backend", "Engineer", False),
        # A city beside how the job is done is where it is done (issue 69's pairs)
        ("Site Reliability Engineer (m/w/d) - Berlin, hybrid", "Site Reliability Engineer", True),
        ("Frontend Developer (React) – Warszawa / hybrydowo", "Frontend Developer (React)", True),
        ("Java Developer (Hybrid ทำงานที่บ้าน 3 วัน/สัปดาห์)", "Java Developer", True),
        ("Junior Accountant (m/w/d) – Vollzeit", "Junior Accountant", True),
        ("Data Engineer - Berlin, hybrid", "Data Engineer - München, hybrid", False),
        ("Frontend Developer (React) - Remote", "Frontend Developer (Angular) - Remote", False),
    ],
)
def test_a_title_that_adds_where_or_how_the_job_is_done_is_one_job(
    a: str, b: str, same: bool
) -> None:
    """Made-up titles of the kinds boards write (no labelled listing): the part that says
    only where or how the job is done is set aside, and the place it names is compared as a
    place when the listing states none."""
    first, second = job(title=a, location=""), job(title=b, location="", job_id="b:1")
    assert same_job(first, second).same is same, (a, b, same_job(first, second))


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("Acme", "Acme Ltd", True),
        ("Acme", "Acme Robotics", True),  # a division
        ("Data Dog", "Datadog Inc.", True),  # with and without a space
        ("Acme", "Acmeworks", False),  # another word
        ("Acme Robotics", "Acme Foods", False),  # two divisions: two employers
        ("IBM", "Microsoft", False),
        ("Solvia Tecnología, S.L.", "Solvia Tech", True),  # the trade after the name
        ("深圳微澜科技有限公司", "Weilan Tech 微澜科技", True),  # Shenzhen's Weilan, Ltd.
        ("深圳微澜科技有限公司", "深圳微光科技有限公司", False),
        ("云帆机器人 Yunfan Robotics", "Yunfan Robotics", True),  # a name in two scripts
        ("Weilan Tech 微澜科技", "Weilan Tech", True),
        ("Weilan Tech 微澜科技", "Weiguang Tech 微光科技", False),
        ("Harbourview CX", "HarbourviewCX Philippines Inc.", True),  # spaces aside, then words
        ("Sandpiper Beach Resort แซนด์ไพเพอร์ บีช รีสอร์ท", "Sandpiper Beach Resort", True),
        ("Công ty TNHH Tanaka Seiki Việt Nam", "Tanaka Seiki Vietnam", True),  # "Ltd.", marks
        ("PT Sinar Mas Tbk", "Sinar Mas", True),
        ("Empaques del Bajío S.A. de C.V.", "Empaques del Bajío", True),
        ("Tech Mahindra", "Mahindra", False),  # a trade's word first is its name
        ("Kessler & Vogt", "Kessler und Vogt GmbH & Co. KG", True),  # "and" in any language
        ("Vandermolen Groep", "Vandermolen Installatietechniek B.V.", True),  # its group
        ("Kessler & Vogt", "Kessler & Braun", False),
        ("Deccan Lifeline Hospital", "Deccan Lifeline Hospitals Pvt. Ltd.", True),  # India's
        ("Harbour Hospital", "Harbour Hospitals Group", True),
        ("Acme", "Acmes", False),  # a name of one word: another name
    ],
)
def test_one_employer_under_two_names_is_one_job(a: str, b: str, same: bool) -> None:
    first, second = job(company=a), job(company=b, job_id="b:1")
    assert same_job(first, second).same is same, (a, b, same_job(first, second))


@pytest.mark.parametrize(
    ("title", "location", "other"),
    [
        ("Sous Chef (Sentosa)", "Sentosa, Singapore", "Sous Chef"),
        ("Sales Executive ประจำสาขาเชียงใหม่", "อ.เมืองเชียงใหม่ จ.เชียงใหม่", "Sales Executive"),
        ("Servicemonteur Warmtepompen (regio Utrecht)", "Utrecht", "Servicemonteur Warmtepompen"),
        ("Pflegefachkraft (m/w/d) – Hamburg-Altona", "Hamburg", "Pflegefachkraft"),  # district
    ],
)
def test_a_title_that_says_the_listings_place_again_is_the_job_there(
    title: str, location: str, other: str
) -> None:
    """A title's last part that says only what the listing's place says is that place: no
    word of which job it is. Elsewhere, it says which (a branch in another part of town)."""
    assert title_key(title, location) == title_key(other, location)
    assert title_key(title, "Bangkok") != title_key(other, "Bangkok")
    # ... its words, not letters inside them: "IT" is no word of "British Columbia"
    assert title_key("Support Engineer (IT)", "British Columbia") != "support engineer"


def test_pay_whose_period_one_board_does_not_say_agrees_with_the_other() -> None:
    """JobsDB says "฿60,000 - ฿90,000 per month", JobThai "60,000 - 90,000 บาท": one job.
    Another period, or pay that does not meet, still says apart."""
    monthly = job(budget=60_000, budget_max=90_000)
    assert same_job(job(budget=60_000, budget_max=90_000, period="", job_id="b:1"), monthly).same
    assert not same_job(job(budget=60_000, budget_max=90_000, period="year"), monthly).same
    assert not same_job(job(budget=20_000, budget_max=30_000, period=""), monthly).same
    # ... and its currency: Adzuna's "28000-32000" and Indeed's "28.000 € - 32.000 € al año"
    # (at two places' words the place model reads as one: not compared as a year's pay)
    yearly = job(location="Zaragoza, Zaragoza provincia", budget=28_000, budget_max=32_000)
    yearly = replace(yearly, pay=("EUR", "year", 28_000, 32_000))
    unsaid = job(location="Zaragoza, Aragón", budget=28_000, budget_max=32_000)
    assert same_job(replace(unsaid, pay=("", "", 28_000, 32_000)), yearly).same
    assert not same_job(replace(unsaid, pay=("", "", 38_000, 42_000)), yearly).same


def test_pay_in_two_periods_at_one_place_is_compared_as_a_years() -> None:
    """ "$2,200 - $2,500 a month" in Tampines and "26400-30000" at "Tampines, Singapore" are
    one job's pay. Two places near each other are not one place: an agency's templated ads
    in Fürth (a month's pay) and Nürnberg (a year's) stay two clients' jobs."""
    text = "Our client is hiring an IT administrator to run its servers and network. " * 3
    monthly = job(location="Tampines", budget=2_200, budget_max=2_500, currency="USD")
    yearly = job(
        location="Tampines, Singapore", budget=26_400, budget_max=30_000, period="", currency=""
    )
    assert same_job(yearly, monthly).same
    fuerth = job(location="Fürth", summary=text, budget=3_600, budget_max=4_200, currency="EUR")
    nuernberg = job(location="Nürnberg", summary=text, budget=50_000, budget_max=60_000)
    nuernberg = replace(nuernberg, pay=("EUR", "year", 50_000, 60_000))
    assert not same_job(nuernberg, fuerth).same
    hourly = replace(monthly, pay=("USD", "hour", 10, 12))  # $20,800 - 24,960 a year
    assert not same_job(hourly, monthly).same


def test_a_repost_whose_introduction_changed_is_the_same_job_on_its_own_board() -> None:
    """Made-up texts: one board posts the same title of the same employer at the same place
    again under a new id, its introduction rewritten and the rest kept. On its own board that
    is one job; the same pair from two boards needs more of the text the same."""
    body = (
        "You will design and run our Python services on AWS, review code and mentor two "
        "junior engineers. You have five years of Python and PostgreSQL."
    )
    first = "We are Acme, a payments company for small shops in Southeast Asia. " + body
    again = (
        "Join the fastest growing fintech in Bangkok, backed by top investors, with an "
        "award-winning culture, hybrid work, free lunches, a gym, a learning budget, health "
        "insurance for your family and great benefits for everyone who joins us this year. " + body
    )
    a = job(summary=first, job_id="a:1")
    b = job(summary=again, job_id="a:2")
    share = text_share(a, b)
    assert share is not None and 0.3 <= share < 0.55, share
    assert same_job(a, b, same_board=True).same
    assert not same_job(a, b, same_board=False).same
    elsewhere = job(summary=again, job_id="a:3", location="Chiang Mai, Thailand")
    assert not same_job(a, elsewhere, same_board=True).same  # another place
    # Two boards that state one pay: each board's introduction of one job
    paid = {"budget": 60_000, "budget_max": 90_000}
    first_paid, again_paid = job(summary=first, **paid), job(summary=again, job_id="b:2", **paid)
    assert same_job(first_paid, again_paid).same
    other_pay = job(summary=again, job_id="b:3", budget=60_000, budget_max=80_000)
    assert not same_job(first_paid, other_pay).same


def sited(url: str, location: str, summary: str = TEXT, company: str = "Mercier Group") -> Likeness:
    return Likeness.of(
        Listing(
            url.rsplit("/", 1)[-1], "adzuna", "Dutch Speaking Customer Expert", url,
            summary=summary, company=company, location=location,
        )
    )  # fmt: skip


def test_one_ad_on_a_boards_sites_for_two_countries_is_one_job() -> None:
    """Made-up listings: one board's sites for two countries (adzuna.at, adzuna.ch; de.indeed
    and uk.indeed) show one ad word for word, each placing it in its own country: one job.
    One site's two cities, two boards that are no country's sites, another employer, or a
    text rewritten stay two."""
    at = sited("https://www.adzuna.at/details/1", "Wien, Austria")
    ch = sited("https://www.adzuna.ch/details/2", "Zürich, Switzerland")
    verdict = same_job(at, ch, same_board=True)
    assert verdict.same and "one ad on adzuna.at and adzuna.ch" in str(verdict), verdict
    uk = sited("https://www.adzuna.co.uk/details/3", "London, UK")
    assert same_job(uk, at).same
    berlin = sited("https://de.indeed.com/j/4", "Berlin")
    assert same_job(berlin, sited("https://uk.indeed.com/j/4", "London, UK")).same
    assert not same_job(berlin, uk).same  # Indeed's and Adzuna's: two boards
    # one site, two cities: two openings
    krakow = sited("https://www.adzuna.pl/details/5", "Kraków, Poland")
    assert not same_job(krakow, sited("https://www.adzuna.pl/details/6", "Gdańsk, Poland")).same
    # two boards, no country's sites
    austria = sited("https://jobs.workable.com/view/7", "Austria")
    assert not same_job(austria, sited("https://himalayas.app/8", "Germany")).same
    other = sited("https://www.adzuna.ch/details/9", "Zürich", company="Other Recruiting AG")
    assert not same_job(at, other).same
    half = TEXT[: len(TEXT) // 2] + " Our office is in Zürich; you speak German and Dutch well."
    rewritten = sited("https://www.adzuna.ch/details/10", "Zürich, Switzerland", summary=half)
    assert not same_job(at, rewritten).same


FRENCH = (
    "Nous recherchons un Ingénieur Sécurité Cloud. Vous déployez Microsoft Sentinel et "
    "CrowdStrike Falcon sur AWS et Azure, appliquez ISO 27001 et DORA, et automatisez avec "
    "Terraform. Lieu: Genève, 80-100%."
)
GERMAN = (
    "Wir suchen einen Cloud Security Engineer. Sie betreiben Microsoft Sentinel und CrowdStrike "
    "Falcon auf AWS und Azure, setzen ISO 27001 und DORA um und automatisieren mit Terraform. "
    "Arbeitsort: Genf, 80-100%."
)
OTHER_GERMAN = (
    "Wir suchen einen Netzwerkspezialisten. Sie betreuen unsere Firewalls von Palo Alto und "
    "Cisco, planen das WAN und dokumentieren im ITSM. Arbeitsort: Genf, 100%."
)


def test_an_ad_for_a_move_shown_in_two_countries_is_the_job_where_it_moves_to() -> None:
    """Made-up listings: a recruiter's ad "Relocate to Lisbon", shown by one board once for
    each country it seeks people in, word for word. The job is in Lisbon, in both: one job.
    The same template for Athens is another."""
    text = "Join our multilingual hub: relocation package, flight and two weeks' hotel. " * 3
    title = "German Speaking Technical Support Agent - Relocate to {}"

    def ad(city: str, country: str, job_id: str) -> Likeness:
        return job(title=title.format(city), location=country, summary=text, job_id=job_id)

    germany, austria = ad("Lisbon", "Germany", "w:1"), ad("Lisbon", "Austria", "w:2")
    assert same_job(austria, germany).same, same_job(austria, germany)
    assert not same_job(ad("Athens", "Austria", "w:3"), germany).same


def test_a_shops_branch_in_a_title_is_where_in_its_place() -> None:
    """Issue 69's pairs: JobThai names the branch ("ประจำสาขาเซ็นทรัลเวสต์เกต", at the Central
    Westgate branch), JobsDB does not: one job at one shop in Bang Yai. Two branches named are
    two jobs, as two territories are."""
    shop = {"company": "บริษัท บ้านขนมอัญชัน จำกัด", "location": "อ.บางใหญ่ จ.นนทบุรี", "summary": ""}
    plain = job(title="พนักงานขายหน้าร้าน", **shop)
    westgate = job(title="พนักงานขายหน้าร้าน ประจำสาขาเซ็นทรัลเวสต์เกต", job_id="b:1", **shop)
    central = job(title="พนักงานขายหน้าร้าน ประจำสาขาเซ็นทรัลรัตนาธิเบศร์", job_id="c:1", **shop)
    assert westgate.title == plain.title
    assert same_job(westgate, central).reasons[-1] == "another territory"
    assert not same_job(westgate, central).same


def test_two_territories_of_one_office_are_two_jobs() -> None:
    """Made-up listings: one employer's sales team in Berlin hires for two territories, its
    texts one template. A title's region, where the listing states its own place, is a
    territory: two of them are two jobs; one title without it is the same job."""
    text = "We are growing our Berlin sales team. You own the full sales cycle. " * 3
    dach = job(title="Account Executive \u2013 DACH", location="Berlin, Germany", summary=text)
    nordics = job(
        title="Account Executive \u2013 Nordics", location="Berlin, Germany", summary=text
    )
    plain_title = job(title="Account Executive", location="Berlin, Germany", summary=text)
    assert "another territory" in str(same_job(dach, nordics))
    assert same_job(dach, plain_title).same
    stored = Likeness.from_document(dach.title, dach.document())
    assert stored.titled == ("dach",) and not same_job(stored, nordics).same


def worded(
    title: str, text: str, company: str = "Helvetia IT SA", place: str = "Genève"
) -> Likeness:
    return job(title=title, summary=text, company=company, location=place)


def test_one_job_posted_in_two_languages_is_one_job() -> None:
    """Made-up texts: one employer's ad at one place in French and in German, under a title in
    each; the names a translation keeps (Sentinel, CrowdStrike, AWS, ISO 27001, DORA) say it is
    one. Its other job in German, another place, another rank or another employer stay two."""
    french = worded("Ingénieur Sécurité Cloud (H/F)", FRENCH)
    german = worded("Cloud Security Engineer (m/w/d)", GERMAN)
    assert (french.language, german.language) == ("fr", "de")
    verdict = same_job(german, french)
    assert verdict.same and "one job in de and fr" in str(verdict), verdict
    assert not same_job(worded("Netzwerkspezialist (m/w/d)", OTHER_GERMAN), french).same
    assert not same_job(worded("Cloud Security Engineer", GERMAN, place="Zürich"), french).same
    assert not same_job(worded("Senior Cloud Security Engineer", GERMAN), french).same
    assert not same_job(worded("Cloud Security Engineer", GERMAN, company="Zenith AG"), french).same
    english = worded("Cloud Security Engineer", GERMAN.replace("Wir suchen", "We seek"))
    assert not same_job(worded("Ingénieur Cloud", FRENCH), worded("Ingénieur", FRENCH)).same
    assert english.names == german.names  # the names are what a translation keeps


def test_one_employers_ad_in_two_languages_at_one_pay_is_one_job() -> None:
    """Issue 69's pairs: a Montréal warehouse's evening shift in French and in English, one
    pay stated on both, nothing else shared a translation keeps. Another pay is another job."""
    fr = (
        "Distributions Boréal, distributeur de produits d'épicerie fine, cherche un préposé "
        "à l'entrepôt pour le quart de soir : réception, préparation des commandes, chariot."
    )
    en = (
        "Distributions Boréal, a fine-food distributor, is looking for a warehouse associate "
        "for the evening shift: receiving, order picking and loading, forklift an asset."
    )
    place, company = "Montréal, QC", "Distributions Boréal inc."
    french = job(
        title="Préposé(e) à l'entrepôt - quart de soir", summary=fr, company=company,
        location=place, budget=22, currency="USD", period="hour",
    )  # fmt: skip
    english = job(
        title="Warehouse Associate - Evening Shift", summary=en, company=company,
        location=place, budget=22, currency="USD", period="hour",
    )  # fmt: skip
    verdict = same_job(english, french)
    assert verdict.same and "the same pay stated" in str(verdict), verdict
    night = replace(english, pay=("USD", "hour", 25, 25))
    assert not same_job(night, french).same


# Made-up texts of one employer's job at one place in two languages
FELDMARK_EN = (
    "Feldmark builds software for farms. As a backend engineer you build REST services "
    "in Java/Kotlin for our platform, with the team in HafenCity."
)
FELDMARK_DE = (
    "Feldmark entwickelt Software für die Landwirtschaft. Als Entwickler baust du die "
    "Dienste unserer Plattform in Java/Kotlin, mit dem Team in der HafenCity."
)
MOBILIS_FR = (
    "Mobilis assure le nettoyage de plus de 300 bâtiments. Vous tenez la comptabilité "
    "générale et préparez les déclarations de TVA pour notre siège à Bruxelles."
)
MOBILIS_NL = (
    "Mobilis staat in voor de schoonmaak van meer dan 300 gebouwen. Je voert de "
    "algemene boekhouding en bereidt de btw-aangiften voor op onze zetel in Brussel."
)


@pytest.mark.parametrize(
    ("one", "other", "role", "apart"),
    [
        # Two names shared (Java/Kotlin, HafenCity), fewer than a translation keeps, and
        # both titles of one role; another role, or another rank, stays two
        (
            ("Backend Software Engineer - Java/Kotlin", FELDMARK_EN, "Feldmark GmbH", "Hamburg"),
            ("Softwareentwickler Backend - Java/Kotlin", FELDMARK_DE, "Feldmark GmbH", "Hamburg"),
            "backend development",
            ["Frontend Developer - Java/Kotlin", "Senior Backend Software Engineer"],
        ),
        # No name shared, each title one of accounting's whole; one that says more
        # ("fournisseurs": payables) stays two
        (
            ("Comptable (H/F/X)", MOBILIS_FR, "Mobilis Facility Services SA", "Bruxelles"),
            ("Boekhouder (M/V/X)", MOBILIS_NL, "Mobilis Facility Services SA", "Brussel"),
            "accounting",
            ["Comptable fournisseurs (H/F/X)"],
        ),
    ],
)
def test_one_role_in_two_languages_is_one_job(
    one: tuple[str, str, str, str], other: tuple[str, str, str, str], role: str, apart: list[str]
) -> None:
    first, second = worded(*one), worded(*other)
    assert first.language and second.language and first.language != second.language
    verdict = same_job(second, first)
    assert verdict.same and f"both titled {role}" in str(verdict), verdict
    for title in apart:
        assert not same_job(second, worded(title, *one[1:])).same, title


@pytest.mark.parametrize(
    ("a", "b", "two"),
    [
        ("https://www.adzuna.at/x", "https://adzuna.ch/y", True),
        ("https://www.adzuna.co.uk/x", "https://www.adzuna.com.au/y", True),
        ("https://de.indeed.com/x", "https://uk.indeed.com/y", True),
        ("https://www.adzuna.com/x", "https://www.adzuna.ca/y", True),  # .com: the US site
        ("https://www.adzuna.at/x", "https://www.adzuna.at/y", False),  # one site
        ("https://jobs.workable.com/x", "https://apply.workable.com/y", False),  # no country's
        ("http://127.0.0.1:8080/x", "http://127.0.0.2:8080/y", False),
        ("https://[::1/x", "not a link", False),  # unreadable: no site
    ],
)
def test_a_boards_sites_for_two_countries(a: str, b: str, two: bool) -> None:
    from hunter.rules.sites import site_of, two_countries_sites

    assert two_countries_sites(site_of(a), site_of(b)) is two


def test_a_stored_likeness_of_unreadable_parts_reads_as_unstated() -> None:
    back = Likeness.from_document("x", {"names": "PCI-DSS", "url": 7, "sketch": ""})
    assert (back.names, back.site) == ((), "")
    assert Likeness.from_document("x", {"names": ["AWS", 3, None]}).names == ("AWS",)


def test_two_listings_of_titles_only_at_one_link_are_one_job() -> None:
    """A new user's find: two searches of one board, titles and links only, alerted one job
    twice. Where neither states an employer nor shows text, the same link says it; another
    link, or an employer or a text on either side, is judged as before."""

    def bare(source: str, link: str, company: str = "", summary: str = "") -> Likeness:
        listing = Listing(f"{source}:7", source, "Python developer", link, summary=summary)
        return Likeness.of(replace(listing, company=company))

    one, two = (
        bare("python", "https://acme.test/jobs/7"),
        bare("chatbot", "https://acme.test/jobs/7"),
    )
    assert str(same_job(one, two)) == "same title, same link"
    assert not same_job(one, bare("chatbot", "https://acme.test/jobs/8")).same
    assert not same_job(one, bare("chatbot", "https://acme.test/jobs/7", company="Acme")).same
