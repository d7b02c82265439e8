"""The first alert of a job edited to say where else it is (issue 43), through hunter's real
Telegram and Discord senders against their stand-ins, on SQLite: a copy merged for three
chats edits the Telegram and the Discord message and leaves LINE alone; an edit Telegram
refuses for now (a 429) is made after its wait, and the Discord one is not held up by it; a
message its channel no longer has (deleted in Discord) is given up, once."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

from hunter.channels.discord.send import DiscordSender
from hunter.channels.discord.settings import DiscordWebhook
from hunter.channels.telegram.send import TelegramSender
from hunter.deliver.channel import Channels
from hunter.deliver.deliverer import Deliverer
from hunter.deliver.editor import EDIT_RETRY, edit_merged
from hunter.deliver.outcome import Kind
from hunter.rules.destinations import Destinations
from hunter.rules.listing import Listing
from hunter.settings.config import Config, parse_config
from hunter.store.edits import Merged
from hunter.store.sqlite import SQLiteStore
from tests.support.discord_standin import WEBHOOK_ID, DiscordStandIn
from tests.support.scripted import Clock, ScriptedSender
from tests.support.telegram_standin import TOKEN, TelegramStandIn

T0 = datetime(2026, 12, 3, 9, tzinfo=UTC)
CHATS = {"": "owner", "tg": "telegram:111", "team": "discord:team"}


def config() -> Config:
    chats = [{"name": "tg", "to": "telegram:111"}, {"name": "team", "to": "discord:team"}]
    return parse_config({"sources": [{"name": "one", "url": "https://one.test/", "kind": "rss"}],
                         "chats": chats})  # fmt: skip


class Setup:
    def __init__(self, folder: Path, telegram: TelegramStandIn, discord: DiscordStandIn) -> None:
        self.config = config()
        self.store = SQLiteStore(folder / "hunter.db")
        self.store.migrate()
        self.clock = Clock(T0)
        self.line = ScriptedSender()
        hooks = {"discord:team": DiscordWebhook(discord.webhook_url(), WEBHOOK_ID)}
        self.channels = Channels(
            self.line,
            {"telegram:": TelegramSender(TOKEN, telegram.url), "discord:": DiscordSender(hooks)},
        )
        self.destinations = Destinations("U" + "1" * 32, self.config.chats)

    def send(self, listing: Listing) -> None:
        """`listing` recorded for the owner and both chats, and delivered to each."""
        self.store.outbox.record("one", [Listing("one:0", "one", "seed", "https://one.test/0")],
                                 set(), T0)  # fmt: skip
        chats = {listing.job_id: [("tg", listing), ("team", listing)]}
        self.store.outbox.record("one", [listing], {listing.job_id}, T0, chats=chats)
        deliverer = Deliverer(self.config, self.store, self.channels, self.clock, "w",
                              threading.Event(), destinations=self.destinations)  # fmt: skip
        assert deliverer.deliver(10, frozenset()).sent == 3

    def edit(self) -> int:
        return edit_merged(
            self.store, self.channels, self.destinations, self.clock, threading.Event()
        )


def merged(first: str) -> list[Merged]:
    return [Merged(chat, first, "two", "https://two.test/9") for chat in CHATS]


def test_a_copy_edits_telegram_and_discord_and_leaves_line_alone(
    tmp_path: Path, telegram: TelegramStandIn, discord: DiscordStandIn
) -> None:
    s = Setup(tmp_path, telegram, discord)
    s.send(Listing("one:1", "one", "python developer", "https://one.test/1"))
    s.store.edits.add(merged("one:1"), T0)
    assert s.edit() == 2
    assert "also on: two" in telegram.edited[0].text
    assert discord.edits[0].body["embeds"][0]["fields"][0]["value"] == "[two](https://two.test/9)"
    assert len(s.line.pushes) == 1  # the owner's first push; nothing more on LINE
    s.clock.advance(3600)
    assert s.edit() == 0 and len(telegram.edited) == 1 and len(discord.edits) == 1
    # Asked again for what it shows (a copy merged while the first waited, then sent with
    # it): Telegram says "message is not modified", which is what was asked.
    fields = {
        k: v for k, v in telegram.edited[0].fields.items() if k not in ("chat_id", "message_id")
    }
    again = s.channels.edit([fields], "1", "telegram:111")
    assert again.kind is Kind.SENT and "not modified" in again.detail
    assert len(telegram.edited) == 1


def test_an_edit_telegram_refuses_for_now_is_made_after_its_wait(
    tmp_path: Path, telegram: TelegramStandIn, discord: DiscordStandIn
) -> None:
    s = Setup(tmp_path, telegram, discord)
    s.send(Listing("one:1", "one", "python developer", "https://one.test/1"))
    s.store.edits.add(merged("one:1"), T0)
    telegram.refusing[111] = 90  # flood control: retry after 90 s
    assert s.edit() == 1  # Discord's, not held up by Telegram's
    assert telegram.edited == [] and len(discord.edits) == 1
    telegram.refusing.clear()
    s.clock.advance(EDIT_RETRY.total_seconds())
    assert s.edit() == 0  # Telegram said 90 s: not before
    s.clock.advance(31)
    assert s.edit() == 1 and "also on: two" in telegram.edited[0].text
    assert len(discord.edits) == 1


def test_a_message_deleted_in_discord_is_given_up_once(
    tmp_path: Path, telegram: TelegramStandIn, discord: DiscordStandIn
) -> None:
    s = Setup(tmp_path, telegram, discord)
    s.send(Listing("one:1", "one", "python developer", "https://one.test/1"))
    discord.removed.add(0)  # a person deleted the alert in the channel
    s.store.edits.add(merged("one:1"), T0)
    assert s.edit() == 1  # Telegram's
    assert discord.edits == []
    s.clock.advance(3600)
    assert discord.patches == 1
    assert s.edit() == 0 and discord.patches == 1  # not asked again


def test_a_database_that_fails_meanwhile_fails_no_poll(
    tmp_path: Path, telegram: TelegramStandIn, discord: DiscordStandIn
) -> None:
    """The edits come after the poll's delivery: a database gone by then is said in the log
    and fails nothing; what was due stays due for the next merge."""
    s = Setup(tmp_path, telegram, discord)
    s.send(Listing("one:1", "one", "python developer", "https://one.test/1"))
    s.store.edits.add(merged("one:1"), T0)
    s.store.close()
    assert s.edit() == 0  # no exception
    again = Setup(tmp_path, telegram, discord)  # the database back
    assert again.edit() == 2 and len(telegram.edited) == 1 and len(discord.edits) == 1
