"""The chats' webhooks on hunter's HTTP side: each channel declares its own (a `Webhook`, in
its folder under hunter/channels/: where it is, what its head must show before its body is
read, and how its body becomes events), and `hook` serves it. Whatever passes is kept by the
inbox (inbox.py) before the 200, and answered once. Refusals are logged at a rate: a
stranger's junk must not write a log line per request.
"""

from __future__ import annotations

import logging

from hunter.chat.inbox import Inbox
from hunter.deliver.channel import NotEvents, Webhook
from hunter.web.limits import Throttled
from hunter.web.routes import Headers, Hook

log = logging.getLogger("hunter")


def hook(webhook: Webhook, inbox: Inbox) -> Hook:
    """`webhook` served: the events of each request it admits, into `inbox`."""
    refused = Throttled(log)

    def receive(body: bytes, headers: Headers) -> int:
        try:
            events = webhook.events(body, headers)
        except NotEvents as exc:
            refused.warning(f"{webhook.channel} webhook request refused (400): {exc}")
            return 400
        except RecursionError:  # JSON nested past Python's stack: no channel sends it
            refused.warning(f"{webhook.channel} webhook request refused (400): JSON too deep")
            return 400
        return inbox.keep(events) if events else 200

    return Hook(webhook.path, webhook.admit, receive)
