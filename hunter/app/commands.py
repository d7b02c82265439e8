"""One function per CLI command: wiring of config, store, sender and service. No parsing here
(cli.py), no logic of their own beyond what to print and which exit code to return."""

from __future__ import annotations

import argparse
import logging
import threading
from contextlib import ExitStack, suppress
from datetime import timedelta
from typing import TYPE_CHECKING, Protocol

from hunter import channels
from hunter.app.service import Hunter, prune_store, utcnow, worker_name
from hunter.app.stopping import SignalStop
from hunter.errors import ChannelError, ConfigError, RunError, meant
from hunter.logs import json_logs
from hunter.poll.poller import Poller
from hunter.redact import redact
from hunter.rules.destinations import OWNER, OWNER_NAME, OWNER_NAMES, Destinations
from hunter.settings.config import TOP_KEY, Config
from hunter.settings.environment import Environment, describe_store
from hunter.store import open_store
from hunter.store.states import RowStatus
from hunter.words import plural

if TYPE_CHECKING:
    from hunter.chat import Inbox
    from hunter.deliver.channel import Replier, Webhook
    from hunter.store import Store
    from hunter.web.routes import Hook, Page

log = logging.getLogger("hunter")


class Loader(Protocol):
    """Reads hunter.toml and the environment, and checks every channel's keys; `looking`: a
    command that only reads (status), for which a channel's key not set where it runs (a
    webhook's URL set only on the host) is said in its report, not a stop."""

    def __call__(
        self, args: argparse.Namespace, looking: bool = False
    ) -> tuple[Config, Environment]: ...


class _Reader:
    """Whether the reader of stdout has gone (`hunter check | head -1`)."""

    gone = False


def _say(text: str) -> None:
    """Print a command's output, with every secret hidden: what hunter prints may quote a
    site's refusal or a stored error, and either may quote a credential back. A reader that
    left (`| head`) ends the printing, not the command: a check that fails still exits 1
    (stdout stays as it is: a terminal channel still finds nobody reads its alerts)."""
    if _Reader.gone:
        return
    try:
        print(redact(text), flush=True)
    except BrokenPipeError:
        _Reader.gone = True


def reader_gone() -> bool:
    """Whether a command's output met a reader that had left (cli ends it quietly)."""
    return _Reader.gone


def reader_back() -> None:
    """A new command's output has its reader (a process may run several: the tests')."""
    _Reader.gone = False


def run(args: argparse.Namespace, load: Loader) -> int:
    if args.all and not args.once:
        raise ConfigError("--all goes with --once: `hunter run --once --all`")
    config, env = load(args)
    with open_store(env) as store, ExitStack() as resources:
        # Buttons whenever the chat can answer them, from any process: a cron `run --once`
        # beside a web service that answers the webhook pushes them too.
        routes = channels.open_channels(env, config, config.push_deadline_seconds)
        half = channels.half_set(env, config)
        for said in half:
            log.warning("%s", said)
        if routes.default.name == "terminal" and not routes.route.others and not half:
            log.warning(
                "no channel is set (LINE, Telegram or Discord: docs/channels.md): alerts go to "
                "stdout"
            )
        if config.quiet_text and config.timezone == "UTC":
            log.warning("%s", config.quiet_text)
        for warning in config.warnings:
            log.warning("%s", warning)
        if waiting := routes.waiting():
            log.warning("%s", waiting)  # once a start; the status says it too
        port = None if args.once else _port(env)
        chats = channels.open_chats(env, config, config.push_deadline_seconds)
        on = bool(chats[2])
        inbox, hooks = _chat(config, env, routes, chats, resources) if port and on else (None, [])
        hooks += _off(chats[2]) if port else []
        if env.status_token and not args.once and not port:
            log.warning(
                "HUNTER_STATUS_TOKEN is set but PORT is not: the status page is served only by "
                "a web service; set PORT (docs/status-page.md)"
            )
        if on and not args.once and not port:
            log.warning(
                "%s is set but PORT is not: the chat's webhook cannot be reached; run hunter "
                "as a web service (see docs/deploy.md)",
                " and ".join(f"{hook.channel}'s webhook secret" for hook in chats[2]),
            )
        owner = channels.owner_of(env, config)
        _refuse_ownerless(config, env, store, owner)
        hunter = Hunter(config, store, routes, line_to=owner)
        started = (
            f"hunter: {plural(len(config.sources), 'source')}, {config.pace_text}, "
            f"store {describe_store(env)}, alerts to {_reached(routes, hunter.destinations)}"
        )
        if args.all:  # by hand, to try a change: not a cron's tick, and it says so
            started += (
                "; --all: every source is read now, whatever its schedule (a site's "
                "Retry-After or a source's `every` still holds it)"
            )
        # A person reads it on stdout; a log platform gets it as a record like every line.
        if json_logs():
            log.info("%s", started)
        else:
            _say(started)
        if args.once:
            asked = SignalStop(hunter.stop).install()
            result = hunter.poll() if args.all else hunter.poll_once()
            if asked.received:  # a cancelled cron run: the next one sends what this left
                counts = store.outbox.counts()
                left = counts[RowStatus.PENDING] + counts[RowStatus.RETRY]
                log.warning(
                    "stopped by %s: %s for the next run",
                    asked.received.name,
                    plural(left, "listing waits", "listings wait"),
                )
                return asked.exit_code
            if result.not_due and not result.sources:  # said where the person looks
                # ... with what it sent: it sounded idle after sending what waited (a new
                # user's find)
                sent = result.delivery.sent
                waited = f"; {plural(sent, 'alert')} that waited sent" if sent else ""
                _say(
                    f"{plural(result.not_due, 'source')} not due yet, so none was read"
                    f"{waited}; `hunter run --once --all` reads every source now, and "
                    "`hunter status` says when each is read next"
                )
            until = result.held_until("%H:%M")
            if until and result.delivery.held_by == "quiet hours":
                # Where the alerts print, what waits is said too (at night a newcomer's try
                # printed nothing, the reason only in the log)
                _say(
                    f"{plural(result.delivery.held, 'alert')} held by quiet_hours = "
                    f'"{config.quiet_hours}" until {until}; `hunter status` lists what waits'
                )
            if result.all_sources_failed:
                raise RunError("every source failed this poll; run `hunter check` to see why")
            if result.delivery.refused:  # a cron's run goes red: the token is the user's to fix
                raise ConfigError(f"{result.delivery.refused} (nothing is lost: they wait)")
            if unknown := len(result.delivery.unknown):  # red too: only a person can tell
                raise RunError(
                    f"{plural(unknown, 'alert')} stuck, delivery unknown: the chat may have "
                    "them already; `hunter status` lists them and why, `hunter retry --all` "
                    "sends them again"
                )
            if result.primed and not result.delivery.pushes:
                # The first hour's run primes and pushes nothing: a revoked token would pass
                # unseen until the first new listing, so each is asked (exit 2 on its 401).
                # Not on a quiet tick: it loads no channel's SDK (a tenth of a cron's run).
                _check_tokens(env, config)
            return 0
        _check_tokens(env, config)
        from hunter.app import collector
        from hunter.app.schedule import run_forever

        collector.serving()
        pages = _status_pages(config, env, routes, resources, hunter) if port else []
        run_forever(hunter, port, inbox, hooks, pages)
    return 0


OWNER_LATELY = timedelta(days=30)  # an owner sent alerts this lately is a deployment's


def _refuse_ownerless(config: Config, env: Environment, store: Store, owner: str | None) -> None:
    """Stop a run without the owner's chat (LINE_TO unset here) against a deployment's
    database whose owner was sent alerts lately. With [[chats]], no chat would judge the
    owner's listings, recorded as seen: the deployment would never send them (a new user's
    find: a laptop's `run --once --all` lost one for good)."""
    if owner is not None or not config.chats or not (env.database_url or env.supabase_url):
        return
    if not store.outbox.sent_by_chat(utcnow() - OWNER_LATELY).get(OWNER):
        return
    raise ConfigError(
        "the owner's chat is not set here (LINE_TO, or owner in hunter.toml), and this "
        "database sent it alerts lately: this run would record the owner's new listings as "
        "seen, and they would never be sent. Set LINE_TO (or owner) as on your host"
    )


def _chat(
    config: Config,
    env: Environment,
    routes: channels.Channels,
    chats: tuple[Replier | None, dict[str, Replier], list[Webhook]],
    resources: ExitStack,
) -> tuple[Inbox, list[Hook]]:
    """The chat behind the webhooks of the channels whose chat is on: its own store
    connection (it answers while a poll runs) and each channel's replier."""
    from hunter.chat import Chat, Inbox
    from hunter.chat.hooks import hook

    default, others, webhooks = chats
    store = resources.enter_context(open_store(env))
    worker = worker_name()
    owner = channels.owner_of(env, config)
    if default is None:  # only prefixed chats answer: the default one is never asked
        default = next(iter(others.values()))
    base = env.values.get("RENDER_EXTERNAL_URL") or _railway_url(env)
    link = (
        f"{base.rstrip('/')}/status?token={env.status_token}" if base and env.status_token else None
    )
    joins = channels.may_join(env, config)
    chat = Chat(config, store, default, owner, utcnow, worker, others, routes, link, joins)
    inbox = Inbox(chat, worker, utcnow)
    return inbox, [hook(webhook, inbox) for webhook in webhooks]


def _off(on: list[Webhook]) -> list[Hook]:
    """A webhook called while its chat is off is answered 404 with what to set, and the log
    (which says each refusal, at most so often) names it too."""
    from hunter.web.routes import Hook

    def refuse(path: str, why: str) -> Hook:
        return Hook(path, lambda headers: (404, why), lambda body, headers: 404, on=False)

    return [refuse(path, why) for path, why in channels.chats_off(on)]


def _status_pages(
    config: Config,
    env: Environment,
    routes: channels.Channels,
    resources: ExitStack,
    hunter: Hunter,
) -> list[Page]:
    """The status page, with HUNTER_STATUS_TOKEN: its own store connection (it answers while
    a poll runs), the report kept a moment (`Snapshot`: many viewers cost one reading), and
    the paced channel's quota as last known (`Latest`: a view never waits on its API)."""
    if not env.status_token:
        return []
    from hunter.status import report
    from hunter.web.snapshot import Latest, Snapshot
    from hunter.web.status_page import pages

    store = resources.enter_context(open_store(env))
    destinations = Destinations(channels.owner_of(env, config), config.chats)
    quota = Latest(routes.quota, moved=lambda: hunter.paced_pushes)
    with suppress(ChannelError):
        quota.get()  # asked now, on a thread of its own: known before the first view

    class Known:
        """The channels as the page asks them: the quota as last known."""

        quota_name = routes.quota_name
        recipient = staticmethod(routes.recipient)
        waiting = staticmethod(routes.waiting)

        @staticmethod
        def quota() -> tuple[int | None, int] | None:
            return quota.get()

    snapshot = Snapshot(
        lambda: report.gather(config, store, destinations, Known(), utcnow()), max_age=2.0
    )
    return pages(env.status_token, snapshot.get, config.timezone, utcnow)


def _port(env: Environment) -> int | None:
    raw = env.values.get("PORT")
    if not raw:
        return None
    if not raw.isdigit() or not 0 < int(raw) < 65536:
        raise ConfigError(f"PORT must be a TCP port number, got {raw!r}")
    return int(raw)


def _check_tokens(env: Environment, config: Config) -> None:
    """Each channel's token in use proved at once (a worker's start, a first run)."""
    _check_line(env, config)
    _check_telegram(env, config)


def _check_line(env: Environment, config: Config) -> None:
    """A long-running worker proves its LINE token once at start: a wrong token is a config
    error (exit 2); LINE being unreachable is not (deliveries retry by themselves)."""
    settings = channels.line_settings(env, config)
    if not settings.configured:
        return
    try:
        info = channels.line.sender(settings).bot_info()
    except ChannelError as exc:  # a wrong token raises ConfigError and stops the start
        log.warning("could not check the LINE token at start (%s); going on", exc)
        return
    log.info("LINE: bot %s (%s)", info["name"], info["basic_id"])


def _check_telegram(env: Environment, config: Config) -> None:
    """The same for Telegram's token, when a chat is on Telegram or strangers join there (a
    new user's worker with a revoked token started, and looked healthy, until a push met it):
    getMe's 401 stops the start (exit 2); Telegram unreachable does not."""
    settings = channels.telegram_settings(env)
    if not settings.token or not channels.in_use(env, config, channels.telegram.KIND):
        return
    sender = channels.telegram.sender(settings)
    try:
        info = sender.bot_info()
    except ChannelError as exc:  # a wrong token raises ConfigError and stops the start
        log.warning("could not check the Telegram token at start (%s); going on", exc)
        return
    finally:
        sender.close()
    log.info("Telegram: bot %s (@%s)", info["name"], info["username"])


def prime(args: argparse.Namespace, load: Loader) -> int:
    config, env = load(args)
    sources = [config.source(args.source)] if args.source else list(config.sources)
    with open_store(env) as store:
        # Ctrl-C (a person changing their mind) ends the reads in flight, and primes nothing
        # they had not finished (a new user's find: it went on, every source primed)
        asked = SignalStop(threading.Event(), finishing="the reads in flight").install()
        results = Poller(config, store, utcnow, worker_name(), asked.stop).prime(sources)
        read_before = {n for n, state in store.sources.states().items() if state.primed}
    if asked.received:
        primed = [r.name for r in results if not r.error]
        log.warning(
            "stopped by %s: %s%s not primed",
            asked.received.name,
            f"primed {', '.join(primed)}; " if primed else "",
            plural(len(results) - len(primed), "source"),
        )
        return asked.exit_code
    for result in results:
        if result.error:
            _say(f"{result.name}: failed: {result.error}")
        else:
            seen = plural(len(result.read.listings), "listing")
            said = f"{result.name}: {seen} recorded as seen, none sent"
            if unsent := result.recorded.get("unsent", 0):  # a person decided: never silently
                said += (
                    f"; of them, {plural(unsent, 'alert')} that waited to be sent (quiet "
                    "hours, the pace, a failed push) will not be sent"
                )
            _say(said)
    if all(r.error for r in results):
        raise RunError("no source could be primed; run `hunter check` to see why")
    if failed := [r.name for r in results if r.error]:
        # Not primed (a new user's find: exit 0). One read before would alert what it shows
        # now; one never read is primed by its first read all the same
        again = " and ".join(f"`hunter prime --source {name}`" for name in failed[:3])
        alerted = [name for name in failed if name in read_before]
        said = (
            f": what {', '.join(alerted)} show{'s' if len(alerted) == 1 else ''} now would be "
            "alerted"
            if alerted
            else " (a source never read is primed by its first read)"
        )
        raise RunError(
            f"{plural(len(failed), 'source')} not primed ({', '.join(failed)}){said}; run "
            f"{again} again when {'it answers' if len(failed) == 1 else 'they answer'}"
        )
    return 0


def prune(args: argparse.Namespace, load: Loader) -> int:
    config, env = load(args)
    least = TOP_KEY["prune_after_days"].least or 1
    most = TOP_KEY["prune_after_days"].most or 3650
    if args.days is not None and not args.days >= least:
        # A listing still on its page, seen less than a day ago, forgotten, is alerted again
        raise ConfigError(
            f"--days must be {least:g} or more, as prune_after_days: a listing seen "
            "more recently may still be on its page, and once forgotten it is alerted again"
        )
    if args.days is not None and not args.days <= most:  # 99999 days: a date no clock has
        raise ConfigError(f"--days must be {most:g} or fewer, as prune_after_days")
    days = config.prune_after_days if args.days is None else args.days
    with open_store(env, create=False) as store:
        deleted = prune_store(store, config, utcnow(), days)
    span = f"{days:g} day{'' if days == 1 else 's'}"
    _say(f"pruned {plural(deleted, 'row')} not seen for {span} (sent, ignored or primed)")
    return 0


def status(args: argparse.Namespace, load: Loader) -> int:
    from hunter.status import report
    from hunter.status import text as status_text  # not loaded by a cron's run

    config, env = load(args, looking=True)
    now = utcnow()
    with open_store(env, create=False) as store:
        if args.applied:
            marked = store.chat.marks("applied")
            said = report.applied_text(marked, now, config.timezone)
            _say(report.applied_json(marked) if args.json else said)
            return 0
        destinations = Destinations(channels.owner_of(env, config), config.chats)
        # A channel's token is not needed to read the database: one not set is said in the
        # status, as the run's log says it (a new user's find: status stopped for want of it).
        routes = channels.open_channels(env, config, looking=True)
        result = report.gather(config, store, destinations, routes, now)
    if args.json:
        _say(status_text.as_json(result))
    elif args.markdown:
        from hunter.status.summary import as_markdown

        _say(as_markdown(result, now, config.timezone))
    else:
        _say(status_text.as_text(result, now, config.timezone, config.lease_seconds))
    return 0


def retry(args: argparse.Namespace, load: Loader) -> int:
    if bool(args.job_ids) == bool(args.all):
        raise ConfigError("name the stuck rows (hunter retry JOB_ID ...) or pass --all")
    _config, env = load(args)
    with open_store(env, create=False) as store:
        moved = store.outbox.retry_stuck(None if args.all else args.job_ids)
    missing = sorted(set(args.job_ids) - set(moved))
    if moved or not missing:
        _say(f"{plural(len(moved), 'stuck row')} back to pending; the next poll sends them")
    if missing:
        raise RunError(f"not stuck (or unknown): {', '.join(missing)}; see `hunter status`")
    return 0


def unmute(args: argparse.Namespace, load: Loader) -> int:
    _config, env = load(args)
    word = args.word.strip().casefold()
    with open_store(env, create=False) as store:
        lifted = store.chat.unmute(word)
        left = sorted(store.chat.mutes(utcnow()))
    if not lifted:
        muted = ", ".join(left) or "none"
        raise RunError(f"{word!r} is not muted; muted now: {muted}")
    _say(f"{word!r} is no longer muted: listings matching it are sent again")
    return 0


def tuning(args: argparse.Namespace, load: Loader) -> int:
    """`hunter tuning`: what each chat changed of hunter.toml from its chat; --reset drops it."""
    from hunter.status import report

    config, env = load(args)
    destinations = Destinations(channels.owner_of(env, config), config.chats)
    chat: str | None = None
    if args.chat is not None:
        chat = OWNER if args.chat in OWNER_NAMES else args.chat
        if chat != OWNER and destinations.chat_named(chat) is None:
            # the owner's only where one is set (a new user's Discord-only setup had none)
            owned = [OWNER_NAME] if destinations.owner is not None else []
            known = [*owned, *(c.name for c in config.chats)]
            raise ConfigError(
                f"no chat named {args.chat!r}{meant(args.chat, known)}; the chats are "
                f"{', '.join(known)}"
            )
    with open_store(env, create=False) as store:
        rules = store.chat.rules(utcnow())
        shown = {name or OWNER_NAME: r for name, r in rules.items() if r.changed}
        if chat is not None:
            shown = {k: v for k, v in shown.items() if k == (chat or OWNER_NAME)}
        if args.reset:  # what it drops, said whole: places and languages too (a new user's find)
            store.chat.reset_tuning(chat)
            dropped = report.tuning_text(shown, hint=False)
            _say(f"dropped, and hunter.toml's rules apply again:\n{dropped}" if shown else dropped)
            return 0
    _say(report.tuning_text(shown))
    return 0


def line(args: argparse.Namespace, load: Loader) -> int:
    """`hunter line setup`: the rich menu, and the webhook URL to give LINE."""
    from hunter.channels.line import richmenu

    config, env = load(args)
    settings = channels.line_settings(env, config)
    if not settings.token:
        raise ConfigError("LINE_CHANNEL_ACCESS_TOKEN is not set; `hunter line setup` needs it")
    menu_id, created = richmenu.setup(settings.token, settings.api_url)
    _say(
        f"rich menu {'created' if created else 'already there'} ({menu_id}), "
        "set as the default: งานใหม่ · สถานะ"
    )
    base = args.url or env.values.get("RENDER_EXTERNAL_URL") or _railway_url(env)
    if base:
        _say(f"webhook URL: {base.rstrip('/')}/line/webhook")
    else:
        _say("webhook URL: https://<your service's public address>/line/webhook")
    _say(
        "paste it into the LINE Developers console (Messaging API tab -> Webhook URL), turn on "
        "'Use webhook', and set LINE_CHANNEL_SECRET (Basic settings tab) where hunter runs"
    )
    if not settings.secret:
        log.warning("LINE_CHANNEL_SECRET is not set here: hunter will not answer LINE's calls")
    return 0


def telegram(args: argparse.Namespace, load: Loader) -> int:
    """`hunter telegram setup`: Telegram calls hunter's webhook with the secret, from now on."""
    from hunter.channels.telegram.updates import PATH as TELEGRAM_PATH

    _config, env = load(args)
    settings = channels.telegram_settings(env)
    if not settings.token or not settings.secret:
        missing = "TELEGRAM_BOT_TOKEN" if not settings.token else "TELEGRAM_WEBHOOK_SECRET"
        raise ConfigError(
            f"{missing} is not set; `hunter telegram setup` gives Telegram the webhook and its "
            "secret: set both, here and where hunter runs"
        )
    base = args.url or env.values.get("RENDER_EXTERNAL_URL") or _railway_url(env)
    if not base:
        raise ConfigError(
            "hunter's public address is not known here: pass --url https://<your service>"
        )
    url = base.rstrip("/")
    url = url if url.endswith(TELEGRAM_PATH) else f"{url}{TELEGRAM_PATH}"
    channel = channels.telegram.sender(settings)
    try:
        channel.set_webhook(url, settings.secret)
        channel.set_menu()
    finally:
        channel.close()
    _say(f"webhook set: Telegram sends this bot's chats to {url}, with the secret")
    _say(
        "the bot's commands, description and short description are set, in English and Thai: "
        'what a stranger sees before pressing Start, and the list "/" shows'
    )
    _say(
        "in a group, send /new, /status or /add WORD (the bot sees only commands unless "
        "BotFather's /setprivacy is off); each chat must be a [[chats]] in hunter.toml"
    )
    return 0


def _railway_url(env: Environment) -> str | None:
    domain = env.values.get("RAILWAY_PUBLIC_DOMAIN")
    return f"https://{domain}" if domain else None


def schema(args: argparse.Namespace, load: Loader) -> int:
    from hunter.store import schema_sql

    _say(schema_sql())
    return 0


def check(args: argparse.Namespace, load: Loader) -> int:
    from hunter.app.checkup import run_checks

    config, env = load(args)
    return run_checks(config, env, _say)


def demo(args: argparse.Namespace, load: Loader) -> int:
    from hunter.app.demo import run_demo

    if getattr(args, "config", None):
        raise ConfigError(
            "hunter demo runs its own job board and filters and reads no hunter.toml; to try "
            f"{args.config}, run `hunter check --config {args.config}`"
        )
    return run_demo(_say, reader_gone)


def _reached(routes: channels.Channels, destinations: Destinations) -> str:
    """The channels alerts go through, in the router's order: those a chat is on (the
    terminal only where it stands in for a chat, not beside an owner on another channel)."""
    used = {routes.of(destinations.to_of(name)).name for name in destinations.names()}
    return " and ".join(c.name for c in routes.all if c.name in used) or routes.name
