"""The `hunter` command: parse arguments, call the library, map errors to exit codes.

Exit codes: 0 ok; 1 the run failed (store unreachable, every source failed); 2 bad config or
usage. A user's mistake is one line on stderr naming the problem and the fix, never a
traceback, never a secret.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import sys
from collections.abc import Callable, Sequence

from hunter import __version__
from hunter.errors import ConfigError, HunterError
from hunter.logs import json_logs, setup_logging
from hunter.redact import redact
from hunter.settings.config import Config, config_path, load_config
from hunter.settings.environment import Environment, read_environment

log = logging.getLogger("hunter")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise ConfigError(f"{message}; see `{self.prog} --help`")


def build_parser() -> argparse.ArgumentParser:
    # --config is accepted before and after the command. The command's copy has no default
    # (SUPPRESS), so `hunter --config X status` keeps X instead of resetting it to None.
    common = _Parser(add_help=False)
    common.add_argument(
        "--config",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help="config file (default: $HUNTER_CONFIG, else ./hunter.toml)",
    )
    parser = _Parser(
        prog="hunter",
        description="Job alerts to LINE, Telegram and Discord: each new matching listing once.",
    )
    parser.add_argument("--config", metavar="PATH", help=argparse.SUPPRESS)
    parser.add_argument("--version", action="version", version=f"hunter {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    said = (
        "poll now, then read each source when it is due (its schedule is learned from when its "
        'listings come; with schedule = "fixed", every interval_minutes)'
    )
    run = sub.add_parser("run", parents=[common], help=said, description=said)
    run.add_argument(
        "--once", action="store_true", help="one poll (and the prune if due), then exit"
    )
    run.add_argument(
        "--all",
        action="store_true",
        help="with --once: read every source now, whatever its schedule (to try a change)",
    )
    prime = sub.add_parser(
        "prime",
        parents=[common],
        help="record every listing shown now as seen; send nothing",
        description=(
            "Record every listing the sources show now as seen, and send nothing: for when "
            "you change what a source reads (its url, search or categories). An alert of one "
            "of them still waiting to be sent (quiet hours, the pace, a failed push) is not "
            "sent either: the line says how many."
        ),
    )
    prime.add_argument("--source", metavar="NAME", help="only this source")
    prune = sub.add_parser(
        "prune", parents=[common], help="delete sent/ignored/primed rows not seen for N days"
    )
    prune.add_argument(
        "--days", type=float, metavar="N", help="default: prune_after_days from the config"
    )
    status = sub.add_parser(
        "status", parents=[common], help="sources, the outbox, stuck rows and why, the last prune"
    )
    shape = status.add_mutually_exclusive_group()  # both said: one of them silently lost
    shape.add_argument("--json", action="store_true", help="machine-readable output")
    shape.add_argument(
        "--markdown",
        action="store_true",
        help="GitHub-flavoured Markdown, for a job summary ($GITHUB_STEP_SUMMARY)",
    )
    status.add_argument(
        "--applied",
        action="store_true",
        help="the listings you marked 'applied' (สมัครแล้ว) in a chat",
    )
    unmute = sub.add_parser(
        "unmute", parents=[common], help="send listings matching WORD again (muted from a chat)"
    )
    unmute.add_argument("word", metavar="WORD", help="the keyword, as the card's button muted it")
    tuning = sub.add_parser(
        "tuning",
        parents=[common],
        help=(
            "what the chats changed from their chat (keywords, budget, places, languages, "
            "pause); --reset drops it"
        ),
    )
    tuning.add_argument(
        "--reset", action="store_true", help="drop the changes: hunter.toml's rules again"
    )
    tuning.add_argument(
        "--chat", metavar="NAME", help="one chat only ('owner' for the owner's); default: all"
    )
    line = sub.add_parser(
        "line", parents=[common], help="LINE set-up: `hunter line setup` (rich menu, webhook URL)"
    )
    line.add_argument(
        "action",
        choices=["setup"],
        help="setup: create or update the rich menu (งานใหม่, สถานะ), set it as the default, "
        "and print the webhook URL",
    )
    line.add_argument(
        "--url", metavar="URL", help="hunter's public address (default: Render's or Railway's)"
    )
    telegram = sub.add_parser(
        "telegram",
        parents=[common],
        help="Telegram set-up: `hunter telegram setup --url URL` (the chat's webhook)",
    )
    telegram.add_argument(
        "action",
        choices=["setup"],
        help="setup: tell Telegram to send the bot's chats to URL/telegram/webhook with "
        "TELEGRAM_WEBHOOK_SECRET",
    )
    telegram.add_argument(
        "--url", metavar="URL", help="hunter's public address (default: Render's or Railway's)"
    )
    retry = sub.add_parser("retry", parents=[common], help="send stuck rows again")
    retry.add_argument("job_ids", nargs="*", metavar="JOB_ID")
    retry.add_argument("--all", action="store_true", help="every stuck row")
    sub.add_parser(
        "schema",
        parents=[common],
        help="print the SQL that sets up hunter's tables (paste it into Supabase's SQL editor)",
    )
    sub.add_parser(
        "check",
        parents=[common],
        help="validate config and environment, reach the database and each channel (LINE, "
        "Telegram, Discord), fetch every source and show what it parsed",
        description=(
            "Check everything once and change nothing: hunter.toml and the environment, the "
            "database (looked at, never made nor upgraded), each channel's token and chats, "
            "and every source, read now, with what it parsed and how each chat's rules judge "
            "its first listings. Exit 0 when all passed, 1 when one failed, 2 for a mistake "
            "in the config or the environment."
        ),
    )
    demo = sub.add_parser(
        "demo",
        help="the real pipeline, offline, in seconds: a built-in job board, "
        "a temporary database, alerts in this terminal",
        description=(
            "The real pipeline, offline, in seconds: a small job board on 127.0.0.1, a "
            "temporary database, the first poll priming silently, two new matching listings "
            "alerted once in this terminal, and a second poll that alerts nothing. It reads "
            "no hunter.toml and touches no database of yours."
        ),
    )
    demo.add_argument(  # taken, to say what to run instead: the demo reads no hunter.toml
        "--config", metavar="PATH", default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    return parser


def _load(args: argparse.Namespace, looking: bool = False) -> tuple[Config, Environment]:
    from hunter import channels

    env = read_environment(os.environ)
    config = load_config(config_path(args.config, env.values))
    try:
        channels.read_all(env, config)  # every channel's keys and every [[chats]]'s to, checked
    except ConfigError:
        if not looking:  # a command that only reads says it in its report (commands.Loader)
            raise
    return config, env


def main(argv: Sequence[str] | None = None) -> int:
    setup_logging()
    try:
        args = build_parser().parse_args(argv)
        from hunter.app import commands

        commands.reader_back()
        command: Callable[..., int] = getattr(commands, args.command)
        return command(args, _load)
    except HunterError as exc:
        _last_words(f"hunter: {redact(str(exc))}")
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader has what it wanted (`hunter status | head -3`): end quietly, as Unix
        # tools do, with nothing more written to the closed pipe at exit.
        _stdout_to_devnull()
        return 0
    except Exception as exc:
        # A bug: the redacted traceback goes to the log, and one line says what to do.
        log.exception("unexpected error")
        _last_words(
            f"hunter: unexpected error ({type(exc).__name__}); please report it with the log"
        )
        return 1
    finally:
        said = sys.modules.get("hunter.app.commands")  # imported when a command ran
        if said is not None and said.reader_gone():  # its output met a closed pipe: nothing
            _stdout_to_devnull()  # more to it at exit; the command's code stands


def _stdout_to_devnull() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):  # not a file (a test's buffer)
        pass


def _last_words(line: str) -> None:
    """The final line of a failed command: plain on stderr, or a JSON log record."""
    if json_logs():
        log.error("%s", line)
    else:
        print(line, file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
