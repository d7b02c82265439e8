"""`hunter check`: everything a user needs to see before trusting a deploy, in one run.

Config and environment (already validated by loading them), the database, LINE's bot info,
and every source fetched and parsed, with the first three listings and how the filters judge
them. This is how a user debugs selectors. Exit 0 when all is well, 1 when anything failed,
2 when the config names something a site does not have (a Fastwork category, say).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from hunter import channels
from hunter.chat.tuning import preview, recent
from hunter.errors import ChatGone, ConfigError, HunterError, NotMadeYet
from hunter.network import cause
from hunter.poll.merging import Copies
from hunter.poll.poller import judges
from hunter.redact import clip
from hunter.rules import shape
from hunter.rules.chat_rules import ChatRules
from hunter.rules.destinations import OWNER, Destinations
from hunter.rules.filters import judge
from hunter.rules.listing import Listing
from hunter.rules.pay import describe_terms
from hunter.settings.config import Config
from hunter.settings.environment import Environment, describe_store
from hunter.sources.reader import SourceRead, read_sources
from hunter.store import open_store
from hunter.words import plural
from hunter.words.details import details

if TYPE_CHECKING:
    from hunter.channels.line.settings import LineSettings

log = logging.getLogger("hunter")
CHATS_ASKED = 20  # the Telegram chats `check` asks about, at most: a getChat each


def run_checks(config: Config, env: Environment, say: Callable[[str], None]) -> int:
    failures = 0
    where = config.path or "config"
    say(
        f"config: {where}: {plural(len(config.sources), 'source')}, {config.pace_text}, "
        f"timezone {config.timezone}"
    )
    if config.quiet_text:
        say(f"  {config.quiet_text}")
    for warning in config.warnings:
        say(f"  warning: {warning}")

    store, refused = None, False
    try:  # looked at, never made nor upgraded: `check` changes nothing (commands.md)
        store = open_store(env, create=False)
        say(f"database: {describe_store(env)}: reachable, schema up to date")
    except NotMadeYet as exc:  # the first hour: `run` makes it
        say(f"database: {describe_store(env)}: {exc}")
    except HunterError as exc:  # said, and every other check still runs
        failures += 1
        refused = isinstance(exc, ConfigError)
        say(f"database: FAILED: {exc}")

    line = channels.line_settings(env, config)
    failed = _guarded("LINE", lambda: _check_line(config, line, say), say)
    if line.token and not failed:  # a token LINE refused is one failed check, not two
        failed += _guarded("LINE rich menu", lambda: _check_chat(line, say), say)
    failed += _guarded("Telegram", lambda: _check_telegram(config, env, say), say)
    failed += _guarded("Discord", lambda: _check_discord(config, env, say), say)
    reach = _guarded("alerts", lambda: _check_reach(config, env, say), say)
    refused = refused or reach == 2  # a chat's channel not set: the environment's mistake
    failures += failed + (min(reach, 1) if not failed else 0)  # one cause, counted once

    now = datetime.now(UTC)
    reads = read_sources(config.sources, {}, config.fetch_timeout_seconds, now, conditional=False)
    destinations = Destinations(_owner(config, env), config.chats)
    last: dict[str, str | None] = {}
    rules: Mapping[str, ChatRules] = {}
    copies: dict[str, Copies] = {}
    tried: dict[str, str] = {}
    if store is not None:
        with store:
            last = {row.name: row.last_error for row in store.sources.all()}
            # Judged as the next poll judges them: for the owner's chat and each [[chats]],
            # with what each changed from its chat (keywords, floors), and its mutes.
            rules = store.chat.rules(now)
            # What the next poll would merge with a job seen before, looked up only.
            copies = {
                r.name: Copies.of(
                    r.listings, r.source, store, config, destinations, now, keep=False
                )
                for r in reads
                if not r.error
            }
            # What each chat's rules in force would have brought lately.
            lately = recent(store, now)  # read once, judged for each chat
            tried = {
                name: preview(lately, destinations.rules_for(name, config.filter, rules)[0])
                for name in _reading(destinations)
            }
    for read in reads:
        failed = _report_source(config, read, rules, say)
        if read.name in copies:
            _report_copies(copies[read.name], say)
        if last.get(read.name) and not failed:  # what the running hunter met, not seen now
            failed = 1  # one source, one failed check
            say(f"  FAILED at the last poll: {last[read.name]}")
        failures += failed
    for name, said in tried.items():
        if said:
            say(f"chat {destinations.label(name)}: {said}")
    say("all checks passed" if not failures else f"{plural(failures, 'check')} failed")
    if refused or any(read.misconfigured for read in reads):
        return 2  # the config or the environment names what cannot be: fix it
    return 0 if not failures else 1


def _guarded(name: str, check: Callable[[], int], say: Callable[[str], None]) -> int:
    """One channel's check, whatever its vendor's client raises: one FAILED line naming the
    channel and the cause (a host that cannot be reached, in words), and every other check
    still runs."""
    try:
        return check()
    except HunterError as exc:
        say(f"{name}: FAILED: {exc}")
    except Exception as exc:  # an SDK's own error (urllib3's, pydantic's): not a bug of yours
        log.debug("%s check", name, exc_info=True)
        said = cause(exc)
        if said is None:
            first = clip((str(exc).strip().splitlines() or [""])[0], 160)
            detail = f"{type(exc).__name__}: {first}" if first else type(exc).__name__
            said = f"its answer was not what was expected ({detail})"
        say(f"{name}: FAILED: {said}")
    return 1


def _check_line(config: Config, line: LineSettings, say: Callable[[str], None]) -> int:
    """LINE's bot info with the token, when LINE_TO is set; 1 if it failed."""
    if line.configured:
        try:
            info = channels.line.sender(line).bot_info()
        except HunterError as exc:
            say(f"LINE: FAILED: {exc}")
            return 1
        say(f"LINE: bot {info['name']} ({info['basic_id']}), pushing to {line.to}")
    elif config.owner and not channels.line.KIND.owns(config.owner):
        say(f"LINE: not configured; the owner is {config.owner}")
    else:
        say("LINE: not configured (LINE_CHANNEL_ACCESS_TOKEN and LINE_TO)")
    return 0


def _check_chat(line: LineSettings, say: Callable[[str], None]) -> int:
    """Whether the chat can answer: the webhook's secret, and the rich menu under the chat."""
    from hunter.channels.line import richmenu

    if line.secret:
        say("LINE webhook: LINE_CHANNEL_SECRET is set; `hunter run` with PORT answers the chat")
    else:
        say("LINE webhook: off; set LINE_CHANNEL_SECRET for งานใหม่, สถานะ and the card buttons")
    try:
        menu = richmenu.default_menu(line.token or "", line.api_url)
    except HunterError as exc:
        say(f"LINE rich menu: FAILED: {exc}")
        return 1
    if menu == richmenu.MENU_NAME:
        say("LINE rich menu: hunter's, the default")
    else:
        say(
            "LINE rich menu: "
            + (f"the default is {menu!r}, not hunter's" if menu else "none")
            + "; `hunter line setup` makes it"
        )
    return 0


def _check_reach(config: Config, env: Environment, say: Callable[[str], None]) -> int:
    """Where each chat's alerts go, as `hunter run` opens the channels; 1 when a chat's
    channel cannot be opened, or none is set on a host (its alerts would wait)."""
    try:
        routes = channels.open_channels(env, config, answering=False)
        destinations = Destinations(channels.owner_of(env, config), config.chats)
    except HunterError as exc:
        say(f"alerts: FAILED: {exc}")
        return 2 if isinstance(exc, ConfigError) else 1  # the environment's: exit 2, as run
    half = channels.half_set(env, config)
    for said in half:
        say(f"alerts: FAILED: {said}")
    if waiting := routes.waiting():
        say(f"alerts: FAILED: {waiting}")
        return 1
    going = [  # the owner's chat without an owner is the first [[chats]]: said once
        f"{destinations.label(name)} -> {routes.of(destinations.to_of(name)).name}"
        for name in _reading(destinations)
    ]
    said = "; ".join(going)
    if not half and any(
        routes.of(destinations.to_of(name)).name == "terminal" for name in destinations.names()
    ):
        said += f" (printed here: no channel is set; set {channels.setup_help()})"
    say(f"alerts: {said}")
    return 1 if half else 0


def _owner(config: Config, env: Environment) -> str | None:
    """The owner's chat as `run` finds it; None when it cannot be told (its check says why)."""
    try:
        return channels.owner_of(env, config)
    except HunterError:
        return None


def _reading(destinations: Destinations) -> list[str]:
    """The chats whose rules make rows: the owner's only with an owner, or with no [[chats]]
    (without one its rows are hunter's notices, which go to the first [[chats]])."""
    return [n for n in destinations.names() if n != OWNER or destinations.owner_reads]


def _check_telegram(config: Config, env: Environment, say: Callable[[str], None]) -> int:
    """getMe with TELEGRAM_BOT_TOKEN, and the chats on Telegram (the owner's, [[chats]]); 1 if
    it failed, or if the token is set and no chat is on Telegram (nor strangers may join)."""
    kind = channels.telegram.KIND
    telegram = channels.chats_on(config, kind)
    settings = channels.telegram_settings(env)
    if not settings.token:
        if telegram:
            who = "the owner" if telegram[0].name == "owner" else f"[[chats]] {telegram[0].name!r}"
            say(
                f"Telegram: FAILED: {who} is on Telegram ({telegram[0].to}); set TELEGRAM_BOT_TOKEN"
            )
            return 1
        return 0
    joins = kind in channels.joining(env, config)
    channel = channels.telegram.sender(settings)
    try:
        info = channel.bot_info()
        bot = f"bot {info['name']} (@{info['username']})"
        names = ", ".join(chat.name for chat in telegram) or (
            "the subscribers who join" if joins else "no chat yet (the alerts line says more)"
        )
        say(f"Telegram: {bot}, pushing to {names}")
        failed = 0
        for chat in telegram[:CHATS_ASKED]:  # getChat: a wrong id, or a chat never opened
            try:
                channel.members(chat.to)
            except ChatGone as exc:
                failed = 1
                say(
                    f"Telegram chat {chat.name} ({chat.to}): FAILED: {exc}: check its id, and "
                    "that its person sent the bot /start (a group: that the bot was added)"
                )
        if not settings.secret:
            say("Telegram chat: off; set TELEGRAM_WEBHOOK_SECRET, then `hunter telegram setup`")
            return failed
        hook = channel.webhook_info()
        if not hook.get("url"):
            say("Telegram chat: FAILED: no webhook set; run `hunter telegram setup --url URL`")
            return 1
        waiting = hook.get("pending_update_count", 0)
        say(f"Telegram chat: webhook {hook['url']} ({waiting} updates waiting)")
        if hook.get("last_error_message"):  # e.g. "Wrong response from the webhook: 403"
            say(f"  Telegram's last error calling it: {hook['last_error_message']}")
        return failed
    except HunterError as exc:
        say(f"Telegram: FAILED: {exc}")
        return 1
    finally:
        channel.close()


def _check_discord(config: Config, env: Environment, say: Callable[[str], None]) -> int:
    """Each chat on Discord (the owner's where it is there, then the [[chats]]): its webhook
    asked whether it exists, named by the chat and the webhook's own name, never by its URL
    (which holds its token); 1 per failure."""
    discord = channels.chats_on(config, channels.discord.KIND)
    if not discord:
        return 0
    from hunter.channels.discord.send import DiscordSender

    hooks = channels.settings(env, config, channels.discord.KIND)
    sender = DiscordSender(hooks)
    failures = 0
    try:
        for chat in discord:
            try:
                say(f"Discord: {chat.name} ({chat.to}): {sender.check(chat.to)}")
            except HunterError as exc:
                failures += 1
                say(f"Discord: {chat.name} ({chat.to}): FAILED: {exc}")
    finally:
        sender.close()
    return failures


def _report_source(
    config: Config, read: SourceRead, rules: Mapping[str, ChatRules], say: Callable[[str], None]
) -> int:
    """What one source yields, as a user debugging selectors needs it; 1 if it failed."""
    head = f"source {read.name}: "
    if read.status is not None:
        head += f"HTTP {read.status}, {read.size:,} bytes"
        if read.encoding:
            head += f" ({read.encoding})"
        head += f", {read.pages} page{'s' if read.pages != 1 else ''}, {read.seconds:.1f} s, "
    if read.error:
        say(f"{head}FAILED: {read.error}")
        return 1
    count = len(read.listings)
    say(f"{head}{count} listing{'' if count == 1 else 's'}")
    for warning in read.warnings:
        say(f"  warning: {warning}")
    for note in read.notes:
        say(f"  note: {note}")
    if read.skipped:
        say(f"  warning: {read.skipped} items skipped for lack of a title or an id")
    if not read.listings and read.skipped:  # the items were found: their fields were not
        say("  no listings: items were found, none with a title and an id: check the title and "
            "id (or link) selectors against one item")  # fmt: skip
        return 1
    if not read.listings and read.unwanted:  # found, and its own `where` left each out
        from hunter.sources.conditions import shown

        said = ", ".join(f"'{shown(c)}'" for c in read.source.where)
        say(
            f"  no listings: {plural(read.unwanted, 'item')} found, none passed where = "
            f"[{said}]: check its conditions against one item"
        )
        return 1
    if not read.listings:
        say("  no listings: check the item/items selector against the page")
        return 1
    say(f"  {_fields(read)}")
    (_owner, owner_filter, owner_mutes), *chats = judges(
        rules, Destinations(None, config.chats), config.source(read.name)
    )
    # Where each is and its language, as the place and language layers read them,
    # when a chat has either (reading them loads their data: about a second, once).
    layered = any(r.places or r.languages for r in (owner_filter, *(c[1] for c in chats)))
    for listing in read.listings[:3]:
        more = details(listing)
        say(f"  - {listing.job_id}: {listing.title[:80]}, budget {_budget(listing)}")
        if more:
            say(f"    {more}")
        if layered:
            say(f"    {_read_as(listing)}")
        verdict = judge(listing, owner_filter, owner_mutes)
        say(f"    {listing.url or '(no link)'}  [{verdict.reason}]")
        for name, chat_rules, mutes in chats:
            say(f"      chat {name}: [{judge(listing, chat_rules, mutes).reason}]")
    return 0


def _read_as(listing: Listing) -> str:
    from hunter.rules.language import language_of
    from hunter.rules.place import where_of

    where = where_of(listing.location, listing.title, listing.summary).shown()
    # Unknown is no fault: too little text to tell is kept for every chat's languages (a new
    # user took it for a broken `languages`)
    language = language_of(listing.title, listing.summary) or "unknown, kept for every chat"
    return f"place: {where} · language: {language}"


def _report_copies(copies: Copies, say: Callable[[str], None]) -> None:
    """The listings of this read that are a job seen before: merged, one alert per job."""
    merged = []
    for listing, likeness in copies.listings:
        marked, first = copies.decide(listing, likeness)
        if first is not None:
            merged.append(marked)
        copies.add(marked, likeness, (), first)
    if merged:
        listing = merged[0]
        say(
            f"  {len(merged)} new listing{'s are' if len(merged) > 1 else ' is'} a job seen "
            f"before (one alert per job), e.g. {listing.job_id}: {listing.same_why}"
        )


def _fields(read: SourceRead) -> str:
    """Which fields the listings carried: "fields found: link 20/20, pay 3/20; not found:
    deadline (...)". A field the source names and no listing has is the sign of a renamed
    field or a selector that no longer matches."""
    counts, total = shape.present(read.listings), len(read.listings)
    found = [f"{name} {counts[name]}/{total}" for name in shape.FIELDS.values() if counts[name]]
    missing = [
        name
        for attribute, name in shape.FIELDS.items()
        if not counts[name] and bool(getattr(read.source, _KEY.get(attribute, attribute), None))
    ]
    text = f"fields found: {', '.join(found) or 'none beyond the title'}"
    if missing:
        text += (
            f"; not found: {', '.join(missing)} (the site may have renamed it, or its path or "
            "selector is wrong)"
        )
    return text


_KEY = {"url": "link"}  # a listing's attribute -> the source's key that reads it


def _budget(listing: Listing) -> str:
    """ "15,000 to 25,000 THB per month", "30,000 or more THB a whole job", "not stated"."""
    if listing.budget is None:
        return "not stated"
    amount = f"{listing.budget:,}"
    if listing.budget_max is not None:
        amount += f" to {listing.budget_max:,}"
    elif listing.bound:
        amount = f"{amount} or more" if listing.bound == "from" else f"up to {amount}"
    return f"{amount} {describe_terms(listing.currency, listing.period)}"
