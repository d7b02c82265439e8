"""Where alerts go: one folder per channel, each an adapter of the port in
hunter/deliver/channel.py that declares itself once as `KIND` (kind.py): its `to` prefix and
ids, its environment keys and secrets, how it opens, and its chat. `KINDS` is the registry:
a new channel is a folder and one line in it. The terminal (terminal.py) stands in for the
channel whose ids have no prefix when it is not configured.

app/ asks here, once, for what the rest of hunter gets: `check` (every [[chats]]'s `to` is
one channel's, and every channel's environment is right), `open_channels` (one `Channels`
router for delivery and the status) and `open_chats` (the repliers and webhooks of the
channels whose chat is on).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from hunter.channels import discord, line, telegram
from hunter.channels.kind import ChannelKind
from hunter.deliver.channel import Channel, Channels, Replier, Webhook
from hunter.errors import ConfigError
from hunter.redact import secret_shape
from hunter.rules.destinations import ChatConfig
from hunter.settings.chats import RECIPIENT_HELP
from hunter.settings.config import Config
from hunter.settings.environment import Environment, cleaned, reads
from hunter.settings.hosts import host_of
from hunter.settings.toml_tables import register_secrets

KINDS: tuple[ChannelKind, ...] = (line.KIND, telegram.KIND, discord.KIND)
# A "token = ..." in hunter.toml is told which of these it is (settings/toml_tables.py)
register_secrets(*(secret for kind in KINDS for secret in kind.secrets))


def kind_of(to: str) -> ChannelKind | None:
    return next((kind for kind in KINDS if kind.owns(to)), None)


def _named_not_numbered(to: str) -> str:
    """Why a Telegram @username is no chat id, and where the id is; "" for anything else."""
    if not re.fullmatch(r"telegram:@\w+", to):
        return ""
    return (
        ": a username is not a chat id (Telegram's bots cannot write to a username); send your "
        "bot a message, then its welcome, or getUpdates (docs/channels.md), says the number"
    )


def check(config: Config) -> None:
    """Every [[chats]]'s `to` is an id of one channel's; ConfigError naming the chat and every
    form an id may take otherwise."""
    where = config.path or "config"
    for said, value in (
        ("owner", config.owner),
        *((f"[[chats]] {c.name}: to", c.to) for c in config.chats),
    ):
        if value is not None and (shape := secret_shape(value)):
            raise ConfigError(
                f"{where}: {said} holds {shape[0]}, a secret: set it in the environment as "
                f"{shape[1]}, never in hunter.toml, and write the chat's id here; "
                f"{RECIPIENT_HELP}"
            )
    if config.owner is not None and kind_of(config.owner) is None:
        helps = [kind.ids_help for kind in KINDS]
        raise ConfigError(
            f"{where}: owner must be {', '.join(helps[:-1])}, or {helps[-1]}; got "
            f"{config.owner!r}{_named_not_numbered(config.owner)}"
        )
    for n, chat in enumerate(config.chats, start=1):
        if kind_of(chat.to) is None:
            helps = [kind.ids_help for kind in KINDS]
            forms = ", ".join(helps[:-1]) + f", or {helps[-1]}"
            raise ConfigError(
                f"{where} [[chats]] #{n} ({chat.name}): to must be {forms}, got {chat.to!r}; "
                f"{RECIPIENT_HELP}"
            )


def settings(env: Environment, config: Config, kind: ChannelKind) -> Any:
    """`kind`'s settings from the environment (checked, its secrets registered). An owner
    that hunter.toml names on LINE is LINE_TO, its old spelling, to LINE's settings."""
    values = environ(env, kind)
    if config.owner and line.KIND.owns(config.owner) and not values.get("LINE_TO"):
        values = {**values, "LINE_TO": config.owner}
    return kind.read(values, chats_on(config, kind))


def environ(env: Environment, kind: ChannelKind) -> dict[str, str]:
    """The environment as `kind` reads it: its keys cleaned (settings/environment.py: what a
    paste brings around a value taken off, a line break inside one refused, named)."""
    return cleaned(env.values, kind.keys, kind.secrets)


def read_all(env: Environment, config: Config) -> None:
    """Check every channel's environment now, at start: a mistake is one line, exit 2."""
    check(config)
    owner = owner_of(env, config)
    for kind in KINDS:
        settings(env, config, kind)
    joining(env, config, owner)


def joining(env: Environment, config: Config, owner: str | None = None) -> list[ChannelKind]:
    """The channels strangers may join on ([subscribers]): those `on` names, or by default
    those that say so of themselves, whose chat is on (hunter hears their Start). Raises
    ConfigError for a name no channel has, a channel whose chat cannot be on, or join =
    "approve" with no owner to approve."""
    chosen = config.subscribers
    if not chosen.open:
        return []
    where = f"{config.path or 'config'} [subscribers]"
    names = {kind.name.casefold(): kind for kind in KINDS}
    if chosen.on is not None:
        unknown = [name for name in chosen.on if name.casefold() not in names]
        if unknown:
            raise ConfigError(
                f"{where}: on names {unknown[0]!r}, not a channel; the channels are "
                f"{', '.join(kind.name for kind in KINDS)}"
            )
    if chosen.asks and owner is None and config.owner is None:
        raise ConfigError(
            f'{where}: join = "approve" needs an owner to approve: set owner = "<your chat>" '
            'in hunter.toml, or join = "open"'
        )
    kinds = [names[n.casefold()] for n in chosen.on] if chosen.on else [k for k in KINDS if k.joins]
    deaf = [kind.name for kind in kinds if not kind.hears]
    if deaf:
        raise ConfigError(f"{where}: strangers cannot join on {deaf[0]}: it never hears a chat")
    return [kind for kind in kinds if kind.chat(settings(env, config, kind), None) is not None]


def in_use(env: Environment, config: Config, kind: ChannelKind) -> bool:
    """Whether hunter pushes on `kind`: a chat of hunter.toml is on it, or strangers join
    there."""
    return bool(chats_on(config, kind)) or kind in joining(env, config)


def chats_off(on: Sequence[Webhook]) -> list[tuple[str, str]]:
    """The webhooks of the channels whose chat is off (not among `on`, open_chats' webhooks):
    (path, why) for each, the why naming what turns it on. A call there (LINE's Verify
    button) is told so, and the log says it."""
    served = {hook.path for hook in on}
    return [
        (
            kind.hook_path,
            f"{kind.name} called {kind.hook_path}, but its chat is off here: set "
            f"{kind.hook_needs} where hunter runs, and restart it",
        )
        for kind in KINDS
        if kind.hook_path and kind.hook_path not in served
    ]


def may_join(env: Environment, config: Config) -> Callable[[str], bool]:
    """Whether a chat id is on a channel strangers may join on."""
    kinds = joining(env, config)
    return lambda to: any(kind.owns(to) for kind in kinds)


def open_channels(
    env: Environment,
    config: Config,
    deadline: float | None = None,
    answering: bool = True,
    looking: bool = False,
) -> Channels:
    """The channels in use, as one router: the one whose ids have no prefix (or the terminal
    in its place) and each other with [[chats]] on it. `answering`: the cards of a channel
    whose chat is on carry the buttons it answers. `looking` (`hunter status`, which sends
    nothing): a channel that cannot be opened (its token not set) stands as one not set,
    whose `why` says what to set, instead of stopping the command."""
    default: Channel | None = None
    others: dict[str, Channel] = {}
    answers: dict[str, bool] = {}
    joins = joining(env, config)
    for kind in KINDS:
        tos = chats_on(config, kind)
        if not tos and kind in joins:  # its subscribers' chats need it, whatever hunter.toml says
            tos = [ChatConfig("subscribers", kind.prefix, {})]
        found = None
        try:  # its settings too: a Discord chat's webhook not set stops a run, not a look
            found = settings(env, config, kind)
            channel = kind.open(found, tos, bool(config.chats), deadline)
        except ConfigError as exc:
            if not looking:
                raise
            from hunter.channels.unset import Unset

            channel = Unset(str(exc))
        if channel is None:
            continue
        # The cards of a channel whose chat is on carry the buttons it answers.
        answers[channel.name] = answering and bool(getattr(found, "chat", False))
        if kind.prefix:
            others[kind.prefix] = channel
        else:
            default = channel
    if default is None:
        # Where no chat's alerts go to it (an owner on Discord, or only [[chats]] of other
        # channels: hunter's notices go to the first chat), nothing stands in: a new user's
        # Discord-only setup on GitHub Actions was told "no channel is set" on every run
        used = _default_used(env, config)
        default = _standing_in(env) if used else _unused()
    return Channels(default, others, answers)


def _default_used(env: Environment, config: Config) -> bool:
    """Whether a chat's alerts go to the channel whose ids have no prefix (LINE's, or the
    terminal in its place): the owner's, when it names no other channel, or with no owner
    and no [[chats]], everything."""
    try:
        owner = owner_of(env, config)
    except ConfigError:
        return True  # said by the check that reads it
    ids = [owner] if owner is not None else [c.to for c in config.chats]
    if not ids:
        return True
    return any(not any(to.startswith(k.prefix) for k in KINDS if k.prefix) for to in ids)


def _unused() -> Channel:
    """The channel no chat's alerts go to: the terminal, which nothing reaches."""
    from hunter.channels.terminal import TerminalSender

    return TerminalSender()


def _standing_in(env: Environment) -> Channel:
    """In place of the channel whose ids have no prefix, when it is not set: the terminal on a
    person's own machine with its own SQLite file; no channel on a host, whose log nobody
    reads as a chat, nor beside a database of its own (DATABASE_URL, SUPABASE_URL), which a
    deployment shares: a `hunter run --once` on a laptop, its channel's variables left on the
    host, printed the deployment's next alert and counted it sent (a new user's find). Its
    alerts wait for a channel (unset.py)."""
    from hunter.channels.unset import Unset

    host = host_of(env.values)
    if host is not None:
        return Unset(
            f"no channel is set on {host.name}, whose log nobody reads as a chat: alerts "
            f"wait, unsent, until one is. Set {setup_help()} (docs/channels.md)"
        )
    shared = "DATABASE_URL" if env.database_url else "SUPABASE_URL" if env.supabase_url else ""
    if shared:
        return Unset(
            f"no channel is set, and {shared} is a database a deployment may share, whose "
            f"alerts are its channel's, not this terminal's: they wait, unsent, until one is "
            f"set. Set {setup_help()} here as on the host (docs/channels.md)"
        )
    from hunter.channels.terminal import TerminalSender

    return TerminalSender()


def half_set(env: Environment, config: Config) -> list[str]:
    """Each channel whose variables are set while no chat is on it (nor strangers join on
    it): its alerts would go nowhere. One line each, naming what is set and what is missing."""
    owner = owner_of(env, config)
    tos = [to for to in (owner, *(chat.to for chat in config.chats)) if to]
    joins = joining(env, config, owner)
    said = []
    for kind in KINDS:
        if any(kind.owns(to) for to in tos) or kind in joins or not kind.needs:
            continue
        given = sorted(  # what a person set for it (HUNTER_*: where its API is, for tests)
            name
            for name, value in environ(env, kind).items()
            if value and not name.startswith("HUNTER_") and reads(name, kind.keys)
        )
        if given:
            said.append(
                f"{' and '.join(given)} {'is' if len(given) == 1 else 'are'} set, and no chat is "
                f"on {kind.name}: it needs {kind.needs}"
            )
    return said


def setup_help() -> str:
    """What a person sets for each channel: "A; or B; or C"."""
    return "; or ".join(kind.needs for kind in KINDS if kind.needs)


def open_chats(
    env: Environment, config: Config, deadline: float | None = None
) -> tuple[Replier | None, dict[str, Replier], list[Webhook]]:
    """The chats that are on: the replier of the channel whose ids have no prefix (None when
    its chat is off), the others' by prefix, and every webhook to serve."""
    default: Replier | None = None
    others: dict[str, Replier] = {}
    hooks: list[Webhook] = []
    for kind in KINDS:
        chat = kind.chat(settings(env, config, kind), deadline)
        if chat is None:
            continue
        replier, hook = chat
        hooks.append(hook)
        if kind.prefix:
            others[kind.prefix] = replier
        else:
            default = replier
    return default, others, hooks


def owner_of(env: Environment, config: Config) -> str | None:
    """The owner's chat: hunter.toml's `owner`, or LINE_TO (its old spelling); None when
    neither is set. Both set to two chats is one line naming both: which is meant?"""
    line_to = environ(env, line.KIND).get("LINE_TO") or None
    if config.owner is not None and line_to is not None and line_to != config.owner:
        raise ConfigError(
            f"owner = {config.owner!r} in hunter.toml and LINE_TO = {line_to!r} name two "
            "owners; LINE_TO is owner's old spelling: keep one of them"
        )
    return config.owner or line_to


def chats_on(config: Config, kind: ChannelKind) -> Sequence[ChatConfig]:
    """The chats hunter.toml puts on `kind`: the owner's where it names it (named "owner"),
    then the [[chats]]."""
    owner = config.owner
    mine = [ChatConfig("owner", owner, {})] if owner and kind.owns(owner) else []
    return mine + [chat for chat in config.chats if kind.owns(chat.to)]


def line_settings(env: Environment, config: Config) -> line.settings.LineSettings:
    """LINE's settings, as its chats on LINE and its owner make them."""
    found: line.settings.LineSettings = settings(env, config, line.KIND)
    return found


def telegram_settings(env: Environment) -> telegram.settings.TelegramSettings:
    return telegram.settings.read(environ(env, telegram.KIND))


__all__ = [
    "KINDS",
    "Channel",
    "Channels",
    "check",
    "open_channels",
    "open_chats",
    "owner_of",
    "read_all",
]
