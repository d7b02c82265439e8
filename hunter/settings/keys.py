"""Every key of hunter.toml, declared once: its name, its default, its bounds and one line of
meaning. The parser takes the allowed names, the defaults and the bounds of numbers from
here (config.py, chats.py, subscribers.py), `hunter check`'s refusals say them, and
docs/configuration.md's tables are these (tests/unit/test_config_keys.py holds the page and
the Config's defaults to them; `uv run python -m hunter.settings.keys` prints the tables).

A [[sources]] key is read by the kinds that name it (hunter/sources/kinds.py and each kind's
module); its meaning is here, with the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from hunter.rules.calendar import DEFAULT_RESERVE


@dataclass(frozen=True)
class Key:
    name: str
    meaning: str  # one line, as the docs' table says it
    default: object = None  # as the parser gives it when the key is not written
    shown: str = ""  # the default as a person reads it, where the value does not say it
    least: float | None = None  # a number's bounds, said by the refusal of one outside them
    most: float | None = None
    whole: bool = False  # a whole number

    @property
    def bounds(self) -> str:
        """ " (1 to 10,000)" for a number with bounds; "" for the rest."""
        if self.least is None or self.most is None:
            return ""
        least = f"{self.least:,g}" if self.least >= 1 else f"{self.least:g}"
        return f" ({least} to {self.most:,g})"

    @property
    def default_text(self) -> str:
        if self.shown:
            return self.shown
        if isinstance(self.default, bool):
            return "true" if self.default else "false"
        if isinstance(self.default, float) and self.default.is_integer():
            return f"{self.default:g}"
        if isinstance(self.default, str):
            return f'`"{self.default}"`'
        return "none" if self.default is None else f"{self.default:,}"


TOP = (
    Key(
        "interval_minutes",
        'how often a source is read in its busy hours (with `schedule = "fixed"`, always); '
        "the learned schedule reads a quiet hour less often",
        30.0,
        least=0.05,
        most=7 * 24 * 60.0,
    ),
    Key(
        "schedule",
        '`"learned"`: each source read as often as its hours post, at most twice as often a '
        "day as `interval_minutes` would (96 reads at 30 minutes; [sources.md](sources.md), "
        '"How often each source is read"); `"fixed"`: every `interval_minutes` (and on every '
        "`run --once`)",
        "learned",
    ),
    Key(
        "fastest_minutes",
        "never read a source more often (a smaller `interval_minutes` wins)",
        5.0,
        least=0.05,
        most=24 * 60.0,
    ),
    Key(
        "slowest_minutes",
        "never read a source less often: a board silent all night costs 4 reads, and one that "
        "comes alive is seen within 3 hours",
        180.0,
        least=0.05,
        most=7 * 24 * 60.0,
    ),
    Key(
        "timezone",
        "the zone of `quiet_hours`, of the month's pace and of the times the status shows: "
        'an IANA name such as `"Asia/Bangkok"`; a board\'s times without a zone are read in it '
        "too (a source may set its own). `hunter check` says which zone quiet hours are read in",
        "UTC",
    ),
    Key(
        "owner",
        "the owner's chat, on any channel: a chat id as its channel writes one "
        "([channels.md](channels.md)). It gets the listings of the global `[filter]` and "
        "hunter's own "
        "notices (a source stopped working, the month's quota), and its chat may see the "
        "status and tune. `LINE_TO` in the environment is its old spelling; both set to two "
        "chats is an error that names both. Without either, notices go to the first `[[chats]]`",
        shown="`LINE_TO`",
    ),
    Key(
        "max_alerts_per_poll",
        "listings pushed per poll to the owner and the `[[chats]]`; the rest wait, and the "
        "alert says how many (each subscriber's `messages_per_day` bounds theirs)",
        48,
        least=1,
        most=100_000,
        whole=True,
    ),
    Key(
        "backoff_seconds",
        "waits after the 1st..5th failed push, each above 0 and at most a day; the 5th parks "
        "the batch and paces its probes. A poll that failed (the database away) is tried again "
        "after the 1st (1 s at least), doubled each time, up to `interval_minutes`",
        (1.0, 5.0, 30.0, 120.0, 300.0),
        shown="`[1, 5, 30, 120, 300]`",
    ),
    Key(
        "lease_seconds",
        "after this, a batch whose sender died is resent with its retry key",
        120.0,
        least=1,
        most=6 * 3600.0,
    ),
    Key(
        "prune_after_days",
        "sent, ignored and primed rows not seen on a page for this long are deleted by the "
        "daily prune (`hunter prune --days N` by hand), and so are the history of reads and the "
        "likeness of listings older than that; a listing pruned and shown again counts as new",
        45,
        least=1,
        most=3650,
        whole=True,
    ),
    Key(
        "fetch_timeout_seconds",
        "the most one source may take; the others never wait for it",
        20.0,
        least=0.1,
        most=600.0,
    ),
    Key(
        "broken_after",
        "reads in a row that fail (or find no listing where there used to be some) before the "
        "owner is told, once, that a source stopped working (one that never worked: that it "
        "cannot be read); `hunter status` says BROKEN. A "
        "source that never found a listing is not broken (a search may have no result yet): "
        "each poll warns, and `hunter check` shows what its selectors find",
        3,
        least=1,
        most=1000,
        whole=True,
    ),
    Key(
        "flood_threshold",
        "more new listings than this in one read, with none of what it showed before (a site "
        "that renumbered everything, a source whose url changed), are recorded as seen with "
        "one notice, not alerted; new listings above ones still shown are a burst, and "
        "delivered. A source may set its own",
        30,
        least=0,
        most=1_000_000,
        whole=True,
    ),
    Key(
        "share_sources",
        "several `hunter run` replicas on one database split the sources ([deploy.md](deploy.md))",
        False,
    ),
    Key(
        "monthly_messages",
        "a ceiling on the paced channel's messages a month, below its plan, or to pace an "
        "unlimited plan",
        None,
        shown="the plan's",
        least=1,
        most=10**9,
        whole=True,
    ),
    Key(
        "reserve_messages",
        "messages of the month kept for hunter's own notices (at most a tenth of the plan)",
        DEFAULT_RESERVE,
        least=0,
        most=1000,
        whole=True,
    ),
    Key(
        "quiet_hours",
        'e.g. `"23:00-07:00"` in `timezone`: nothing is pushed then, to the terminal neither; '
        "the first push after carries the night's listings. `run --once` says on stdout how "
        "many alerts wait and until when",
    ),
    Key(
        "merge",
        "one alert per job: a copy of a job a chat already got (the same job on another board, "
        "or posted again under a new id) is recorded as seen, not sent; `false`: every copy "
        "([one alert per job](promise.md#one-alert-per-job)). A `[[chats]]` may set its own",
        True,
    ),
    Key(
        "filter",
        shown="a table",
        meaning="the owner's keywords, pay floors, languages and places: `[filter]` below",
    ),
    Key(
        "sources",
        shown="tables",
        meaning="the pages to read, at least one: `[[sources]]` below, and sources.md",
    ),
    Key(
        "chats", shown="tables", meaning="more chats, each with its own keywords: `[[chats]]` below"
    ),
    Key(
        "subscribers",
        shown="a table",
        meaning="strangers who join from their chat: `[subscribers]` below",
    ),
)

_WORDS = (
    "keywords a listing's title or text must hold one of: Latin letters match whole words "
    '("ai" never fires on "chain"), Thai anywhere; a keyword is held as the chat holds one '
    "(no hidden character, no lone Thai letter or mark, at most 60 characters)"
)
FILTER = (
    Key("include", _WORDS + "; none: every listing", shown="none"),
    Key("exclude", "keywords that leave a listing out, whatever else it matches", shown="none"),
    Key(
        "min_budget",
        'the least pay, each floor in its currency and period: `[3000, "$25/hour", '
        '"฿30,000 per month"]` (a number is baht for a whole job); pay not stated is never '
        "hidden",
        shown="none",
    ),
    Key(
        "ignore_within",
        'words that do not count inside others: `{ "ไลน์" = ["ออนไลน์"] }` (the app inside "online")',
        shown="none",
    ),
    Key(
        "languages",
        'the languages the chat reads, two-letter codes: `["en", "th"]`; a listing in none of '
        "them is left out, one whose language is unknown kept",
        shown="all",
    ),
    Key(
        "places",
        'where the chat can work: `["กรุงเทพฯ", "ปริมณฑล"]`, `["Portugal", "remote"]`; places '
        'without "remote" mean on site',
        shown="anywhere",
    ),
)

CHATS = (
    Key(
        "name",
        "the chat's name, plain ASCII, unique, not `owner`: it names the chat in logs, "
        "status and `hunter tuning --chat`",
        shown="required",
    ),
    Key(
        "to",
        "where its alerts go: a chat id as its channel writes one ([channels.md](channels.md))",
        shown="required",
    ),
    Key("sources", "the sources whose listings it gets, by name", shown="every source"),
    *(
        Key(
            k.name,
            k.meaning + " (the chat's own; else the global `[filter]`'s)",
            shown="`[filter]`'s",
        )
        for k in FILTER
        if k.name != "ignore_within"
    ),
    Key("merge", "one alert per job, for this chat", shown="`merge`"),
)

SUBSCRIBERS = (
    Key(
        "join",
        '`"closed"`: only the owner and the `[[chats]]`; `"approve"`: a stranger\'s Start asks '
        'the owner, who sends `approve <id>` or `refuse <id>`; `"open"`: a Start joins at once',
        "closed",
    ),
    Key(
        "on",
        "the channels strangers join on, by name ([channels.md](channels.md)); each needs its "
        "chat on",
        shown="the channels where a chat costs nothing",
    ),
    Key(
        "max",
        'chats in, or waiting for the owner, at most; past it a Start is told "full"; asks '
        "fill at most half of it and expire after a week",
        500,
        least=1,
        most=10_000,
        whole=True,
    ),
    Key(
        "max_keywords",
        "keywords one subscriber keeps; past it, it is told once an hour",
        50,
        least=1,
        most=200,
        whole=True,
    ),
    Key(
        "messages_per_day",
        "listings one subscriber is sent a day (a digest of 10 counts 10); the rest wait",
        50,
        least=1,
        most=1_000,
        whole=True,
    ),
    Key(
        "commands_per_minute",
        "commands answered a minute to one chat not in hunter.toml; the rest are skipped, and "
        "the owner and the `[[chats]]` are never held behind it",
        20,
        least=1,
        most=600,
        whole=True,
    ),
)

SOURCES = (
    Key(
        "name",
        "the source's name, unique, part of every listing's id (`<name>:<id>`)",
        shown="required",
    ),
    Key(
        "preset",
        'a real board described once: `"fastwork"`, `"jobthai"`, `"jobsdb"`, `"freelancer"`, '
        '`"remoteok"`, `"weworkremotely"`, `"himalayas"`, `"remotive"`, `"jobicy"` '
        "([sources.md](sources.md)); any key below overrides the preset's",
        shown="none",
    ),
    Key("search", "with a preset whose site searches: the text it searches for", shown="none"),
    Key("kind", '`"html"`, `"json"`, `"rss"` or `"fastwork"`: how its pages are read', "html"),
    Key("url", "the page to read; `{page}` in it for `pages` > 1", shown="the preset's"),
    Key(
        "pages",
        "pages read each time (`{page}` in the url or the body)",
        1,
        least=1,
        most=100,
        whole=True,
    ),
    Key(
        "every",
        'the source\'s own least interval: `"6h"`, `"90m"`, `"1d"` (a site that asks '
        "for a few reads a day)",
        shown="none",
    ),
    Key("schedule", "the source's own `schedule`", shown="the top level's"),
    Key("fastest_minutes", "the source's own `fastest_minutes`", shown="the top level's"),
    Key("slowest_minutes", "the source's own `slowest_minutes`", shown="the top level's"),
    Key("flood_threshold", "the source's own `flood_threshold`", shown="the top level's"),
    Key("timezone", "the zone of the board's times that carry none", shown="the top level's"),
    Key(
        "headers",
        'request headers, a table: `{ "freelancer-oauth-v1" = "..." }`; sent to its '
        "own site only, never after a redirect elsewhere",
        shown="none",
    ),
    Key("include", "keywords for this source (else the global `[filter]`'s)", shown="`[filter]`'s"),
    Key("exclude", "excluded keywords for this source", shown="`[filter]`'s"),
    Key("min_budget", "pay floors for this source", shown="`[filter]`'s"),
    Key(
        "ignore_within",
        "words that do not count inside others, for this source",
        shown="`[filter]`'s",
    ),
    Key("languages", "the languages read, for this source", shown="`[filter]`'s"),
    Key("places", "where one can work, for this source", shown="`[filter]`'s"),
    Key(
        "currency",
        'the currency of its pay where a listing names none (`"USD"`, `"THB"`)',
        shown="from the text, else baht",
    ),
    Key(
        "period",
        'the period of its pay where a listing names none: `"month"`, `"hour"`, ...',
        shown="a whole job",
    ),
    Key(
        "reposts",
        '`"merge"`: a job this board posts again under a new id is not alerted '
        'again; `"alert"`: it is',
        "merge",
    ),
    Key(
        "remote",
        "every job on it is remote: its `location` says whom it takes (read as "
        '`"Remote: Europe"`, not an office in Europe); the remote boards\' presets set it',
        False,
    ),
    Key("item", "html: the CSS selector of one listing"),
    Key("items", "json: the dotted path of the list of listings (`data.0.jobs`)"),
    Key("id", "the listing's id (a selector or a path); without one, its link"),
    Key("title", "its title", shown="required (but rss, fastwork)"),
    Key("link", "its link: a selector, a path or a template (`https://x.test/job/{id}`)"),
    Key("budget", "its pay, as text or a number"),
    Key("budget_max", "json: a range's upper end"),
    Key("summary", "its text: a selector, a path or a template (`{company} · {excerpt}`)"),
    Key("posted", "when the board says it was posted (ISO 8601, RFC 2822, epoch seconds)"),
    Key("company", "who posts it: the employer or the client"),
    Key("location", "where the job is, or who may apply"),
    Key("category", "json: its category"),
    Key("engagement", "json: full-time, contract, freelance, ..."),
    Key("offers", "json: how many already offered"),
    Key("deadline", "json: when offers close"),
    Key("item_currency", "json: the path of a listing's own currency code"),
    Key("item_period", "json: the path of a listing's own pay period"),
    Key("cursor", "json: the path of the answer's next-page cursor (with `pages`)"),
    Key("body", "json: a table POSTed as JSON instead of a GET (a GraphQL query)"),
    Key("where", "json: conditions a listing must meet to be read"),
    Key("categories", "fastwork: Thai category names as the site shows them"),
    Key("company_in_title", 'rss: titles read "Company: Role"', False),
)

TABLES = {
    "top level": TOP,
    "[filter]": FILTER,
    "[[chats]]": CHATS,
    "[subscribers]": SUBSCRIBERS,
    "[[sources]]": SOURCES,
}


def named(keys: tuple[Key, ...]) -> dict[str, Key]:
    return {key.name: key for key in keys}


def markdown(table: str) -> str:
    """One table of docs/configuration.md, as this declaration says it."""
    rows = ["| key | default | meaning |", "|---|---|---|"]
    rows += [f"| `{k.name}` | {k.default_text} | {k.meaning}{k.bounds} |" for k in TABLES[table]]
    return "\n".join(rows)


if __name__ == "__main__":
    for name in TABLES:
        print(f"<!-- keys: {name} -->\n{markdown(name)}\n<!-- /keys -->\n")
