"""A board that changes shape, noticed: each poll a separate `hunter run --once`, as on a
cron. The field is there for three polls, renamed for the next ones, then read again; the owner
hears once that it is gone (within two polls), never before, and once that it is back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.board import Board, html_source, jobs_html
from tests.support.cli import run_hunter, write_config
from tests.support.line_standin import LineStandIn

SHAPE = ("🔎", "✅")  # a field gone, a field (or a source) back


def told(line: LineStandIn) -> list[str]:
    return [title for title in line.delivered if title.startswith(SHAPE)]


def jobicy(first: int, count: int, year: int) -> dict[str, Any]:
    """Jobicy's answer with the pay fields of `year`: 2024 annualSalaryMin/Max as strings,
    2026 salaryMin/Max as numbers with salaryPeriod (apiVersion 2.2.14 and 2.2.16)."""
    jobs = []
    for n in range(first, first + count):
        pay = (
            {"annualSalaryMin": "60000", "annualSalaryMax": "90000"}
            if year == 2024
            else {"salaryMin": 60000, "salaryMax": 90000, "salaryPeriod": "yearly"}
        )
        jobs.append(
            {
                "id": n,
                "url": f"https://jobicy.com/jobs/{n}-python",
                "jobTitle": f"Python developer {n}",
                "companyName": "Acme",
                "salaryCurrency": "USD",
                **pay,
            }
        )
    return {"apiVersion": "2.2.16" if year == 2026 else "2", "success": True, "jobs": jobs}


def api_source(url: str, budget: str) -> dict[str, Any]:
    """A source written in 2024 for Jobicy's answer, reading its pay by the 2024 name."""
    return {
        "name": "jobs",
        "kind": "json",
        "url": url,
        "items": "jobs",
        "id": "id",
        "title": "jobTitle",
        "link": "url",
        "budget": budget,
        "currency": "USD",
        "period": "year",
    }


def poll(tmp_path: Path, env: dict[str, str]) -> None:
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr


def test_a_renamed_pay_field_is_told_once_and_its_return_once(
    tmp_path: Path, board: Board, line: LineStandIn, env: dict[str, str]
) -> None:
    url = board.serve_json("/api", jobicy(1, 20, 2024))
    write_config(tmp_path, [api_source(url, "annualSalaryMin")])
    for n in range(3):  # the pay is there: three polls make it the board's habit
        board.serve_json("/api", jobicy(1 + n, 20, 2024))
        poll(tmp_path, env)
    board.serve_json("/api", jobicy(4, 20, 2026))  # Jobicy renames its pay fields
    poll(tmp_path, env)
    assert told(line) == []  # one poll without it may be chance
    # A new listing: the notice goes with its push (a notice alone waits for one, a day at
    # most, so that it never takes a listing's place in the month: issue 37)
    board.serve_json("/api", jobicy(5, 20, 2026))
    poll(tmp_path, env)
    assert told(line) == ["🔎 jobs: pay no longer found in its listings"]
    card = json.dumps(line.pushes[-1].body, ensure_ascii=False)
    assert "may have changed" in card and "hunter check" in card
    poll(tmp_path, env)
    assert len(told(line)) == 1  # never twice for one change
    status = run_hunter(tmp_path, "status", env=env).stdout
    assert "fields found: link 100%, pay GONE (was 100%)" in status
    data = json.loads(run_hunter(tmp_path, "status", "--json", env=env).stdout)
    assert data["sources"][0]["fields"]["pay"]["gone"] is True
    check = run_hunter(tmp_path, "check", env=env).stdout
    assert "fields found: link 20/20" in check and "not found: pay" in check
    # The owner reads the new name first, the old one after it: pay is found again.
    write_config(tmp_path, [api_source(url, "salaryMin|annualSalaryMin")])
    for n in range(3):  # told back once it stays back three polls (issue 37),
        board.serve_json("/api", jobicy(5 + n, 20, 2026))  # with the next listing's push
        poll(tmp_path, env)
    assert told(line) == [
        "🔎 jobs: pay no longer found in its listings",
        "✅ jobs: pay found again in its listings",
    ]
    data = json.loads(run_hunter(tmp_path, "status", "--json", env=env).stdout)
    assert data["sources"][0]["fields"]["pay"] == {"present": 1.0, "gone": False}


def test_a_link_field_and_an_html_selector_that_stop_matching(
    tmp_path: Path, board: Board, line: LineStandIn, env: dict[str, str]
) -> None:
    """Two sources at once: a JSON API whose link field is renamed, an HTML page whose price
    class is; each is told once, by name and field, and nothing else is."""
    jobs = [(str(n), f"python job {n}") for n in range(1, 9)]
    page = board.serve_jobs("/jobs", jobs, budget="฿9,000")
    api = board.serve_json("/api", jobicy(1, 10, 2026))
    write_config(tmp_path, [html_source("board", page), api_source(api, "salaryMin")])
    for _ in range(3):
        poll(tmp_path, env)
    renamed = jobicy(1, 10, 2026)
    for job in renamed["jobs"]:
        job["jobUrl"] = job.pop("url")
    board.serve_json("/api", renamed)
    board.serve("/jobs", jobs_html(jobs, "฿9,000").replace('class="price"', 'class="cost"'))
    poll(tmp_path, env)
    assert told(line) == []
    jobs.append(("9", "python job 9"))  # a new listing: the notices go with its push
    board.serve("/jobs", jobs_html(jobs, "฿9,000").replace('class="price"', 'class="cost"'))
    poll(tmp_path, env)
    assert sorted(told(line)) == [
        "🔎 board: pay no longer found in its listings",
        "🔎 jobs: link no longer found in its listings",
    ]
    poll(tmp_path, env)
    assert len(told(line)) == 2
