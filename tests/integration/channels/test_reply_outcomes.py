"""What the LINE sender makes of each way a reply (or a check) can end, against the LINE
stand-in on 127.0.0.1 with the real line-bot-sdk: a 200 is delivery whatever its body; an
answer that never came may be delivery; a refused connection or an error status is not; and
LINE's quota read is over within its deadline however slowly LINE answers."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from hunter.channels.line.answers import LineError
from hunter.channels.line.push import LineSender
from hunter.channels.line.render import text_message
from hunter.deliver.outcome import Kind
from tests.support.line_standin import TO, LineStandIn
from tests.support.local_server import free_port


@pytest.fixture
def fast_line() -> Iterator[LineStandIn]:
    stand_in = LineStandIn()
    yield stand_in
    stand_in.close()


def sender(line: LineStandIn, **options: Any) -> LineSender:
    return LineSender(line.token, TO, line.url, **options)


@pytest.mark.parametrize(
    ("fault", "kind", "maybe_delivered", "shown"),
    [
        (None, Kind.SENT, False, True),
        ("html", Kind.SENT, False, True),  # a proxy's page after LINE took it: delivered
        (("slow", 1.0), Kind.SENT, False, True),  # slow, within the deadline
        (("slow", 4.0), Kind.TRANSIENT, True, True),  # past the deadline: LINE shows it anyway
        ("drop", Kind.TRANSIENT, True, True),  # taken, then the answer lost
        ("trickle", Kind.SENT, False, True),  # a 200 whose body trickles: LINE took it
        (500, Kind.TRANSIENT, False, False),  # LINE answered: not taken
    ],
)
def test_a_reply_ends_as_delivered_not_delivered_or_maybe(
    fast_line: LineStandIn, fault: Any, kind: Kind, maybe_delivered: bool, shown: bool
) -> None:
    if fault is not None:
        fast_line.chat.reply_script.append(fault)
    token = fast_line.chat.issue_token()
    started = time.monotonic()
    result = sender(fast_line, deadline=2.0).reply(token, [text_message("hello")])
    assert (result.kind, result.maybe_delivered) == (kind, maybe_delivered)
    # Given up near its 2 s deadline, not after the trickle's 40 s (a loaded machine may add
    # a few seconds to the first: the suite runs four processes on two cores).
    assert time.monotonic() - started < 10
    assert bool(fast_line.chat.accepted) is shown


def test_a_reply_that_never_connected_was_not_delivered() -> None:
    closed = f"http://127.0.0.1:{free_port()}"
    result = LineSender("token", TO, closed, deadline=2.0).reply("t", [text_message("hello")])
    assert result.kind is Kind.TRANSIENT and not result.maybe_delivered


def test_a_push_answered_200_with_a_body_the_sdk_cannot_read_is_delivered(
    fast_line: LineStandIn,
) -> None:
    fast_line.script.append("html")
    result = sender(fast_line).push([text_message("job")], "0b0c4b0e-8f3e-4d7a-9a55-6f1f0e0c9d11")
    assert result.kind is Kind.SENT and len(fast_line.delivered) == 0  # a text, not a card
    assert [p.status for p in fast_line.pushes] == [200]


def test_the_quota_read_is_over_within_its_deadline(fast_line: LineStandIn) -> None:
    fast_line.quota_trickles = True  # a byte every 2 s: the whole answer would take 30 s
    started = time.monotonic()
    with pytest.raises(LineError, match="did not answer within 1 s"):
        sender(fast_line, check_deadline=1.0).quota()
    assert time.monotonic() - started < 2.0
