"""hunter: job alerts to LINE, Telegram and Discord, each listing exactly once.

A new engineer's map (docs/development.md, "Where things are", says more). Folders are the stages a
listing passes through; imports point one way, down this list:

    app/       the `hunter` command, the service and its schedule, `hunter check`, the demo
    chat/      the chats' webhook events answered: one table of commands, answers, tuning, why
    web/       the public HTTP side: every limit a stranger meets
    channels/  where alerts go: line/ (the only folder importing line-bot-sdk), telegram/,
               the terminal
    poll/      one poll: read every source, judge each listing for each chat, record
    deliver/   claim -> render -> send -> mark; the pace; the channel port; the status report
    store/     the database port by noun, its adapters, the migrations and today's schema
    settings/  hunter.toml and the environment -> one typed Config
    sources/   where listings come from: page kinds and presets (real boards, as data)
    rules/     pure: the listing, filters, pay, a board's shape, where alerts go and
               which rules judge them

A new board: sources/presets.py. A new chat command: chat/commands.py and chat/answers.py.
A new store operation: the room of its noun in store/, both adapters, a new migration. A new
channel: one folder in channels/ implementing deliver/channel.py, and its line in
channels/__init__.py.
"""

__version__ = "0.1.0"
