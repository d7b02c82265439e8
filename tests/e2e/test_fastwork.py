"""Fastwork as it really is (tests/support/fastwork.py keeps to the measured API): categories
by name, newest first, a link a person can open, budgets as the site means them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import base_env, run_hunter, write_config
from tests.support.fastwork import FastworkStandIn
from tests.support.line_standin import LineStandIn


@pytest.fixture
def fastwork() -> Iterator[FastworkStandIn]:
    stand_in = FastworkStandIn()
    yield stand_in
    stand_in.close()


def source(fastwork: FastworkStandIn, **extra: Any) -> dict[str, Any]:
    return {"preset": "fastwork", "url": fastwork.url, "categories": ["เว็บไซต์"], **extra}


def texts_of(line: LineStandIn) -> list[str]:
    """Every text of every card LINE accepted."""
    out = []
    for push in line.pushes:
        if push.status != 200:
            continue
        for message in push.body["messages"]:
            contents = message.get("contents", {})
            cards = (
                contents.get("contents", []) if contents.get("type") == "carousel" else [contents]
            )
            for card in cards:
                out += [c.get("text", "") for c in card.get("body", {}).get("contents", [])]
                out += [b["action"]["uri"] for b in card.get("footer", {}).get("contents", [])]
    return out


def test_a_new_post_in_a_chosen_category_is_alerted_once_as_the_site_means_it(
    tmp_path: Path, fastwork: FastworkStandIn, line: LineStandIn
) -> None:
    for n in range(120):  # a busy category: more than two pages of open posts
        fastwork.post(f"งานเว็บ {n}", "เว็บไซต์", minutes_ago=600 + n)
    fastwork.post("ออกแบบโลโก้", "กราฟิก", minutes_ago=500)
    write_config(tmp_path, [source(fastwork)], filter={"min_budget": 5000})
    env = base_env(tmp_path, **line.env())
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes silently
    assert line.pushes == []
    new_id = fastwork.post(
        "ทำเว็บขายของ", "เว็บไซต์", budget="5000", budget_2="10000", offers=3, kind="contract"
    )
    no_budget = fastwork.post("แก้เว็บด่วน", "เว็บไซต์", budget="0")  # "0": not stated
    fastwork.post("ออกแบบแบนเนอร์", "กราฟิก")  # another category: never asked for
    fastwork.post("เว็บราคาถูก", "เว็บไซต์", budget="900")  # under min_budget
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    assert sorted(line.delivered) == ["ทำเว็บขายของ", "แก้เว็บด่วน"]
    texts = texts_of(line)
    assert f"https://jobboard.fastwork.co/jobs?job_id={new_id}" in texts
    assert f"https://jobboard.fastwork.co/jobs?job_id={no_budget}" in texts
    assert "฿5,000\u201310,000" in texts
    assert "งบไม่ระบุ · budget not stated" in texts
    assert any("เว็บไซต์ · สัญญาจ้าง · เสนอแล้ว 3 คน" in t for t in texts)
    asked = fastwork.requests[-1]
    assert asked["filters[0][field]"] == "tag_id"
    assert asked["filters[0][value]"] == fastwork.tags["เว็บไซต์"]
    assert (asked["page_size"], asked["order_by[]"], asked["order_directions[]"]) == (
        "50",
        "inserted_at",
        "desc",
    )
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert len(line.delivered) == 2  # once


def test_a_busy_stretch_reads_the_next_page_too(
    tmp_path: Path, fastwork: FastworkStandIn, line: LineStandIn
) -> None:
    fastwork.post("งานเก่า", "เว็บไซต์", minutes_ago=600)
    write_config(tmp_path, [source(fastwork)], flood_threshold=100, max_alerts_per_poll=100)
    env = base_env(tmp_path, **line.env())
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    for n in range(60):  # more new posts than one page holds, all since the last poll
        fastwork.post(f"งานใหม่ {n}", "เว็บไซต์", minutes_ago=-1 - n / 100)
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    assert len(line.delivered) == 60
    assert [r["page"] for r in fastwork.requests[-2:]] == ["1", "2"]


def test_a_500_is_a_failed_read_then_all_is_delivered(
    tmp_path: Path, fastwork: FastworkStandIn, line: LineStandIn
) -> None:
    fastwork.post("งานเก่า", "เว็บไซต์", minutes_ago=600)
    write_config(tmp_path, [source(fastwork)])
    env = base_env(tmp_path, **line.env())
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    fastwork.post("งานใหม่", "เว็บไซต์")
    fastwork.fail_next = 1
    failed = run_hunter(tmp_path, "run", "--once", env=env)
    assert "source fastwork: HTTP 500" in failed.stderr and "Traceback" not in failed.stderr
    assert line.delivered == []
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert line.delivered == ["งานใหม่"]


def test_an_unknown_category_is_a_config_error_naming_the_ones_that_exist(
    tmp_path: Path, fastwork: FastworkStandIn
) -> None:
    write_config(tmp_path, [source(fastwork, categories=["เว็บไซต์", "เว็บ"])])
    result = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "no Fastwork category named 'เว็บ'" in result.stdout
    assert "the categories are: " in result.stdout and "เว็บไซต์" in result.stdout
    assert not any("filters[0][value]" in r for r in fastwork.requests)  # no unfiltered scan
    run = run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path))
    assert "source fastwork: no Fastwork category named 'เว็บ'" in run.stderr
    assert fastwork.requests == []  # never "the whole board" instead


def test_a_changed_category_list_fails_the_source_never_scans_the_board(
    tmp_path: Path, fastwork: FastworkStandIn
) -> None:
    fastwork.tags_answer = {"categories": ["เว็บไซต์"]}  # not the shape measured in 2026
    write_config(tmp_path, [source(fastwork)])
    result = run_hunter(tmp_path, "run", "--once", env=base_env(tmp_path))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "Fastwork's category list is not what hunter knows" in result.stderr
    assert fastwork.requests == []


def test_categories_need_the_jobs_endpoint(tmp_path: Path) -> None:
    write_config(
        tmp_path,
        [{"preset": "fastwork", "url": "https://x.test/api/job-list", "categories": ["เว็บไซต์"]}],
    )
    result = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert result.returncode == 2
    assert "url must be Fastwork's jobs endpoint (ending in /jobs)" in result.stderr
