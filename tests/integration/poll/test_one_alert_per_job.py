"""One alert per job (issue 43), through Hunter.poll against the boards' stand-ins: the same job
on Remotive and Himalayas alerts once and /why of the second names the first; a chat that did
not get the first gets the second; a job posted again under a new id is not alerted again,
unless the source says reposts = "alert" (then it is, marked); the hard pairs stay apart;
`merge = false` gets every copy."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from typing import Any

import pytest

from hunter.app.service import Hunter
from hunter.chat.tuning import Tuning
from hunter.chat.why import Why
from hunter.rules.destinations import Destinations
from hunter.rules.likeness import Likeness
from hunter.rules.listing import Listing
from hunter.settings.config import Config, parse_config
from hunter.status import report
from hunter.status.summary import as_markdown
from hunter.status.text import as_json, as_text, chat_text
from hunter.store.sqlite import SQLiteStore
from hunter.web.status_page import render
from tests.support.board import Board, html_source
from tests.support.line_standin import titles_of
from tests.support.remote_boards import RemoteBoards
from tests.support.scripted import Clock, ScriptedSender

T0 = datetime(2026, 11, 3, 9, tzinfo=UTC)
TEXT = (
    "Acme builds payment tools for small shops in Southeast Asia. You will design and run our "
    "Python services on AWS, review code and mentor two junior engineers."
)
REMOTIVE = "/api/remote-jobs?search={search}&limit=100"
HIMALAYAS = "/jobs/api/search?q={search}&sort=recent&limit=20"
HOURS_8 = 8 * 3600  # past Remotive's own pace (4 reads a day)


@pytest.fixture
def clock() -> Clock:
    return Clock(T0)


def remotive(n: int, title: str, company: str = "Acme") -> dict[str, Any]:
    """As Remotive answers a job (a 2026-07 answer's fields)."""
    return {
        "id": n,
        "url": f"https://remotive.com/remote-jobs/software-dev/job-{n}",
        "title": title,
        "company_name": company,
        "category": "Software Development",
        "job_type": "full_time",
        "publication_date": "2026-11-03T08:00:00",
        "candidate_required_location": "Asia",
        "salary": "",
        "description": f"<p>{TEXT}</p>",
    }


def himalayas(n: int, title: str, company: str = "Acme") -> dict[str, Any]:
    """As Himalayas answers a job (2026-07 and 2026-09 answers): its excerpt is the text's
    first sentences."""
    return {
        "guid": f"https://himalayas.app/companies/acme/jobs/job-{n}",
        "title": title,
        "companyName": company,
        "excerpt": TEXT[:140],
        "minSalary": None,
        "maxSalary": None,
        "currency": None,
        "salaryPeriod": None,
        "employmentType": "Full Time",
        "locationRestrictions": ["Asia"],
        "categories": ["Software Engineering"],
        "pubDate": 1_762_160_000_000 + n,
    }


def config_of(boards: RemoteBoards, **more: Any) -> Config:
    sources = [
        {"preset": "remotive", "url": boards.url + REMOTIVE, "search": "python"},
        {"preset": "himalayas", "url": boards.url + HIMALAYAS, "search": "python"},
    ]
    return parse_config({"sources": sources, "filter": {"include": ["python"]}, **more})


def titles(sender: ScriptedSender) -> list[str]:
    return [t for _key, messages in sender.pushes for t in titles_of({"messages": messages})]


def test_the_same_job_on_two_boards_alerts_once_and_why_names_the_first(
    boards: RemoteBoards, store: SQLiteStore, clock: Clock
) -> None:
    boards.remotive = [remotive(1, "Python Seed")]
    boards.himalayas = [himalayas(1, "Python Seed Two")]
    line = ScriptedSender()
    config = config_of(boards)
    hunter = Hunter(config, store, line, clock, "w", threading.Event())
    hunter.poll()  # primes both
    boards.remotive.insert(0, remotive(2, "Senior Python Developer"))
    clock.advance(HOURS_8)
    hunter.poll()
    boards.himalayas.insert(0, himalayas(2, "Senior Python Developer (Remote)", "ACME Inc."))
    boards.himalayas.insert(0, himalayas(3, "Senior Python Developer", "Globex"))  # another
    clock.advance(HOURS_8)
    hunter.poll()
    # The copy is no alert of its own; LINE cannot edit the first alert to name it, so its
    # link goes as a line beside the next listing, where it costs nothing (issue 55).
    also = "🔁 ลงที่อื่นด้วย · also on himalayas: Senior Python Developer"
    assert sorted(titles(line)) == ["Senior Python Developer", "Senior Python Developer", also]
    sent_links = str(line.pushes)
    assert "remotive.com/remote-jobs/software-dev/job-2" in sent_links
    assert "himalayas.app/companies/acme/jobs/job-3" in sent_links  # Globex's: its own job
    assert sent_links.count("himalayas.app/companies/acme/jobs/job-2") == 1  # the line's
    states = store.outbox.job_states()
    assert states["himalayas:https://himalayas.app/companies/acme/jobs/job-2"] == "ignored"
    # Counted where a person looks: each render of the status, per source.
    view = report.gather(config, store, Destinations(None), line, clock.now)
    counted = "1 copy of jobs already alerted, merged in 7 days"
    assert counted in as_text(view, clock.now, "UTC", 120)
    assert counted in as_markdown(view, clock.now, "UTC")
    assert counted in render(view, clock.now, "UTC")
    sources = {s["name"]: s for s in json.loads(as_json(view))["sources"]}
    assert sources["himalayas"]["last_days"]["merged"][-1] == 1
    assert sum(sources["remotive"]["last_days"]["merged"]) == 0
    [said] = [x for x in chat_text(view, "", "UTC").splitlines() if x.startswith("himalayas")]
    assert "🔁 1 รวมแล้ว merged" in said  # สถานะ in the owner's chat
    why = Why(Tuning(config, store, Destinations(None)), clock, lambda: None)
    answer = why.explain("https://himalayas.app/companies/acme/jobs/job-2", "")
    assert (
        "merged: the same job as https://remotive.com/remote-jobs/software-dev/job-2 on "
        "remotive: same title, same employer" in answer
    ), answer


def test_a_chat_that_did_not_get_the_first_copy_gets_the_second(
    boards: RemoteBoards, store: SQLiteStore, clock: Clock
) -> None:
    """The owner reads both boards; the team chat reads Himalayas only: the Himalayas copy of
    a job the owner got from Remotive still reaches the team, and only the team."""
    boards.remotive = [remotive(1, "Python Seed")]
    boards.himalayas = [himalayas(1, "Python Seed Two")]
    team, owner = "C" + "1" * 32, "U" + "2" * 32
    line = ScriptedSender()
    chats = [{"name": "team", "to": team, "sources": ["himalayas"]}]
    config = config_of(boards, chats=chats)
    hunter = Hunter(config, store, line, clock, "w", threading.Event(), line_to=owner)
    hunter.poll()
    boards.remotive.insert(0, remotive(2, "Senior Python Developer"))
    boards.himalayas.insert(0, himalayas(2, "Senior Python Developer"))
    clock.advance(HOURS_8)
    hunter.poll()
    everyone = [(to or owner, str(m)) for (_k, m), to in zip(line.pushes, line.to, strict=True)]
    to_team = [m for to, m in everyone if to == team]
    to_owner = [m for to, m in everyone if to != team]
    assert len(to_team) == 1 and "himalayas.app" in to_team[0]
    assert len(to_owner) == 1 and "remotive.com" in to_owner[0]


def test_the_daily_prune_forgets_the_likeness_of_listings_past_the_window(
    boards: RemoteBoards, store: SQLiteStore, clock: Clock
) -> None:
    """What a copy is matched against is kept prune_after_days (30), then forgotten with the
    outbox's rows: the likeness room does not grow for ever."""
    boards.remotive = [remotive(1, "Senior Python Developer")]
    boards.himalayas = [himalayas(1, "Python Seed Two")]
    config = config_of(boards, prune_after_days=30)
    hunter = Hunter(config, store, ScriptedSender(), clock, "w", threading.Event())
    hunter.poll()
    copy = Listing("himalayas:x", "himalayas", "Senior Python Developer", "https://x.test/1")
    ever = datetime(2000, 1, 1, tzinfo=UTC)

    def kept() -> list[str]:
        noted = store.likeness.note([(copy, Likeness.of(copy))], ever, clock.now, keep=False)
        return [e.job_id for e in noted.earlier]

    assert kept() == ["remotive:1"]
    clock.advance(29 * 86400)
    hunter.prune()
    assert len(kept()) == 1
    clock.advance(2 * 86400)
    hunter.prune()
    assert kept() == []


def test_merge_false_gets_every_copy(
    boards: RemoteBoards, store: SQLiteStore, clock: Clock
) -> None:
    boards.remotive = [remotive(1, "Python Seed")]
    boards.himalayas = [himalayas(1, "Python Seed Two")]
    line = ScriptedSender()
    hunter = Hunter(config_of(boards, merge=False), store, line, clock, "w", threading.Event())
    hunter.poll()
    boards.remotive.insert(0, remotive(2, "Senior Python Developer"))
    boards.himalayas.insert(0, himalayas(2, "Senior Python Developer"))
    clock.advance(HOURS_8)
    hunter.poll()
    assert titles(line) == ["Senior Python Developer", "Senior Python Developer"]


@pytest.mark.parametrize("reposts", ["merge", "alert"])
def test_a_repost_under_a_new_id(
    board: Board, store: SQLiteStore, clock: Clock, reposts: str
) -> None:
    """A client posts the same brief again two days later under a new id, the first still on
    the page: merged (no second alert), or with reposts = "alert" alerted, marked."""

    def page(jobs: list[tuple[str, str]]) -> str:
        return (
            "<ul>"
            + "".join(
                f'<li class="job" data-jid="{j}"><h3><a href="https://x.test/{j}">{t}</a></h3>'
                f'<p class="client">Somchai Design</p><p class="text">{TEXT}</p></li>'
                for j, t in jobs
            )
            + "</ul>"
        )

    url = board.serve("/jobs", page([("seed", "seed")]))
    source = {
        **html_source("board", url),
        "company": ".client",
        "summary": ".text",
        "reposts": reposts,
    }
    config = parse_config({"sources": [source], "filter": {"include": ["logo"]}})
    line = ScriptedSender()
    hunter = Hunter(config, store, line, clock, "w", threading.Event())
    hunter.poll()
    board.serve("/jobs", page([("101", "ออกแบบโลโก้ร้านกาแฟ logo"), ("seed", "seed")]))
    clock.advance(3600)
    hunter.poll()
    clock.advance(2 * 86400)
    board.serve(
        "/jobs", page([("205", "ออกแบบโลโก้ร้านกาแฟ logo"), ("101", "ออกแบบโลโก้ร้านกาแฟ logo")])
    )
    hunter.poll()
    payloads = [str(m) for _k, m in line.pushes]
    if reposts == "merge":
        assert len(payloads) == 1 and "x.test/101" in payloads[0]
        assert store.outbox.job_states()["board:205"] == "ignored"
    else:
        assert len(payloads) == 2 and "x.test/205" in payloads[1]
        assert "re-posted; first seen 2026-11-03" in payloads[1]  # on its card


def test_one_ad_on_a_boards_sites_for_two_countries_alerts_once(
    board: Board, store: SQLiteStore, clock: Clock
) -> None:
    """One employer's ad shown word for word by a board's Austrian and Swiss sites, each
    placing it in its own country, read as two sources: one alert, the Swiss link beside it;
    /why of the Swiss copy names both sites. The store keeps only the link (the site is read
    from it again)."""

    def page(site: str, jobs: list[tuple[str, str, str]]) -> str:
        return (
            "<ul>"
            + "".join(
                f'<li class="job" data-jid="{j}"><h3><a href="https://www.{site}/details/{j}">'
                f'{t}</a></h3><p class="client">Mercier Consultancy Group</p>'
                f'<p class="where">{where}</p><p class="text">{TEXT}</p></li>'
                for j, t, where in jobs
            )
            + "</ul>"
        )

    def source(name: str, path: str) -> dict[str, Any]:
        url = board.url + path
        return {**html_source(name, url), "company": ".client", "location": ".where",
                "summary": ".text"}  # fmt: skip

    board.serve("/at", page("adzuna.at", [("1", "seed", "Wien")]))
    board.serve("/ch", page("adzuna.ch", [("2", "seed", "Zürich")]))
    config = parse_config(
        {
            "sources": [source("adzuna-at", "/at"), source("adzuna-ch", "/ch")],
            "filter": {"include": ["python"]},
        }
    )
    line = ScriptedSender()
    hunter = Hunter(config, store, line, clock, "w", threading.Event())
    hunter.poll()  # primes both
    title = "Dutch Speaking Python Support Engineer"
    board.serve("/at", page("adzuna.at", [("11", title, "Wien, Austria"), ("1", "seed", "Wien")]))
    clock.advance(3600)
    hunter.poll()
    ch = [("12", title, "Zürich, Switzerland"), ("2", "seed", "Zürich")]
    board.serve("/ch", page("adzuna.ch", ch))
    clock.advance(3600)
    hunter.poll()
    sent = [t for t in titles(line) if t == title]
    assert len(sent) == 1, titles(line)
    assert store.outbox.job_states()["adzuna-ch:12"] == "ignored"
    why = Why(Tuning(config, store, Destinations(None)), clock, lambda: None)
    answer = why.explain("https://www.adzuna.ch/details/12", "")
    assert "the same job as https://www.adzuna.at/details/11" in answer, answer
    assert "one ad on adzuna.ch and adzuna.at" in answer, answer


def test_one_job_posted_in_two_languages_alerts_once(
    board: Board, store: SQLiteStore, clock: Clock
) -> None:
    """One employer's ad at one place, in French, then in German under its German title: one
    alert; /why of the German copy says why. The employer's other job in German is alerted."""
    french = (
        "Nous recherchons un Ingénieur Sécurité Cloud. Vous déployez Microsoft Sentinel et "
        "CrowdStrike Falcon sur AWS et Azure, appliquez ISO 27001 et DORA, et automatisez "
        "avec Terraform."
    )
    german = (
        "Wir suchen einen Cloud Security Engineer. Sie betreiben Microsoft Sentinel und "
        "CrowdStrike Falcon auf AWS und Azure, setzen ISO 27001 und DORA um und "
        "automatisieren mit Terraform."
    )
    other = (
        "Wir suchen einen Cloud-Netzwerkspezialisten. Sie betreuen unsere Firewalls von Palo "
        "Alto und Cisco in der Cloud, planen das WAN und dokumentieren im ITSM."
    )

    def page(jobs: list[tuple[str, str, str]]) -> str:
        return (
            "<ul>"
            + "".join(
                f'<li class="job" data-jid="{j}"><h3><a href="https://x.test/{j}">{t}</a></h3>'
                f'<p class="client">Helvetia IT SA</p><p class="where">Genève</p>'
                f'<p class="text">{text}</p></li>'
                for j, t, text in jobs
            )
            + "</ul>"
        )

    url = board.serve("/jobs", page([("seed", "seed", "seed")]))
    source = {**html_source("board", url), "company": ".client", "location": ".where",
              "summary": ".text"}  # fmt: skip
    config = parse_config({"sources": [source], "filter": {"include": ["cloud"]}})
    line = ScriptedSender()
    hunter = Hunter(config, store, line, clock, "w", threading.Event())
    hunter.poll()
    fr = ("1", "Ingénieur Sécurité Cloud (H/F)", french)
    board.serve("/jobs", page([fr, ("seed", "seed", "seed")]))
    clock.advance(3600)
    hunter.poll()
    de = ("2", "Cloud Security Engineer (m/w/d)", german)
    net = ("3", "Cloud-Netzwerkspezialist (m/w/d)", other)
    board.serve("/jobs", page([de, net, fr]))
    clock.advance(3600)
    hunter.poll()
    also = "🔁 ลงที่อื่นด้วย · also on board: Ingénieur Sécurité Cloud (H/F)"
    assert sorted(titles(line)) == [
        "Cloud-Netzwerkspezialist (m/w/d)",
        "Ingénieur Sécurité Cloud (H/F)",
        also,
    ], titles(line)
    assert "x.test/2" in str(line.pushes[-1])  # the German link, beside the next alert
    assert store.outbox.job_states()["board:2"] == "ignored"
    why = Why(Tuning(config, store, Destinations(None)), clock, lambda: None)
    answer = why.explain("https://x.test/2", "")
    assert "the same job as https://x.test/1" in answer and "one job in de and fr" in answer


def test_a_small_page_renumbered_with_short_texts_and_no_employer_alerts_nothing_again(
    board: Board, store: SQLiteStore, clock: Clock
) -> None:
    """A new user's find: a company's own page moved every listing to a new id and link (a
    redesign), titles, pay, place and their few words the same, and no employer named on
    it. 13 of 15 jobs came twice: a text too short to compare made them bare titles. Two
    listings of one title and short text that differ stay two."""

    def page(prefix: str, jobs: list[tuple[str, str]]) -> str:
        return (
            "<ul>"
            + "".join(
                f'<li class="job" data-jid="{prefix}{n}"><h3><a href="https://x.test/{prefix}{n}">'
                f'{title}</a></h3><p class="text">{text}</p><p class="pay">฿3,000</p></li>'
                for n, (title, text) in enumerate(jobs, start=1)
            )
            + "</ul>"
        )

    jobs = [
        ("Logo designer", "Logo for a new Nimman cafe."),
        ("Pitch deck designer", "Pitch decks."),
        ("Logo designer", "Logo for a hotel in Old Town."),  # the same title, another brief
    ]
    url = board.serve("/jobs", page("seed-", [("seed", "seed.")]))
    source = {**html_source("lanna", url), "summary": ".text", "budget": ".pay"}
    config = parse_config({"sources": [source], "filter": {"include": ["designer"]}})
    line = ScriptedSender()
    hunter = Hunter(config, store, line, clock, "w", threading.Event())
    hunter.poll()  # the first read primes
    board.serve("/jobs", page("cm-", jobs))
    clock.advance(3600)
    hunter.poll()
    assert len(titles(line)) == 3
    board.serve("/jobs", page("job-", jobs))  # every id and link new
    clock.advance(3600)
    hunter.poll()
    assert len(titles(line)) == 3, titles(line)
    states = store.outbox.job_states()
    assert [states[f"lanna:job-{n}"] for n in (1, 2, 3)] == ["ignored"] * 3
