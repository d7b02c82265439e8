"""The status page: `GET /status`, the report of `hunter status` as a page a person
reads on a phone (LINE's in-app browser included), and `GET /status.json`, the same object
as `hunter status --json`. On only with HUNTER_STATUS_TOKEN (else 404, as any unknown path).

Who may read it: a request that shows the token, as `Authorization: Bearer <token>` or as the
cookie set by `/status?token=<token>`, which answers with a redirect to `/status` so that the
token leaves the address bar and the history (HttpOnly, SameSite=Strict, Secure behind
HTTPS). Anything else is 401 with nothing of the report. The token is compared in constant
time and redacted like every secret.

The page is server-rendered HTML with inline SVG charts: no script, font, style or image from
anywhere else (a Content-Security-Policy says so to the browser), readable at a phone's width.
"""

from __future__ import annotations

import hmac
import html
import json
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from urllib.parse import parse_qs, urlsplit
from zoneinfo import ZoneInfo

from hunter.errors import HunterError
from hunter.redact import redact
from hunter.status.history import FRESH_DAYS, merged_text, spread_text
from hunter.status.text import as_json, membership_text
from hunter.status.view import SourceCondition, SourceView, StatusView
from hunter.web.routes import Answer, Headers, Page
from hunter.words import plural

log = logging.getLogger("hunter")

COOKIE = "hunter_status"
COOKIE_DAYS = 30
POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; "
    "frame-ancestors 'none'; base-uri 'none'"
)
HTML = (("content-type", "text/html; charset=utf-8"), ("content-security-policy", POLICY))
PRIVATE = (("cache-control", "no-store"), ("referrer-policy", "no-referrer"))

Gather = Callable[[], StatusView]


def pages(token: str, gather: Gather, timezone: str, clock: Callable[[], datetime]) -> list[Page]:
    """/status and /status.json, for whoever shows `token`; `gather` reads the report."""
    expected = token.encode("ascii")

    def shown(headers: Headers) -> bool:
        bearer = headers.get(b"authorization", b"")
        if bearer[:7].lower() == b"bearer " and hmac.compare_digest(bearer[7:].strip(), expected):
            return True
        for part in headers.get(b"cookie", b"").split(b";"):
            name, _, value = part.strip().partition(b"=")
            if name == COOKIE.encode() and hmac.compare_digest(value, expected):
                return True
        return False

    def page(target: str, headers: Headers) -> Answer:
        query = parse_qs(urlsplit(target).query)
        given = (query.get("token") or [""])[0].encode("ascii", "replace")
        if given:  # from the chat's link: set the cookie, and drop the token from the address
            if not hmac.compare_digest(given, expected):
                return _refused(page=True)
            secure = "; Secure" if headers.get(b"x-forwarded-proto") == b"https" else ""
            cookie = (
                f"{COOKIE}={token}; Path=/status; HttpOnly; SameSite=Strict; "
                f"Max-Age={COOKIE_DAYS * 86400}{secure}"
            )
            return Answer(303, b"", (("location", "/status"), ("set-cookie", cookie), *PRIVATE))
        if not shown(headers):
            return _refused(page=True)
        try:
            report = gather()
        except HunterError as exc:
            return _unavailable(exc)
        body = redact(render(report, clock(), timezone)).encode("utf-8")
        return Answer(200, body, (*HTML, *PRIVATE))

    def document(target: str, headers: Headers) -> Answer:
        if not shown(headers):
            return _refused(page=False)
        try:
            body = redact(as_json(gather())).encode("utf-8")
        except HunterError as exc:
            return _unavailable(exc)
        return Answer(200, body, (("content-type", "application/json"), *PRIVATE))

    return [Page("/status", page), Page("/status.json", document)]


def _unavailable(error: HunterError) -> Answer:
    """The database could not be read: say so (redacted), rather than close unanswered."""
    log.warning("the status page could not read the database: %s", error)
    said = json.dumps({"message": f"the database cannot be read: {redact(str(error))}"})
    return Answer(503, said.encode(), (("content-type", "application/json"), *PRIVATE))


_REFUSED_PAGE = (
    "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>"
    "<title>hunter</title><p>This page needs its link with the status token: the owner's "
    "chat's สถานะ ends with it, or open /status?token=&lt;HUNTER_STATUS_TOKEN&gt;.</p>"
).encode()


def _refused(page: bool) -> Answer:
    """401: for a browser, a line it shows (a phone showed raw JSON); for a script, JSON
    naming the header (the page's cookie is not sent to /status.json)."""
    if page:
        return Answer(401, _REFUSED_PAGE, (*HTML, ("www-authenticate", "Bearer"), *PRIVATE))
    return Answer(
        401,
        b'{"message": "show the status token: Authorization: Bearer <HUNTER_STATUS_TOKEN>"}',
        (("content-type", "application/json"), ("www-authenticate", "Bearer"), *PRIVATE),
    )


# -- the page ----------------------------------------------------------------------------------
def escape(text: str, limit: int | None = None, quote: bool = True) -> str:
    """Text from the report as the page shows it: secrets out first (a site may quote back
    the key hunter sent it; cut, a secret would no longer be found whole), then cut to
    `limit`, then escaped. The whole page is redacted again as it is sent."""
    return html.escape(redact(text)[:limit], quote=quote)


STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans Thai",sans-serif;
margin:0;padding:12px;background:#f6f7f9;color:#1d2329}
h1{font-size:20px;margin:4px 0 2px}h2{font-size:16px;margin:18px 0 6px}
.muted{color:#5b6670;font-size:13px}
.card{background:#fff;border:1px solid #dde2e7;border-radius:10px;padding:10px 12px;margin:8px 0}
.name{font-weight:600}.ok{color:#157f3b}.bad{color:#b42318}.warn{color:#9a6700}
table{border-collapse:collapse;width:100%;font-size:14px}
td,th{text-align:left;padding:4px 6px;border-bottom:1px solid #eef1f4;vertical-align:top}
svg{display:block;max-width:100%;height:auto;margin-top:6px}
.bar{fill:#2f80ed}.all{fill:#cfe0fb}.fail{fill:#d92d20}.axis{fill:#5b6670;font-size:10px}
"""


def render(view: StatusView, now: datetime, timezone: str) -> str:
    """The page: each source with its last days, the outbox, each chat, the last prune."""
    tz = ZoneInfo(timezone)

    def at(value: datetime | None) -> str:
        return "never · ไม่เคย" if value is None else f"{value.astimezone(tz):%d %b %H:%M}"

    parts = [
        "<!doctype html><html lang=th><head><meta charset=utf-8>",
        '<meta name=viewport content="width=device-width,initial-scale=1">',
        f"<title>hunter</title><style>{STYLE}</style></head><body>",
        "<h1>hunter</h1>",
        f"<div class=muted>{escape(at(now))} ({escape(timezone)}) · ล่าสุด · last poll "
        f"{escape(at(view.last_poll_at))} · ล้างข้อมูล · last prune "
        f"{escape(at(view.last_prune_at))}</div>",
        "<h2>แหล่งงาน · Sources</h2>",
    ]
    if not view.sources:
        parts.append("<div class=card>ยังไม่ได้อ่าน · none polled yet</div>")
    for source in view.sources:
        parts.append(_source(source, now, at))
    parts.append(_outbox(view))
    parts.append(_chats(view, now, timezone))
    if view.subscribers is not None:
        said = membership_text(view.subscribers, view.now)
        parts.append(f"<h2>สมาชิก · Subscribers</h2><div class=card>{escape(said)}</div>")
    parts.append("</body></html>")
    return "".join(parts)


def _source(source: SourceView, now: datetime, at: Callable[[datetime | None], str]) -> str:
    row, days, fresh = source.row, source.days, source.fresh
    if source.condition is SourceCondition.BROKEN:
        state = f"<span class=bad>⚠️ ใช้ไม่ได้ · broken since {escape(at(row.broken_at))}</span>"
    elif source.condition is SourceCondition.FAILING:
        state = f"<span class=bad>❌ {escape(source.problem, 200)}</span>"
    else:
        state = f"<span class=ok>✅ {plural(row.last_count or 0, 'listing')}</span>"
    reads = plural(days.reads_today, "read")
    if source.read_budget is not None:  # the most its schedule may make today
        reads = f"{days.reads_today} of {source.read_budget} reads"
    lines = [
        f'<div class=card id="source-{escape(source.name, quote=True)}">',
        f"<div><span class=name>{escape(source.name)}</span> · {state}</div>",
        f"<div class=muted>อ่านล่าสุด · last read {escape(at(row.last_poll_at))}"
        f" · วันนี้ · today {reads}</div>",
    ]
    if fresh:
        lines.append(
            f"<div class=muted>โพสต์ → ส่ง · posted → sent: "
            f"{escape(spread_text(fresh.posted_to_sent))} ({fresh.sent} in {FRESH_DAYS} "
            "days)</div>"
        )
    if source.fields:
        lines.append(f"<div class=muted>fields: {escape(source.fields)}</div>")
    if merged := sum(days.merged):
        lines.append(f"<div class=muted>{escape(merged_text(merged))}</div>")
    if row.not_before and row.not_before > now:
        lines.append(
            f"<div class=muted>อ่านครั้งต่อไป · next read {escape(at(row.not_before))}: "
            f"{escape(source.next_read_why)}</div>"
        )
    lines.append(chart(days.new, days.matching, days.failed))
    lines.append("</div>")
    return "".join(lines)


def chart(new: list[int], counts: list[int], failed: list[int]) -> str:
    """The last days as bars: new listings a day (light), those that matched a chat (dark,
    their number under the bar), a red mark under a day with a failed read. Inline SVG, a pure
    function of the numbers."""
    width, height, gap = 280, 64, 6
    bar = (width - gap * (len(counts) + 1)) / max(len(counts), 1)
    most = max([*new, *counts], default=0) or 1
    shapes = []
    for n, count in enumerate(counts):
        x = gap + n * (bar + gap)
        for value, kind in ((new[n] if n < len(new) else 0, "all"), (count, "bar")):
            tall = 0 if not value else max(2.0, (height - 22) * value / most)
            shapes.append(
                f'<rect class={kind} x="{x:.1f}" y="{height - 14 - tall:.1f}" '
                f'width="{bar:.1f}" height="{tall:.1f}"><title>{value}</title></rect>'
            )
        shapes.append(
            f'<text class=axis x="{x + bar / 2:.1f}" y="{height - 2}" text-anchor=middle>'
            f"{count}</text>"
        )
        if n < len(failed) and failed[n]:
            shapes.append(
                f'<rect class=fail x="{x:.1f}" y="{height - 13}" width="{bar:.1f}" height="2">'
                f"<title>{failed[n]} failed reads</title></rect>"
            )
    label = f"new listings and those matching, last {len(counts)} days"
    return (
        f'<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}" role=img '
        f'aria-label="{label}">{"".join(shapes)}</svg>'
    )


def _outbox(view: StatusView) -> str:
    o = view.outbox
    rows = "".join(
        f"<tr><td>{escape(row.job_id, 80)}{escape(f' · {row.chat}' if row.chat else '')}</td>"
        f"<td>{escape(row.last_error or '', 200)}</td></tr>"
        for row in view.stuck_rows
    )
    stuck = f"<table><tr><th>stuck</th><th>why</th></tr>{rows}</table>" if rows else ""
    if view.no_channel:
        stuck = f"<p class=bad>{escape(view.no_channel, 400)}</p>{stuck}"
    return (
        "<h2>รอส่ง · Outbox</h2><div class=card>"
        f"รอ · waiting {o.pending} · ส่งใหม่ · retry {o.retry} · ติดค้าง · stuck "
        f"{o.stuck} · ส่งแล้ว 24 ชม. · sent in 24 h {view.sent_last_24h}{stuck}</div>"
    )


def month_share(now: datetime, timezone: str) -> float:
    """How much of the calendar month (the user's) has gone by: 0 to 1."""
    local = now.astimezone(ZoneInfo(timezone))
    start = local.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    end = (start + timedelta(days=32)).replace(day=1)
    return (local - start) / (end - start)


def month_line(used: int, limit: int, share: float) -> str:
    """The month's messages as a bar: used (dark), where this pace ends the month (light, to
    its projected end), the plan's limit (the bar's end), and today's place in the month."""
    width, height = 280, 26
    projected = used / max(share, 1 / 31)
    scale = width / max(limit, projected, 1)
    ahead = projected > limit
    return (
        f'<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}" role=img '
        f'aria-label="messages used {used} of {limit}; at this pace {projected:.0f} by the '
        "month's end\">"
        f'<rect class=all x="0" y="4" width="{min(projected, limit) * scale:.1f}" height="12"/>'
        f'<rect class={"fail" if ahead else "bar"} x="0" y="4" width="{used * scale:.1f}" '
        'height="12"/>'
        f'<rect class=axis x="{limit * scale - 1:.1f}" y="0" width="2" height="20"/>'
        f'<rect class=fail x="{share * width:.1f}" y="18" width="2" height="8"/></svg>'
        f"<div class=muted>at this pace · ตามอัตรานี้: ~{projected:,.0f} of {limit:,} by the "
        "month's end</div>"
    )


def _chats(view: StatusView, now: datetime, timezone: str) -> str:
    if not view.chats:
        return ""
    rows = []
    for chat in view.chats:
        channel = chat.where.channel or "-"
        month = (
            plural(chat.messages_this_month, "message")
            if chat.paced
            else f"{chat.sent_this_month} sent"
        )
        held = chat.held.removeprefix("held back ") or "-"  # places, languages, taps (54)
        rows.append(
            f"<tr><td>{escape(chat.name)}</td><td>{escape(channel)}</td>"
            f"<td>{escape(month)}</td><td>{escape(chat.waiting_cell)}</td><td>{escape(held)}</td></tr>"
        )
    quota, line = view.quota, ""
    if quota is not None and quota.error is None and quota.limit:
        line = (
            f"<div class=muted>{escape(view.quota_name)}: {quota.used:,} of "
            f"{quota.limit:,} messages this month</div>"
            + month_line(quota.used, quota.limit, month_share(now, timezone))
        )
    return (
        "<h2>แชท · Chats</h2><div class=card><table><tr><th>chat</th><th>channel</th>"
        f"<th>this month</th><th>waiting</th><th>held back</th></tr>{''.join(rows)}</table>"
        f"{line}</div>"
    )
