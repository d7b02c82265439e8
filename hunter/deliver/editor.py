"""The edits of alerts already sent: an alert a later copy of its job was merged
into gains "also on <board>", where its channel can change a sent message (Telegram,
Discord; LINE cannot, and pays nothing for it). What to edit is claimed in the store
(store/edits.py); the message is rendered again from its rows as a push renders it, with the
copies merged since, and the channel replaces the one it sent.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta

from hunter.deliver.channel import Channels, rendered
from hunter.deliver.outcome import Kind
from hunter.errors import StoreError
from hunter.rules.destinations import Destinations
from hunter.store import Store
from hunter.store.edits import SentMessage
from hunter.words import notices

log = logging.getLogger("hunter")

EDIT_LEASE = timedelta(minutes=5)  # a claimed edit its replica never finished goes to another
EDITS_AT_ONCE = 50  # messages edited by one call at most
EDIT_RETRY = timedelta(minutes=1)  # an edit refused for now is tried again at least this late


def edit_merged(
    store: Store,
    channels: Channels,
    destinations: Destinations,
    clock: Callable[[], datetime],
    stop: threading.Event,
) -> int:
    """Edit the messages that a later copy of one of their jobs was merged into, so that they
    say "also on <board>", where their channel can (a claim of the store's: a replica that
    dies editing leaves it to another). An edit refused for now (a 429, an outage) is tried
    again after a while, with a later merge's, five times at most; one the channel cannot
    make (LINE, a message deleted) is given up. How many were edited. A database that fails
    meanwhile fails no poll: what was claimed is left to its lease, as after a crash."""
    edited = 0
    try:
        now = clock()
        for message in store.edits.claim(now, now - EDIT_LEASE, EDITS_AT_ONCE):
            if stop.is_set():
                break  # left claimed: the lease hands it on
            edited += _edit(message, store, channels, destinations, clock)
    except StoreError as exc:
        log.warning("the alerts to edit wait for the next merge: %s", exc)
    return edited


def _edit(
    message: SentMessage,
    store: Store,
    channels: Channels,
    destinations: Destinations,
    clock: Callable[[], datetime],
) -> int:
    """One claimed message edited (1), or not (0), and its claim done."""
    if not destinations.knows(message.chat):
        store.edits.done(message)  # its [[chats]] was removed
        return 0
    to = destinations.to_of(message.chat)
    channel = channels.of(to)
    if not message.listings:
        store.edits.done(message)
        return 0
    if not channel.edits or message.ref is None:
        _tell_apart(message, store, clock)  # LINE, a reply: the copies go with its next push
        store.edits.done(message)
        return 0
    messages = rendered(channel, message.listings, None, channels.actions(to))
    result = channel.edit(messages, message.ref, to)
    if result.kind is Kind.TRANSIENT:
        wait = max(EDIT_RETRY.total_seconds(), result.retry_after or 0.0)
        store.edits.done(message, clock() + timedelta(seconds=wait))
        log.warning("editing a sent alert waits (%s): %s", channel.name, result.summary)
        return 0
    store.edits.done(message)
    if result.kind is not Kind.SENT:
        log.warning("a sent alert was not edited (%s): %s", channel.name, result.summary)
        _tell_apart(message, store, clock)  # deleted by the person: the copies said apart
        return 0
    return 1


def _tell_apart(message: SentMessage, store: Store, clock: Callable[[], datetime]) -> None:
    """The copies merged into a message that cannot show them, each a line of its own for the
    chat (notices.also_elsewhere), so that a copy's link is never hidden: once per copy, and
    with the chat's next push (on a paced channel it costs nothing)."""
    now = clock()
    for first in message.listings:
        for board, url in first.also_on:
            notice = notices.also_elsewhere(first, board, url, now)
            store.outbox.enqueue(notice, now, message.chat)
