"""Sources as they really behave: layouts change, pages stay the same, old Thai sites speak
windows-874, some answer 50 MB or nothing at all, some renumber everything overnight."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.support.board import Board, html_source, jobs_html
from tests.support.cli import base_env, hunter_command, run_hunter, start_hunter, write_config
from tests.support.line_standin import LineStandIn
from tests.support.local_server import free_port

SEED = [("1", "python seed one"), ("2", "python seed two")]


def notices(line: LineStandIn) -> list[str]:
    return [t for t in line.delivered if t[:1] in "⚠✅📦"]


def test_a_source_that_never_worked_cannot_be_read_it_did_not_stop(
    tmp_path: Path, line: LineStandIn
) -> None:
    """A new user's find: setting up, a source that had never answered was told as "stopped
    working". It never worked: it cannot be read, and the notice says so."""
    env = base_env(tmp_path, **line.env())
    down = f"http://127.0.0.1:{free_port()}/jobs"
    write_config(tmp_path, [html_source("board", down)], broken_after=2)
    for _ in range(2):
        assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 1  # all failed
    assert notices(line) == ["⚠️ Source board cannot be read"]
    assert "it never worked yet" in json.dumps(line.pushes[-1].body, ensure_ascii=False)


def test_a_layout_change_alerts_once_and_its_fix_once(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    env = base_env(tmp_path, **line.env())
    url = board.serve_jobs("/jobs", SEED)
    write_config(tmp_path, [html_source("board", url)], broken_after=3)
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0  # primes
    redesigned = "<html><body><div class='cards'><div class='card'>python</div></div></body></html>"
    board.serve("/jobs", redesigned)
    for poll in range(1, 6):  # each run a new process: the count survives restarts
        result = run_hunter(tmp_path, "run", "--once", env=env)
        assert result.returncode == 0, result.stderr
        assert "layout may have changed" in result.stderr
        assert len(notices(line)) == (1 if poll >= 3 else 0), poll
    status = run_hunter(tmp_path, "status", env=env).stdout
    assert "BROKEN since" in status and "5 bad polls in a row" in status
    alert = notices(line)[0]
    assert alert == "⚠️ Source board stopped working"
    body = json.dumps(line.pushes[-1].body, ensure_ascii=False)
    assert "last good at" in body and "hunter check" in body
    board.serve_jobs("/jobs", [*SEED, ("3", "python new after the fix")])
    for _ in range(2):
        assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert notices(line) == ["⚠️ Source board stopped working", "✅ Source board works again"]
    assert "python new after the fix" in line.delivered
    status = json.loads(run_hunter(tmp_path, "status", "--json", env=env).stdout)
    assert status["sources"][0]["fail_streak"] == 0 and status["sources"][0]["broken_at"] is None


def test_an_unchanged_page_costs_no_parsing_and_a_changed_one_is_seen(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    env = base_env(tmp_path, **line.env())
    url = board.serve_jobs("/jobs", SEED, etag='"v1"')
    write_config(tmp_path, [html_source("board", url)])
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    unchanged = run_hunter(tmp_path, "run", "--once", env=env)
    assert "1 unchanged (304)" in unchanged.stderr
    assert board.requests[-1][1].get("If-None-Match") == '"v1"'
    # A CDN answers 304 for a page that did change, with other validators: not trusted.
    board.serve(
        "/jobs",
        jobs_html([*SEED, ("3", "python behind a lying cache")]),
        etag='"v2"',
        lie_304='"v2"',
    )
    seen = run_hunter(tmp_path, "run", "--once", env=env)
    assert seen.returncode == 0, seen.stderr
    assert line.delivered == ["python behind a lying cache"]
    assert "If-None-Match" not in board.requests[-1][1]  # the second, unconditional request


def test_a_tis620_page_reads_as_thai(tmp_path: Path, board: Board, line: LineStandIn) -> None:
    env = base_env(tmp_path, **line.env())
    page = jobs_html([("1", "งานเก่า")]).encode("cp874")
    url = board.serve("/old", page, "text/html; charset=tis-620")
    meta_only = (
        '<html><head><meta charset="windows-874"></head>' + jobs_html([("1", "งานเก่า")])[6:]
    ).encode("cp874")
    url2 = board.serve("/meta", meta_only, "text/html")
    write_config(tmp_path, [html_source("old", url), html_source("meta", url2)])
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    new = jobs_html([("2", "เขียนบอทไลน์"), ("1", "งานเก่า")]).encode("cp874")
    board.serve("/old", new, "text/html; charset=tis-620")
    board.serve("/meta", b'<html><head><meta charset="windows-874"></head>' + new[6:], "text/html")
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    # Two pages of one site show the job at one link: one alert (one alert per job)
    assert line.delivered == ["เขียนบอทไลน์"]
    check = run_hunter(tmp_path, "check", env=env)
    assert "(cp874)" in check.stdout and "เขียนบอทไลน์" in check.stdout


def peak_memory_mb(folder: Path, env: dict[str, str], *args: str) -> tuple[float, str]:
    """Peak resident memory of one hunter run, measured by a parent of its own."""
    probe = (
        "import resource, subprocess, sys; "
        f"r = subprocess.run({hunter_command(*args)!r}, capture_output=True, text=True); "
        "sys.stdout.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) + '\\n'"
        " + r.stderr)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=folder,
        env=env,
        text=True,
        capture_output=True,
        check=True,
    ).stdout
    first, _, rest = out.partition("\n")
    return int(first) / 1024, rest


def test_a_50_mb_page_is_refused_in_flat_memory(tmp_path: Path, board: Board) -> None:
    env = base_env(tmp_path)
    url = board.serve_jobs("/jobs", SEED)
    write_config(tmp_path, [html_source("board", url)])
    normal, _ = peak_memory_mb(tmp_path, env, "run", "--once")
    huge = b"<html><body>" + b"<p>filler</p>" * (50 * 1024 * 1024 // 13) + b"</body></html>"
    board.serve("/jobs", huge, chunked=True)  # no Content-Length: refused while it streams
    refused, stderr = peak_memory_mb(tmp_path, env, "run", "--once")
    assert "over the 10,485,760-byte limit; refused" in stderr
    assert refused - normal < 25, (normal, refused)  # the 50 MB were never held


def test_a_source_that_never_answers_costs_only_its_timeout(tmp_path: Path, board: Board) -> None:
    env = base_env(tmp_path)
    slow = board.serve_jobs("/slow", SEED, hang=120)
    fast = board.serve_jobs("/fast", SEED)
    write_config(
        tmp_path, [html_source("slow", slow), html_source("fast", fast)], fetch_timeout_seconds=1
    )
    started = time.monotonic()
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert time.monotonic() - started < 60  # far from the 120 s the site would take
    assert result.returncode == 0, result.stderr
    assert "source slow: no complete answer within 1 s" in result.stderr
    assert "source fast primed silently: 2 listings" in result.stderr


def test_a_renumbered_source_sends_one_notice_not_a_flood(
    tmp_path: Path, board: Board, line: LineStandIn
) -> None:
    env = base_env(tmp_path, **line.env())
    url = board.serve_jobs("/jobs", SEED)
    write_config(tmp_path, [html_source("board", url)], flood_threshold=30)
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    renumbered = [(f"new-{n}", f"python job {n}") for n in range(100)]
    board.serve_jobs("/jobs", renumbered)
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert result.returncode == 0, result.stderr
    assert line.delivered == ["📦 board showed 100 new listings and none it showed before"]
    assert len(line.pushes) == 1
    board.serve_jobs("/jobs", [("fresh", "python fresh one"), *renumbered])
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    assert line.delivered[1:] == ["python fresh one"]  # nothing of the 100 comes later


def test_retry_after_is_honoured(tmp_path: Path, board: Board) -> None:
    env = base_env(tmp_path)
    url = board.serve("/jobs", "slow down", "text/plain", 429, headers={"Retry-After": "600"})
    write_config(tmp_path, [html_source("board", url)])
    first = run_hunter(tmp_path, "run", "--once", env=env)
    assert "it asks to wait 600 s" in first.stderr
    second = run_hunter(tmp_path, "run", "--once", env=env)
    assert board.hits["/jobs"] == 1  # not asked again before its time
    assert "1 not due yet" in second.stderr


def test_paging_stops_at_an_empty_page_and_sends_headers(tmp_path: Path, board: Board) -> None:
    env = base_env(tmp_path)
    board.serve_jobs("/jobs?page=1", [("1", "a")])
    board.serve_jobs("/jobs?page=2", [("2", "b")])
    board.serve_jobs("/jobs?page=3", [])
    source: dict[str, Any] = {
        **html_source("board", board.url + "/jobs?page={page}"),
        "pages": 5,
        "headers": {"Referer": "https://board.test/"},
    }
    write_config(tmp_path, [source])
    result = run_hunter(tmp_path, "run", "--once", env=env)
    assert "primed silently: 2 listings" in result.stderr
    assert [path for path, _ in board.requests] == ["/jobs?page=1", "/jobs?page=2", "/jobs?page=3"]
    assert all(h.get("Referer") == "https://board.test/" for _, h in board.requests)
    assert all(h.get("User-Agent", "").startswith("hunter/") for _, h in board.requests)


def test_check_warns_about_what_a_selector_gets_wrong(tmp_path: Path, board: Board) -> None:
    env = base_env(tmp_path)
    url = board.serve_jobs("/jobs", [("1", "a"), ("1", "a again"), ("2", "")])
    write_config(tmp_path, [html_source("board", url)])
    out = run_hunter(tmp_path, "check", env=env).stdout
    assert "duplicate id on one page: board:1" in out
    assert "  note: 3 relative links made absolute against http" in out
    assert "warning: 3 relative" not in out  # relative links are a page's way, no fault
    assert "1 items skipped for lack of a title or an id" in out
    assert "(utf-8), 1 page," in out


def test_check_says_a_where_that_leaves_out_every_item(tmp_path: Path, board: Board) -> None:
    """A new user's find: a `where` whose field no item has left out all 3 items, and check
    said "check the item/items selector", sending them to fix the wrong key."""
    jobs = [{"id": str(n), "title": f"python {n}", "link": f"/j/{n}"} for n in range(3)]
    url = board.serve_json("/api", {"jobs": jobs})
    source = {
        "name": "api", "kind": "json", "url": url, "items": "jobs", "id": "id",
        "title": "title", "link": "link", "where": ['status == "open"'],
    }  # fmt: skip
    write_config(tmp_path, [source])
    check = run_hunter(tmp_path, "check", env=base_env(tmp_path))
    assert check.returncode == 1
    said = "no listings: 3 items found, none passed where = ['status == \"open\"']"
    assert said in check.stdout and "item/items selector" not in check.stdout


def test_sigterm_during_a_trickling_fetch_exits_at_once(tmp_path: Path, board: Board) -> None:
    slow = board.serve_jobs("/slow", SEED, trickle=2.0)  # a byte every 2 s: never a timeout
    write_config(tmp_path, [html_source("slow", slow)], fetch_timeout_seconds=60)
    process = start_hunter(tmp_path, "run", env=base_env(tmp_path))
    deadline = time.monotonic() + 30
    while not board.hits.get("/slow") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert board.hits.get("/slow"), "hunter never fetched"
    stopped = time.monotonic()
    process.send_signal(signal.SIGTERM)
    _out, err = process.communicate(timeout=40)
    assert process.returncode == 0, err
    assert time.monotonic() - stopped < 25  # Render and Railway kill at 30 s
    assert "Traceback" not in err and "closed database" not in err
    assert "stopped" in err
    # A stop is no failure of the source (a new user's find: "failed sources: slow")
    assert "failed sources" not in err and "1 source not read: stopped" in err


# hunter's own peak: Linux's VmHWM, which starts again at exec. ru_maxrss does not: it counts
# the forking parent's memory too, so under a busy pytest worker (300 MB after hundreds of
# tests) it measured the worker, not hunter (CI: "peak RSS 301 MB" for hunter's 170).
# `hunter` as its entry point runs it (hunter.app.run), its peak memory said at the end: the
# entry point itself (hunter.app.main) leaves the process at once, with nothing said after.
RSS_OF = (
    "import resource, sys\n"
    "sys.argv = ['hunter', *sys.argv[1:]]\n"
    "from hunter.app import run\n"
    "try:\n"
    "    code = run()\n"
    "finally:\n"
    "    try:\n"
    "        with open('/proc/self/status') as status:\n"
    "            peak = next(int(l.split()[1]) for l in status if l.startswith('VmHWM'))\n"
    "    except OSError:\n"
    "        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
    "    print('peak-rss-kb', peak, file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def test_a_page_of_200000_tiny_items_is_read_within_bounds(tmp_path: Path, board: Board) -> None:
    """Issue 45, finding 4: one 6.5 MB JSON page of 200,000 tiny listings (under the 10 MB
    cap) took 752 MB (2.1 GB with pages = 3; a $5 instance has 512) and wrote 200,000 rows
    kept 45 days, each read. A page is read for its first 1,000 items and a read for 5,000,
    and the log says what was left unread."""
    items = [{"id": n, "t": f"j{n}"} for n in range(200_000)]
    url = board.serve_json("/api?page={page}", {"jobs": items})
    assert len(json.dumps({"jobs": items})) > 5_000_000
    for page in (1, 2, 3):
        board.serve_json(f"/api?page={page}", {"jobs": [{**i, "id": f"{page}-{i['id']}"}
                                                        for i in items]})  # fmt: skip
    source = {"name": "huge", "kind": "json", "url": url, "items": "jobs", "id": "id",
              "title": "t", "pages": 3}  # fmt: skip
    write_config(tmp_path, [source])
    result = subprocess.run(
        [sys.executable, "-c", RSS_OF, "run", "--once"], cwd=tmp_path, env=base_env(tmp_path),
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    peak_mb = int(result.stderr.rsplit("peak-rss-kb", 1)[1].split()[0]) / 1024
    assert peak_mb < 300, f"peak RSS {peak_mb:.0f} MB"
    assert "the page holds 200,000 items: read the first 1,000" in result.stderr
    import sqlite3

    with sqlite3.connect(tmp_path / "hunter.db") as db:
        [(rows,)] = db.execute("SELECT count(*) FROM hunter_seen_jobs").fetchall()
    assert rows == 3_000  # 1,000 a page, three pages: far under 20,000 a read


def test_run_once_all_reads_every_source_now_and_says_so(tmp_path: Path, board: Board) -> None:
    """Issue 44, "by hand": a person who runs `hunter run --once` to try a change was told
    "1 not due yet" and nothing was read. `--once --all` reads every source now, whatever its
    schedule, and says so; what a site asked (Retry-After) still holds."""
    env = base_env(tmp_path)
    url = board.serve_jobs("/jobs", SEED)
    held = board.serve("/held", "slow down", "text/plain", 429, headers={"Retry-After": "600"})
    write_config(tmp_path, [html_source("board", url), html_source("held", held)],
                 schedule="learned")  # fmt: skip
    assert run_hunter(tmp_path, "run", "--once", env=env).returncode == 0
    again = run_hunter(tmp_path, "run", "--once", env=env)
    assert board.hits["/jobs"] == 1 and "2 not due yet" in again.stderr
    forced = run_hunter(tmp_path, "run", "--once", "--all", env=env)
    assert forced.returncode == 0, forced.stderr
    assert "--all: every source is read now, whatever its schedule" in forced.stdout
    assert board.hits["/jobs"] == 2  # read now
    assert board.hits["/held"] == 1 and "1 not due yet" in forced.stderr  # the site's 600 s
    wrong = run_hunter(tmp_path, "run", "--all", env=env)
    assert wrong.returncode == 2 and "--all goes with --once" in wrong.stderr
