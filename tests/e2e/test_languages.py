"""The languages a chat reads (issue 54, its language layer), as a user meets them: hunter.toml
says `languages = ["en"]`; a German ad never reaches LINE, `hunter check` says why, and a
listing too short to tell is alerted (unknown is never "no")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.support.board import Board
from tests.support.cli import run_hunter, write_config
from tests.support.line_standin import LineStandIn

GERMAN = (
    "Wir suchen einen erfahrenen Python Entwickler für unser Team in Berlin. Sie arbeiten an "
    "unseren Diensten und betreuen zwei Kollegen."
)
ENGLISH = (
    "We build payment tools for small shops. You will run our Python services on AWS and "
    "review the code of two junior engineers."
)


def feed(jobs: list[tuple[str, str, str]]) -> dict[str, Any]:
    return {
        "jobs": [
            {"id": job, "title": title, "link": f"https://b.test/{job}", "text": text}
            for job, title, text in jobs
        ]
    }


def test_an_ad_in_a_language_the_chat_does_not_read_is_left_out(
    tmp_path: Path, board: Board, line: LineStandIn, env: dict[str, str]
) -> None:
    source = {"name": "b", "kind": "json", "url": board.serve_json("/b", feed([])),
              "items": "jobs", "id": "id", "title": "title", "link": "link",
              "summary": "text"}  # fmt: skip
    write_config(tmp_path, [source], filter={"include": ["python"], "languages": ["en", "th"]})
    board.serve_json("/b", feed([("0", "python seed", "")]))
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    jobs = [
        ("1", "Python Entwickler (m/w/d)", GERMAN),
        ("2", "Senior Python Developer", ENGLISH),
        ("3", "Python", ""),  # too short to tell: kept
        ("0", "python seed", ""),
    ]
    board.serve_json("/b", feed(jobs))
    check = run_hunter(tmp_path, "check", env=env)
    assert "written in de (this chat reads en, th)" in check.stdout, check.stdout
    assert "language: de" in check.stdout and "language: unknown" in check.stdout
    ran = run_hunter(tmp_path, "run", "--once", env=env)
    assert ran.returncode == 0, ran.stderr
    assert sorted(line.delivered) == ["Python", "Senior Python Developer"]


def test_a_job_elsewhere_is_left_out_and_one_whose_place_is_unknown_comes(
    tmp_path: Path, board: Board, line: LineStandIn, env: dict[str, str]
) -> None:
    """Issue 54's place layer as a user meets it: `places = ["กรุงเทพฯ", "ปริมณฑล"]`; a
    JobThai-like card in เขตบางนา and one in Nonthaburi come, one in Chon Buri does not, one
    without a place comes; `hunter check` says where it read each."""
    source = {"name": "b", "kind": "json", "url": board.serve_json("/b", {"jobs": []}),
              "items": "jobs", "id": "id", "title": "title", "link": "link",
              "location": "where"}  # fmt: skip
    write_config(
        tmp_path, [source], filter={"include": ["it support"], "places": ["กรุงเทพฯ", "ปริมณฑล"]}
    )
    seed = {"id": "0", "title": "IT Support seed", "link": "https://b.test/0", "where": ""}
    board.serve_json("/b", {"jobs": [seed]})
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    jobs = [
        ("1", "IT Support บางนา", "เขตบางนา กรุงเทพมหานคร"),
        ("2", "IT Support ปากเกร็ด", "อ.ปากเกร็ด จ.นนทบุรี"),
        ("3", "IT Support ศรีราชา", "อ.ศรีราชา จ.ชลบุรี"),
        ("4", "IT Support somewhere", ""),
    ]
    board.serve_json("/b", {"jobs": [seed] + [
        {"id": job, "title": title, "link": f"https://b.test/{job}", "where": where}
        for job, title, where in jobs
    ]})  # fmt: skip
    check = run_hunter(tmp_path, "check", env=env)
    assert "place: บางนา, Bangkok" in check.stdout, check.stdout
    assert "would have brought 1 of 1: “IT Support seed”" in check.stdout  # what it saw lately
    ran = run_hunter(tmp_path, "run", "--once", env=env)
    assert ran.returncode == 0, ran.stderr
    assert sorted(line.delivered) == [
        "IT Support somewhere",
        "IT Support บางนา",
        "IT Support ปากเกร็ด",
    ]
    status = run_hunter(tmp_path, "status", env=env).stdout
    assert "held back since " in status and ": 1 by place" in status, status  # Si Racha
