"""One alert per job (issue 43) as a user meets it: the same job on two boards reaches LINE
once (no second push: none of the month spent on it), `hunter check` says which listing of the
current pages is a job seen before and why, and `hunter status` counts the merge; on Telegram
and Discord the first alert is edited to say where else the job is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.board import Board
from tests.support.cli import run_hunter, write_config
from tests.support.discord_standin import DiscordStandIn
from tests.support.line_standin import LineStandIn
from tests.support.telegram_standin import TelegramStandIn

TEXT = (
    "Acme builds payment tools for small shops in Southeast Asia. You will design and run our "
    "Python services on AWS, review code and mentor two junior engineers."
)


def feed(
    jobs: list[tuple[str, str]], board: str, text: str = TEXT, host: str = ""
) -> dict[str, Any]:
    """A board's JSON: each job with its employer, place and text, as Remotive-like boards
    state them ("" for a board that shows no text), its links at `host` (board.test)."""
    return {
        "jobs": [
            {
                "id": job,
                "title": title,
                "link": f"https://{host or board + '.test'}/jobs/{job}",
                "company": "Acme Co., Ltd.",
                "location": "Bangkok",
                "text": text,
            }
            for job, title in jobs
        ]
    }


def source(name: str, url: str) -> dict[str, Any]:
    return {
        "name": name,
        "kind": "json",
        "url": url,
        "items": "jobs",
        "id": "id",
        "title": "title",
        "link": "link",
        "company": "company",
        "location": "location",
        "summary": "text",
    }


def show(board: Board, name: str, *jobs: tuple[str, str], text: str = TEXT, host: str = "") -> str:
    """Board `name` shows `jobs` above its seed listing (a page that shows nothing it showed
    before is a flood, held); its URL."""
    shown = feed([*jobs, (f"s{name}", f"seed {name}")], name, text, host)
    return board.serve_json(f"/{name}", shown)


def primed(
    tmp_path: Path,
    board: Board,
    env: dict[str, str],
    names: tuple[str, str] = ("one", "two"),
    text: str = TEXT,
    **config: Any,
) -> None:
    """Two boards read by hunter.toml's sources for "python", both primed: nothing they show
    now is sent."""
    sources = [source(name, show(board, name, text=text)) for name in names]
    write_config(tmp_path, sources, filter={"include": ["python"]}, **config)
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes both


def test_the_same_job_on_two_boards_is_one_push_and_check_says_why(
    tmp_path: Path, board: Board, line: LineStandIn, env: dict[str, str]
) -> None:
    primed(tmp_path, board, env)
    show(board, "one", ("7", "Senior Python Developer"))
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert line.delivered == ["Senior Python Developer"] and len(line.pushes) == 1

    show(board, "two", ("91", "🔥 Senior Python Developer (Remote)"))
    check = run_hunter(tmp_path, "check", env=env)
    assert (
        "1 new listing is a job seen before (one alert per job), e.g. two:91: the same job as "
        "https://one.test/jobs/7 on one: same title, same employer, 100% the same text"
    ) in check.stdout, check.stdout

    again = run_hunter(tmp_path, "run", "--once", env=env)
    assert again.returncode == 0, again.stderr
    assert len(line.pushes) == 1  # no second push, no message of the month spent
    assert "two.test/jobs/91 is the same job as https://one.test/jobs/7" in again.stderr
    status = json.loads(run_hunter(tmp_path, "status", "--json", env=env).stdout)
    merged = {s["name"]: sum(s["last_days"]["merged"]) for s in status["sources"]}
    assert merged == {"one": 0, "two": 1}


def test_the_first_alert_on_telegram_and_discord_gains_also_on_the_second_board(
    tmp_path: Path,
    board: Board,
    line: LineStandIn,
    telegram: TelegramStandIn,
    discord: DiscordStandIn,
    env: dict[str, str],
) -> None:
    """The owner on LINE, a Telegram chat and a Discord channel read both boards. The copy on
    the second board sends nothing anywhere; the Telegram message and the Discord message the
    first copy made are edited to name the second board with its link (LINE cannot edit: no
    push, nothing spent). Run again, nothing changes: no edit twice, no message."""
    env = {**env, **telegram.env(), "DISCORD_WEBHOOK_TEAM": discord.webhook_url()}
    chats = [{"name": "tg", "to": "telegram:111"}, {"name": "team", "to": "discord:team"}]
    primed(tmp_path, board, env, chats=chats)
    show(board, "one", ("7", "Senior Python Developer"))
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert [s.text.splitlines()[0] for s in telegram.delivered] == ["Senior Python Developer"]
    assert discord.titles() == ["Senior Python Developer"] and len(line.pushes) == 1
    assert "also on" not in telegram.delivered[0].text

    show(board, "two", ("91", "Senior Python Developer (Remote)"))
    again = run_hunter(tmp_path, "run", "--once", env=env)
    assert again.returncode == 0, again.stderr
    assert len(line.pushes) == 1 and len(telegram.delivered) == 1 and len(discord.messages) == 1
    [edited] = telegram.edited
    assert edited.text.splitlines()[0] == "Senior Python Developer"
    assert "ลงที่อื่นด้วย · also on: two" in edited.text
    assert '<a href="https://two.test/jobs/91">two</a>' in edited.fields["text"]
    assert edited.fields["reply_markup"] == telegram.delivered[0].fields["reply_markup"]
    [changed] = discord.edits
    assert changed.titles == ["Senior Python Developer"]
    assert changed.links == ["https://one.test/jobs/7"]
    [field] = changed.body["embeds"][0]["fields"]
    assert field["value"] == "[two](https://two.test/jobs/91)" and "also on" in field["name"]
    assert telegram.violations == [] and discord.refused == []

    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert len(telegram.edited) == 1 and len(discord.edits) == 1  # nothing due: no edit again
    assert len(telegram.delivered) == 1 and len(discord.messages) == 1 and len(line.pushes) == 1


def test_a_copycats_text_less_copy_never_hides_the_employers_listing(
    tmp_path: Path, board: Board, line: LineStandIn, telegram: TelegramStandIn, env: dict[str, str]
) -> None:
    """Issue 55, high 2: a copycat board shows a real employer's title with no text first;
    the employer's own listing (its text, its link) was then "the same job" for 45 days, and
    LINE never showed it. Now it reaches LINE and Telegram as an alert of its own."""
    env = {**env, **telegram.env()}
    primed(tmp_path, board, env, ("copycat", "acme"), chats=[{"name": "tg", "to": "telegram:111"}])
    show(board, "copycat", ("7", "Senior Python Developer"), text="")  # a title, an employer
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    show(board, "acme", ("91", "Senior Python Developer"))
    again = run_hunter(tmp_path, "run", "--once", env=env)
    assert again.returncode == 0, again.stderr
    links = [link for push in line.pushes for link in push.links]
    assert links == ["https://copycat.test/jobs/7", "https://acme.test/jobs/91"]
    shown = [s.fields["reply_markup"]["inline_keyboard"][0][0]["url"] for s in telegram.delivered]
    assert shown == ["https://copycat.test/jobs/7", "https://acme.test/jobs/91"]
    assert telegram.edited == []  # nothing merged: nothing to edit


def test_a_job_boards_text_less_listing_first_is_the_job_and_the_employers_link_joins_it(
    tmp_path: Path, board: Board, line: LineStandIn, telegram: TelegramStandIn, env: dict[str, str]
) -> None:
    """Issue 69: LinkedIn shows a job without its text before the employer's own board shows
    it with its text. A job board is no copycat (the test above): one alert, on its link,
    and the employer's link joins it ("also on")."""
    env = {**env, **telegram.env()}
    names = ("linkedin", "acme")
    primed(tmp_path, board, env, names, chats=[{"name": "tg", "to": "telegram:111"}])
    show(board, "linkedin", ("7", "Senior Python Developer"), text="", host="www.linkedin.com")
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    show(board, "acme", ("91", "Senior Python Developer"))
    again = run_hunter(tmp_path, "run", "--once", env=env)
    assert again.returncode == 0, again.stderr
    assert [link for push in line.pushes for link in push.links] == [
        "https://www.linkedin.com/jobs/7"
    ]
    assert len(telegram.delivered) == 1
    [edited] = telegram.edited
    assert '<a href="https://acme.test/jobs/91">acme</a>' in edited.fields["text"]


def test_a_copy_merged_into_an_alert_that_cannot_show_it_is_told_apart(
    tmp_path: Path, board: Board, line: LineStandIn, telegram: TelegramStandIn, env: dict[str, str]
) -> None:
    """Issue 55, high 2: a merged copy's link is never invisible. LINE cannot edit its card,
    and a person deleted the Telegram message: each gets a line with the copy's link, with
    its next push (on LINE it costs nothing: it goes beside the next listing)."""
    env = {**env, **telegram.env()}
    primed(tmp_path, board, env, chats=[{"name": "tg", "to": "telegram:111"}])
    show(board, "one", ("7", "Senior Python Developer"))
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    telegram.deleted.add(1)  # the person deleted the alert
    show(board, "two", ("91", "Senior Python Developer"))
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert len(line.pushes) == 1  # alone it spends nothing of LINE's month
    told = telegram.delivered[-1]
    assert "also on two: Senior Python Developer" in told.text
    assert told.fields["reply_markup"]["inline_keyboard"][0][0]["url"] == (
        "https://two.test/jobs/91"
    )
    board.serve_json(
        "/one",
        feed([("8", "Junior Python Developer"), ("7", "Senior Python Developer")], "one"),
    )
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert len(line.pushes) == 2
    assert "https://two.test/jobs/91" in line.pushes[-1].links  # beside the next listing
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert sum("also on two" in s.text for s in telegram.delivered) == 1  # once
    assert telegram.violations == []


def copies(board: str, links: range) -> dict[str, Any]:
    """One job (title, employer, place, text) under many ids and links, beside the board's
    seed listing (a page that shows nothing it showed before is a flood, held)."""
    jobs = [(f"{board}{n}", "Senior Python Developer") for n in links]
    listed = feed([*jobs, (f"s{board}", f"seed {board}")], board)
    for job in listed["jobs"]:
        job["link"] = f"https://{board}.test/jobs/{job['id']}?ref=copy"
    return listed


@pytest.mark.parametrize(
    ("reads", "alerts"),
    [
        ([{"one": range(100)}], 1),  # gave 4 alerts
        ([{"one": range(50), "two": range(50)}], 1),  # gave 51 to each chat
        ([{"one": range(1)}, {"one": range(100)}], 1),  # gave 13 more cards on LINE
    ],
    ids=["100 on one source", "50 on each of two", "one, then 99 more"],
)
def test_a_job_under_many_links_is_one_alert(
    tmp_path: Path,
    board: Board,
    line: LineStandIn,
    env: dict[str, str],
    reads: list[dict[str, range]],
    alerts: int,
) -> None:
    # Issue 62's attack: one job (title, employer, place, text) under many links
    primed(tmp_path, board, env)
    for pages in reads:
        for name, links in pages.items():
            board.serve_json(f"/{name}", copies(name, links))
        done = run_hunter(tmp_path, "run", "--once", env=env)
        assert done.returncode == 0, done.stderr
    assert line.delivered == ["Senior Python Developer"] * alerts
    assert len(line.pushes) == alerts


def test_the_same_job_on_two_boards_that_show_no_text_is_one_alert_with_both_links(
    tmp_path: Path, board: Board, line: LineStandIn, telegram: TelegramStandIn, env: dict[str, str]
) -> None:
    """Issue 63: Proxify's listings on We Work Remotely and Working Nomads show no text: the
    same title and employer on two boards was two alerts. Now one, and the second board's
    link is on the first alert (Telegram edits it), so a wrong merge would hide nothing."""
    env = {**env, **telegram.env()}

    primed(tmp_path, board, env, text="", chats=[{"name": "tg", "to": "telegram:111"}])
    show(board, "one", ("7", "Senior Python Developer"), text="")
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    show(board, "two", ("91", "Senior Python Developer"), text="")
    again = run_hunter(tmp_path, "run", "--once", env=env)
    assert again.returncode == 0, again.stderr
    assert len(line.pushes) == 1 and len(telegram.delivered) == 1
    [edited] = telegram.edited
    assert '<a href="https://two.test/jobs/91">two</a>' in edited.fields["text"]
    assert "neither shows its text" in again.stderr


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Senior Python Developer", "Senior Python Developer (Remote - Thailand)"),
        ("Python Support Lead - Remote, APAC", "Python Support Lead"),
        ("Python QA Tester (Thailand)", "Python QA Tester (TH)"),
    ],
)
def test_a_title_that_adds_where_the_job_is_done_is_the_same_job(
    tmp_path: Path, board: Board, line: LineStandIn, env: dict[str, str], first: str, second: str
) -> None:
    """Made-up titles of the kinds boards write: where or how the job is done added to its
    title, or said in another form (a country's name or its code)."""
    primed(tmp_path, board, env)
    show(board, "one", ("7", first))
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    show(board, "two", ("91", second))
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert line.delivered == [first] and len(line.pushes) == 1


def bare(jobs: list[tuple[str, str]]) -> dict[str, Any]:
    """One board's search answer: titles and links only, no employer, no text."""
    return {"jobs": [{"id": j, "title": t, "link": f"https://acme.test/jobs/{j}"} for j, t in jobs]}


def test_two_searches_of_one_board_that_show_only_titles_are_one_alert(
    tmp_path: Path, board: Board, line: LineStandIn, env: dict[str, str]
) -> None:
    """A new user's find: two sources (two searches of one board) showed the same job, its
    title and link alone, and it was alerted twice: with no text and no employer, nothing
    vouched for a merge. The same title at the same link is one page, one job."""
    searches = {"python": "/search-python", "chatbot": "/search-chatbot"}
    for path in searches.values():
        board.serve_json(path, bare([("seed", "seed listing")]))
    sources = [
        {"name": name, "kind": "json", "url": board.url + path, "items": "jobs", "id": "id",
         "title": "title", "link": "link"}
        for name, path in searches.items()
    ]  # fmt: skip
    write_config(tmp_path, sources, filter={"include": ["python"]})
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes both
    job = [("7", "Python developer (LINE chatbot)"), ("seed", "seed listing")]
    for path in searches.values():
        board.serve_json(path, bare(job))
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    assert line.delivered == ["Python developer (LINE chatbot)"] and len(line.pushes) == 1
    assert "same title, same link" in result.stderr
    # Another job at another link of the same title is another job: alerted
    for path in searches.values():
        board.serve_json(path, bare([("8", "Python developer (LINE chatbot)"), *job]))
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert line.delivered == ["Python developer (LINE chatbot)"] * 2
