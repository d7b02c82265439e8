"""The owner's card of the chats that ask to join (`[subscribers] join = "approve"`).

A stranger who asks costs the owner a message: on LINE, a share of a 300-message month. A card
for every Start let one stranger repeating /start and /forget spend ten of them in 25 s. So
one card names everyone who asked since the last one, and a card goes at most every
CARDS_EVERY, however many Start: the first ask after a quiet while is told at once (the
chat's thread nudges delivery: it does not wait for the next read), the ones after it wait for
the next card, which a poll makes once the while is over. The turn lives in the store apart
from every chat's rows (a /forget deletes the ask, never the turn), and the database decides
it, so that replicas send one card between them. On a paced channel the card does not spend
what the owner's listings need: it rides with the owner's next push (deliver/allowance.py)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta

from hunter.errors import StoreError
from hunter.store import Store
from hunter.store.subscribers import Standing
from hunter.words import notices

log = logging.getLogger("hunter")

CARDS_EVERY = timedelta(hours=4)  # at most six cards a day, whoever asks
TURN = "asks_card_at"  # the turn's key in the store
LISTED_MOST = 50  # chats the owner's "asks" lists


def tell_owner(store: Store, now: datetime, names: Mapping[str, str] | None = None) -> bool:
    """Queue the owner's card of the chats that asked since the last card, when a card is
    due (CARDS_EVERY since the last) and someone asked since it; whether one was queued.
    `names`: the chats' names where the caller knows them (a Start's sender)."""
    waiting = sorted(
        (s for s in store.subscribers.all() if s.standing is Standing.ASKED),
        key=lambda s: (s.joined_at, s.chat),
    )
    if not waiting:
        return False
    last = store.subscribers.take_turn(TURN, now, CARDS_EVERY, waiting[-1].joined_at)
    if last is None:
        return False
    fresh = [s.chat for s in waiting if s.joined_at > last]
    if not fresh:
        return False
    # Their names as they gave them with their Start (kept while they wait), or as the caller
    # knows them: a card a poll makes names them too
    named = {**_asker_names(store), **(names or {})}
    new = [(chat, named.get(chat, "")) for chat in fresh]
    queued = store.outbox.enqueue(notices.asks_to_join(new, now), now)
    if queued:
        log.info("the owner is asked about %d chats that want to join", len(new))
    return queued


def _asker_names(store: Store) -> dict[str, str]:
    """The names the askers gave; none when the store cannot say them: the turn is taken, and
    a card of ids now beats a card of names at the next turn, CARDS_EVERY later."""
    try:
        return store.subscribers.asker_names()
    except StoreError as exc:
        log.warning("the card of the chats that ask names none of them: %s", exc)
        return {}


def listed(store: Store) -> str:
    """The owner's "asks": every chat waiting for approval, the oldest first."""
    waiting = [s for s in store.subscribers.all() if s.standing is Standing.ASKED]
    if not waiting:
        return "ไม่มีคำขอ · Nobody is waiting to join."
    lines = [f"🙋 {len(waiting)} รออนุมัติ · waiting to join:"]
    lines += [f"• {s.chat} (since {s.joined_at:%d %b %H:%M} UTC)" for s in waiting[:LISTED_MOST]]
    if len(waiting) > LISTED_MOST:
        lines.append(f"… and {len(waiting) - LISTED_MOST} more")
    lines.append("Send “approve ID” or “refuse ID”.")
    return "\n".join(lines)
