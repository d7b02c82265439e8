"""A chat's "งานใหม่": what waits for it, carried by a reply instead of a push.

The same steps as a push (deliverer.py), in the same order: the rows are claimed in the store
(the database decides who owns them), the channel renders them, the reply carries them, and
the answer is written down. A reply has no retry key, so the batch is claimed under a reply's
key (outcome.REPLY_KEY): a deliverer that finds it past its lease (this worker was killed
mid-reply) marks it "delivery unknown" instead of pushing it. The channel's 200 is delivery; an
answer that never came leaves the listings stuck for a person (`hunter retry`), since sending
them again could show them twice; a refusal puts them back to wait for the next push.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

from hunter.deliver.channel import Replier
from hunter.deliver.outcome import REPLY_KEY, Kind, PushResult, failure_of, reply_unanswered
from hunter.store import Store
from hunter.store.records import Failure

log = logging.getLogger("hunter")

Send = Callable[[list[dict[str, Any]]], PushResult]  # the reply itself, to its token


class ReplyDelivery:
    def __init__(
        self, store: Store, channel: Replier, clock: Callable[[], datetime], worker: str
    ) -> None:
        self.store, self.channel, self.clock, self.worker = store, channel, clock, worker

    def carry(self, chat: str, send: Send, more: Callable[[int], str]) -> int:
        """Carry what waits for `chat` in one reply, with the cards' buttons, and `more(n)` as
        its last message when n more wait; how many listings it carried (0: none waited)."""
        key = f"{REPLY_KEY}{uuid.uuid4()}"
        limit = self.channel.max_per_push
        batch = self.store.outbox.claim_new(self.worker, key, limit, self.clock(), chat)
        if not batch:
            return 0
        waiting = self.store.outbox.count_pending(chat)
        note = more(waiting) if waiting else None
        result = send(self.channel.render([c.listing for c in batch], note, True))
        if result.kind is Kind.SENT:
            self.store.outbox.mark_sent(key, self.clock())
            log.info("%d listings sent in a reply", len(batch))
        elif result.maybe_delivered:  # the channel may show them: never push them on a guess
            failure = failure_of(reply_unanswered(result), self.clock())
            self.store.outbox.mark_failed(key, self.worker, failure)
        else:  # the channel answered that it did not take them: they wait for the next push
            self.store.outbox.mark_failed(key, self.worker, Failure.unsent())
        return len(batch)
