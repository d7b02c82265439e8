"""hunter.toml -> one typed, validated `Config` (the environment is environment.py's).

Everything a user can get wrong in the file is checked here, once, with a one-line
`ConfigError` that names the problem and the fix. The file holds no secrets.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from hunter.errors import ConfigError, meant
from hunter.redact import clip, secret_shape
from hunter.rules.calendar import DEFAULT_RESERVE, Calendar, QuietHours
from hunter.rules.destinations import ChatConfig
from hunter.rules.filter_config import FilterConfig
from hunter.rules.pay import GUESSES, PERIODS, read_min_budget
from hunter.settings.chats import parse_chats, recipient
from hunter.settings.keys import FILTER, SOURCES, TABLES, TOP, Key, named
from hunter.settings.subscribers import SubscribersConfig, parse_subscribers
from hunter.settings.toml_tables import (
    check_brackets,
    languages,
    places,
    refuse_a_variable,
    refuse_top_level,
    reject_unknown,
    words,
)
from hunter.sources.headers import register_url_secrets, source_headers
from hunter.sources.kinds import MODULES, source_kind
from hunter.sources.presets import apply_preset
from hunter.sources.spec import SourceConfig

DEFAULT_CONFIG = "hunter.toml"


@dataclass(frozen=True)
class Config:
    sources: tuple[SourceConfig, ...]
    interval_minutes: float = 30.0
    schedule: str = "learned"  # each source read as often as it posts; "fixed": every interval
    fastest_minutes: float = 5.0
    slowest_minutes: float = 180.0
    prune_after_days: int = 45
    timezone: str = "UTC"
    max_alerts_per_poll: int = 48
    lease_seconds: float = 120.0
    backoff_seconds: tuple[float, ...] = (1.0, 5.0, 30.0, 120.0, 300.0)
    fetch_timeout_seconds: float = 20.0
    broken_after: int = 3  # bad polls in a row before the "stopped working" alert
    flood_threshold: int = 30  # more new listings than this at once: one notice instead
    share_sources: bool = False  # several replicas split the sources through leases
    monthly_messages: int | None = None  # a ceiling below LINE's plan (or for an unlimited one)
    reserve_messages: int = DEFAULT_RESERVE  # kept for hunter's own notices
    quiet_hours: QuietHours | None = None  # nothing is pushed in this daily window
    chats: tuple[ChatConfig, ...] = ()  # [[chats]]: more chats, each with its own filter
    # The owner's chat (the global [filter], hunter's notices, status, tuning): any channel's
    # `to`; None: LINE_TO, its old spelling, in the environment
    owner: str | None = None
    subscribers: SubscribersConfig = field(default_factory=SubscribersConfig)  # [subscribers]
    # One alert per job: a copy of a job a chat got (another board, a re-post) is
    # recorded as seen, not sent; false: every copy. A [[chats]] may say otherwise.
    merge: bool = True
    filter: FilterConfig = field(default_factory=FilterConfig)  # the global [filter]
    path: Path | None = None
    # What the file says that is likely not what its writer meant: `check` shows each as a
    # warning, and a run logs it at start.
    warnings: tuple[str, ...] = ()

    @property
    def calendar(self) -> Calendar:
        return Calendar(self.timezone, self.quiet_hours)

    @property
    def push_deadline_seconds(self) -> float:
        """The most one push may take: well inside the lease, so that no other worker takes
        a batch over while its push is still in flight; 30 s with the default lease."""
        return max(5.0, min(30.0, self.lease_seconds / 4))

    @property
    def pace_text(self) -> str:
        """How often the sources are read, for the first line of a run and of `check`."""
        if self.schedule == "fixed":
            return f"every {self.interval_minutes:g} min"
        return (
            f"each read as often as it posts ({self.fastest_minutes:g} min to "
            f"{self.slowest_minutes:g} min; every {self.interval_minutes:g} min where it posts)"
        )

    @property
    def quiet_text(self) -> str | None:
        """The quiet hours with the zone they are read in; with the default zone, UTC, how to
        set another (quiet_hours = "23:00-07:00" held Bangkok's alerts until 14:00)."""
        if self.quiet_hours is None:
            return None
        said = f"quiet hours {self.quiet_hours} are read in {self.timezone}"
        if self.timezone == "UTC":
            said += ' (the default): set timezone = "Asia/Bangkok", or yours, for your own clock'
        return said

    def schedule_of(self, source: SourceConfig) -> tuple[bool, float, float]:
        """The source's schedule: fixed or not, its fastest and slowest read in seconds."""
        fixed = (source.schedule or self.schedule) == "fixed"
        fastest = self.fastest_minutes if source.fastest_minutes is None else source.fastest_minutes
        slowest = self.slowest_minutes if source.slowest_minutes is None else source.slowest_minutes
        return fixed, fastest * 60.0, max(slowest, fastest) * 60.0

    def flood_limit(self, source: SourceConfig) -> int:
        return self.flood_threshold if source.flood_threshold is None else source.flood_threshold

    def source(self, name: str) -> SourceConfig:
        for source in self.sources:
            if source.name == name:
                return source
        names = ", ".join(s.name for s in self.sources)
        raise ConfigError(f"no source named {name!r} in the config; the sources are: {names}")


TOP_KEY = named(TOP)
SOURCE_KEY = named(SOURCES)
_TOP_KEYS = set(TOP_KEY)
_FILTER_KEYS = set(named(FILTER))


def config_path(explicit: str | None, environ: Mapping[str, str]) -> Path:
    """--config, else HUNTER_CONFIG, else ./hunter.toml."""
    return Path(explicit or environ.get("HUNTER_CONFIG") or DEFAULT_CONFIG)


def load_config(path: Path) -> Config:
    """Read and validate a hunter.toml."""
    text = ""
    try:
        # utf-8-sig: a byte-order mark (Notepad's) is no part of the file; TOML reads CRLF.
        text = path.read_text(encoding="utf-8-sig")
        raw = tomllib.loads(text)
    except FileNotFoundError:
        if str(path) != DEFAULT_CONFIG:  # a path the person named: it is the path
            raise ConfigError(
                f"{path}: no such config file; check the path (from {Path.cwd()})"
            ) from None
        raise ConfigError(
            f"{path}: no such config file; copy hunter.example.toml to hunter.toml, "
            "or pass --config PATH"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"{path}: cannot read it ({exc}); check the path and permissions"
        ) from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}; {_toml_hint(text, str(exc))}") from exc
    return parse_config(raw, where=str(path), path=path)


# What a phone's keyboard, a word processor or a web page puts in place of what TOML reads.
_LOOKALIKES = {
    "\u201c": "curly quotes (“ ”)",
    "\u201d": "curly quotes (“ ”)",
    "\u2018": "curly quotes (\u2018 \u2019)",
    "\u2019": "curly quotes (\u2018 \u2019)",
    "\u00a0": "a non-breaking space",
    "\u3000": "a full-width space",
    "\uff1d": "a full-width equals sign (\uff1d)",
}


def _toml_hint(text: str, error: str) -> str:
    """How to fix the line TOML refused: its curly quotes (or other look-alikes) named, when it
    has them outside a string; else "fix that line"."""
    found = re.search(r"line (\d+)", error)
    lines = text.splitlines()
    if "(at end of document)" in error and (start := _unclosed(lines)) is not None:
        return (
            f"the file ends inside {_opened(lines[start - 1])} that starts on line {start}: a "
            "list's ], a string's quote or an inline table's } is missing there"
        )
    if found and "Illegal character '\\n'" in error:  # a string's line ends, and it goes on
        return f'a string on line {found[1]} is not closed: add its closing quote (")'
    if found and 0 < int(found[1]) <= len(lines):
        line = lines[int(found[1]) - 1]
        odd = next((name for char, name in _LOOKALIKES.items() if char in line), None)
        if odd:
            return (
                f"line {found[1]} has {odd}, which a phone or a word processor types: write "
                'plain straight quotes (") and spaces, in a plain-text editor'
            )
        if error.startswith("Invalid value") and (bare := _BARE_WORD.search(line)):
            # A word written without its quotes: `places = [เชียงใหม่]`, `timezone = Asia/...`;
            # said back only when it can be no secret (a token pasted in the file unquoted)
            key = line.split("=", 1)[0]
            if _SECRET_KEY.search(key) or len(bare[1]) > 40 or secret_shape(bare[1]):
                return f'a text needs its quotes on line {found[1]}: put it between "quotes"'
            return f'a text needs its quotes on line {found[1]}: write "{bare[1]}"'
    return "fix that line"


_SECRET_KEY = re.compile(r"token|secret|key|password|webhook|url", re.IGNORECASE)
# A value that starts with a letter (not true, false, a number or a date): a word unquoted
_BARE_WORD = re.compile(r"[=\[,]\s*(?!true\b|false\b|inf\b|nan\b)([^\W\d_][^,\]\s#]*)")


_UNCLOSED_LINES_MOST = 2_000  # a config is tens of lines; each one looked at is a parse


def _opened(line: str) -> str:
    """What a line opens, by its key only (its value may be a token pasted in): "the value of
    include"; "the value" when it has no key."""
    key = line.split("=", 1)[0].strip() if "=" in line else ""
    return f"the value of {clip(key, 40)}" if key and len(key) <= 40 else "the value"


def _unclosed(lines: list[str]) -> int | None:
    """The line where a value the file never closes starts (TOML says only "at end of
    document"): the last line before which the file reads as TOML; None when none is."""
    if len(lines) > _UNCLOSED_LINES_MOST:
        return None
    for end in range(len(lines) - 1, -1, -1):
        if not lines[end].strip() or lines[end].lstrip().startswith("#"):
            continue
        try:
            tomllib.loads("\n".join(lines[:end]))
        except tomllib.TOMLDecodeError:
            continue
        return end + 1
    return None


def _trimmed(value: Any) -> Any:
    """Every text of the document without the spaces and line ends pasted around it: each key
    read its own way, and `timezone = "Asia/Bangkok "` was "unknown timezone" while an owner's
    pasted space was taken (a new user's find). The class, once."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, Mapping):
        return {k: _trimmed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_trimmed(v) for v in value]
    return value


def parse_config(raw: Mapping[str, Any], where: str = "config", path: Path | None = None) -> Config:
    """Validate an already parsed TOML document (used by `load_config` and the demo)."""
    raw = _trimmed(raw)
    check_brackets(raw, [t for t in TABLES if t.startswith("[")], where)
    reject_unknown(raw, _TOP_KEYS, where)
    global_filter = _filter(raw.get("filter", {}), f"{where} [filter]", FilterConfig())
    sources_raw = raw.get("sources")
    if not isinstance(sources_raw, list) or not sources_raw:
        raise ConfigError(f"{where}: no [[sources]]; add at least one (see hunter.example.toml)")
    sources = tuple(
        _source(item, f"{where} [[sources]] #{n}", global_filter)
        for n, item in enumerate(sources_raw, start=1)
    )
    seen: set[str] = set()
    for source in sources:
        if source.name in seen:
            raise ConfigError(
                f"{where}: two sources are named {source.name!r}; names must be unique: give "
                'each its own name = "..." (a source of a preset is named after the preset)'
            )
        seen.add(source.name)

    timezone = _zone(raw, where, "UTC")
    # A board's times without a zone are read in its own timezone, else the config's.
    sources = tuple(replace(s, timezone=s.timezone or timezone) for s in sources)
    config = Config(
        sources=sources,
        interval_minutes=_number(raw, "interval_minutes", where),
        **_schedule(raw, where, fastest=5.0, slowest=180.0, schedule="learned"),
        prune_after_days=int(_number(raw, "prune_after_days", where)),
        timezone=timezone,
        max_alerts_per_poll=int(_number(raw, "max_alerts_per_poll", where)),
        backoff_seconds=_backoff(raw, where),
        lease_seconds=_number(raw, "lease_seconds", where),
        fetch_timeout_seconds=_number(raw, "fetch_timeout_seconds", where),
        broken_after=int(_number(raw, "broken_after", where)),
        flood_threshold=int(_number(raw, "flood_threshold", where)),
        share_sources=_typed(raw, "share_sources", bool, where, TOP_KEY["share_sources"].default),
        monthly_messages=None
        if raw.get("monthly_messages") is None
        else int(_number(raw, "monthly_messages", where)),
        reserve_messages=int(_number(raw, "reserve_messages", where)),
        quiet_hours=_quiet_hours(raw, where),
        chats=parse_chats(raw.get("chats"), where, [s.name for s in sources]),
        owner=_owner(raw, where),
        subscribers=parse_subscribers(raw.get("subscribers"), where),
        merge=_typed(raw, "merge", bool, where, TOP_KEY["merge"].default),
        filter=global_filter,
        path=path,
        warnings=_appended_filter(sources_raw, sources),
    )
    return replace(config, warnings=config.warnings + _ambiguous_places(config))


def _ambiguous_places(config: Config) -> tuple[str, ...]:
    """A note for each place of the file whose name is as much another country's ("Valencia",
    "Georgia"): which one it is read as, and how to name the other (place.ambiguous)."""
    named = [config.filter.places, *(s.filter.places for s in config.sources)]
    named += [tuple(chat.rules.get("places", ())) for chat in config.chats]
    if not any(named):
        return ()
    from hunter.rules.place import ambiguous  # the gazetteer: only for a file that names places

    said = dict.fromkeys(p for places in named for p in places)
    return tuple(note for p in said if (note := ambiguous(p)))


def _appended_filter(raw: list[Any], sources: tuple[SourceConfig, ...]) -> tuple[str, ...]:
    """Filter keys that only the last of several [[sources]] sets: most likely added at the
    end of the file for every source, where TOML gives them to the table above them (a new
    user's find: `places` appended there held back the other sources' listings for nobody)."""
    own = [sorted(k for k in _FILTER_KEYS if isinstance(r, dict) and k in r) for r in raw]
    # Keys no other source sets: the example's first source sets its own `include`, and
    # `places` appended below the last went to it alone, unsaid
    alone = [k for k in own[-1] if not any(k in keys for keys in own[:-1])] if own else []
    if len(sources) < 2 or not alone:
        return ()
    return (
        f"[[sources]] {sources[-1].name!r}, the last, sets {', '.join(alone)} for its own "
        "listings alone (TOML gives every key below a [[sources]] line to that source); for "
        "every source, move them under [filter]",
    )


def _schedule(
    raw: Mapping[str, Any], where: str, fastest: float, slowest: float, schedule: str
) -> dict[str, Any]:
    """schedule, fastest_minutes and slowest_minutes, checked (top level, or a source's)."""
    chosen = raw.get("schedule", schedule)
    if chosen not in ("learned", "fixed", ""):
        raise ConfigError(
            f'{where}: schedule must be "learned" (read as often as it posts) or "fixed" '
            f"(every interval_minutes), got {chosen!r}"
        )
    quick = _number(raw, "fastest_minutes", where, fastest)
    slow = _number(raw, "slowest_minutes", where, slowest)
    if "fastest_minutes" in raw and "slowest_minutes" in raw and slow < quick:
        raise ConfigError(
            f"{where}: slowest_minutes ({slow:g}) is below fastest_minutes ({quick:g}); swap them"
        )
    return {"schedule": chosen, "fastest_minutes": quick, "slowest_minutes": slow}


_DURATION = re.compile(
    r"^\s*(\d+(?:\.\d+)?)\s*(m|min|mins|minutes?|h|hr|hrs|hours?|d|days?)\s*$", re.IGNORECASE
)
_UNIT_SECONDS = {"m": 60, "h": 3600, "d": 86400}


def _every(raw: Mapping[str, Any], where: str) -> float:
    """A source's own pace: "6h", "90m", "1d" (a site that asks for a few reads a day)."""
    value = raw.get("every")
    if value is None:
        return 0.0
    match = _DURATION.match(value) if isinstance(value, str) else None
    if not match:
        raise ConfigError(
            f'{where}: every must be a duration such as "6h", "90m" or "1d", got {value!r}'
        )
    seconds = float(match.group(1)) * _UNIT_SECONDS[match.group(2)[0].lower()]
    if not 0 < seconds <= 7 * 86400:
        raise ConfigError(f"{where}: every must be more than 0 and at most 7 days, got {value!r}")
    return seconds


def _quiet_hours(raw: Mapping[str, Any], where: str) -> QuietHours | None:
    value = _typed(raw, "quiet_hours", str, where, "")
    if not value:
        return None
    try:
        return QuietHours.parse(value)
    except ValueError as exc:
        raise ConfigError(f"{where}: quiet_hours: {exc}") from None


def _backoff(raw: Mapping[str, Any], where: str) -> tuple[float, ...]:
    """Waits after the 1st..5th failed push; the fifth also paces probes of a parked batch."""
    value = raw.get("backoff_seconds", [1, 5, 30, 120, 300])
    if (
        not isinstance(value, list)
        or len(value) != 5
        or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and 0 < v <= BACKOFF_MAXIMUM
            for v in value
        )
    ):
        raise ConfigError(
            f"{where}: backoff_seconds must be 5 numbers of seconds, each above 0 and at most "
            f"{BACKOFF_MAXIMUM:g}, e.g. [1, 5, 30, 120, 300]"
        )
    return tuple(float(v) for v in value)


def _typed(raw: Mapping[str, Any], key: str, kind: type, where: str, default: Any) -> Any:
    value = raw.get(key, default)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        wanted = "true or false" if kind is bool else f"a {kind.__name__}"
        raise ConfigError(f"{where}: {key} must be {wanted}, got {value!r}")
    return value


BACKOFF_MAXIMUM = 24 * 3600.0
NAME_MAX = 64


def _number(
    raw: Mapping[str, Any],
    name: str,
    where: str,
    default: float | None = None,
    table: Mapping[str, Key] | None = None,
) -> float:
    """A number of hunter.toml, held to its declaration (keys.py): its bounds (a bigger one
    is a typo that would overflow a date or a timer much later, in the middle of a run),
    whole or not, and its default unless `default` says another."""
    key = (table or TOP_KEY)[name]
    value = raw.get(name, key.default if default is None else default)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ConfigError(f"{where}: {name} must be a number, got {value!r}")
    if key.whole and int(value) != value:
        raise ConfigError(f"{where}: {name} must be a whole number, got {value!r}")
    least = -math.inf if key.least is None else key.least
    most = math.inf if key.most is None else key.most
    if value < least or value > most:
        raise ConfigError(f"{where}: {name} must be from {least:g} to {most:g}, got {value!r}")
    return float(value)


def _filter(raw: Any, where: str, base: FilterConfig) -> FilterConfig:
    """A filter from `raw`; keys it does not set keep the value of `base`."""
    reject_unknown(raw, _FILTER_KEYS, where, table="[filter]")
    return _filter_fields(raw, where, base)


def _filter_fields(raw: Mapping[str, Any], where: str, base: FilterConfig) -> FilterConfig:
    ignore = base.ignore_within
    if "ignore_within" in raw:
        table = raw["ignore_within"]
        if not isinstance(table, Mapping):
            raise ConfigError(
                f'{where}: ignore_within must be a table like {{ "ไลน์" = ["ออนไลน์"] }}'
            )
        ignore = {k: words(table, k, f"{where} ignore_within") for k in table}
    budget, floors = base.min_budget, base.min_pay
    if "min_budget" in raw:
        budget, floors = read_min_budget(raw["min_budget"], where)
    return FilterConfig(
        include=words(raw, "include", where) if "include" in raw else base.include,
        exclude=words(raw, "exclude", where) if "exclude" in raw else base.exclude,
        min_budget=budget,
        ignore_within=ignore,
        min_pay=floors,
        languages=languages(raw, "languages", where) if "languages" in raw else base.languages,
        places=places(raw, "places", where) if "places" in raw else base.places,
    )


def _source_schedule(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A source's own schedule settings; what it does not set is the config's."""
    checked = _schedule(raw, where, fastest=1.0, slowest=1.0, schedule="")
    return {
        "schedule": checked["schedule"],
        "fastest_minutes": checked["fastest_minutes"] if "fastest_minutes" in raw else None,
        "slowest_minutes": checked["slowest_minutes"] if "slowest_minutes" in raw else None,
    }


def _source(raw: Any, where: str, global_filter: FilterConfig) -> SourceConfig:
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: expected a table of settings, got {type(raw).__name__}")
    preset = raw.get("preset")
    try:
        raw = apply_preset(raw)
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(
            f'{where}: missing name; add name = "board" (unique, part of every job id)'
        )
    if ":" in name or name != name.strip() or name == "hunter" or not name.isprintable():
        raise ConfigError(
            f"{where}: name {name!r} may not contain ':', control characters or surrounding "
            "spaces, nor be 'hunter'"
        )
    if len(name) > NAME_MAX:
        raise ConfigError(f"{where}: name is {len(name)} characters; keep it to {NAME_MAX}")
    where = f"{where} ({name})"
    kind_name = raw.get("kind", "html")
    if not isinstance(kind_name, str) or kind_name not in MODULES:
        raise ConfigError(
            f"{where}: kind {kind_name!r} is not supported; use one of {', '.join(MODULES)}"
        )
    kind = source_kind(kind_name)
    # A preset's source takes `search` and `preset` too (presets.py took them out)
    accepted = sorted({*kind.accepted, "search"} if preset else set(kind.accepted))
    for key in raw:
        if key not in kind.accepted:
            refuse_a_variable(key, where)
            refuse_top_level(key, where, "[[sources]]", "move it above the first [[sources]]")
            said = f"preset {preset!r}" if preset else f"kind {kind.name!r}"
            raise ConfigError(
                f"{where}: unknown key {key!r}{meant(key, accepted)} for {said}; its sources "
                f"accept {', '.join(accepted)}"
            )
    url = raw.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise ConfigError(f'{where}: missing or invalid url; add url = "https://..."')
    register_url_secrets(url)
    fields = kind.check(raw, where)
    pages = int(_number(raw, "pages", where, table=SOURCE_KEY))
    paged = "{page}" in url or "{page}" in json.dumps(fields.get("body")) or fields.get("cursor")
    if pages > 1 and not paged:
        raise ConfigError(
            f"{where}: pages = {pages} needs {{page}} in the url (or the body), where the "
            "number goes, or a json source's cursor (the path to the next page's cursor)"
        )
    headers = source_headers(raw, where)
    every = _every(raw, where)
    currency = raw.get("currency", "THB")
    if not isinstance(currency, str) or not re.fullmatch(r"[A-Z]{3}", currency):
        raise ConfigError(
            f'{where}: currency must be an ISO 4217 code such as "THB" or "USD", got {currency!r}'
        )
    period = raw.get("period", "")
    if period not in ("", "job", *PERIODS, *GUESSES):
        raise ConfigError(
            f"{where}: period must be one of job, {', '.join(PERIODS)} (what its pay is per; "
            f'"year?" when the site does not say and a year is only likely), got {period!r}'
        )
    flood = raw.get("flood_threshold")
    zone = _zone(raw, where, "")
    filter_keys = {k: raw[k] for k in _FILTER_KEYS if k in raw}
    return SourceConfig(
        name=name,
        kind=kind.name,
        url=url,
        headers=headers,
        currency=currency,
        period="" if period == "job" else period,
        timezone=zone,
        filter=_filter_fields(filter_keys, where, global_filter),
        pages=pages,
        every_seconds=every,
        **_source_schedule(raw, where),
        reposts=_reposts(raw, where),
        remote=_typed(raw, "remote", bool, where, False),
        flood_threshold=None if flood is None else int(_number(raw, "flood_threshold", where)),
        **fields,
    )


def _reposts(raw: Mapping[str, Any], where: str) -> str:
    """`reposts`: "merge" (a job this board posts again under a new id is not alerted again)
    or "alert" (it is, marked as re-posted)."""
    reposts = raw.get("reposts", "merge")
    if reposts not in ("merge", "alert"):
        raise ConfigError(
            f'{where}: reposts must be "merge" (a job posted again under a new id is not '
            f'alerted again) or "alert" (it is, marked as re-posted), got {reposts!r}'
        )
    return str(reposts)


def _zone(raw: Mapping[str, Any], where: str, default: str) -> str:
    """An IANA timezone name ("Asia/Bangkok"), checked."""
    timezone = str(_typed(raw, "timezone", str, where, default))
    if not timezone:
        return timezone
    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a name too long to look up
        raise ConfigError(
            f'{where}: unknown timezone {timezone!r}; use an IANA name such as "Asia/Bangkok"'
        ) from None
    return timezone


def _owner(raw: Mapping[str, Any], where: str) -> str | None:
    """`owner = "<to>"`: the owner's chat on any channel (checked against the channels when
    they open, as a [[chats]]'s `to` is)."""
    value = raw.get("owner")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(
            f"{where}: owner must be the owner's chat, written as a [[chats]]'s `to` is, "
            f"got {value!r}"
        )
    return str(recipient(value))
