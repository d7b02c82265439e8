"""The LINE stand-in is only as good as what it rejects: it must catch what LINE would."""

from __future__ import annotations

import copy
import json
import uuid
from typing import Any

import pytest

from hunter.channels.line.push import LineSender
from hunter.channels.line.render import messages
from hunter.deliver.outcome import Kind
from hunter.errors import ChatGone
from hunter.rules.listing import Listing
from tests.support.line_limits import limit_errors
from tests.support.line_spec import spec_available, spec_errors
from tests.support.line_standin import TO, LineStandIn

needs_spec = pytest.mark.skipif(
    not spec_available(), reason="../shared/contracts (LINE's OpenAPI spec) is not here; CI has it"
)


def good_request() -> dict[str, Any]:
    listings = [
        Listing(f"s:{n}", "s", f"job {n}", f"https://x.test/{n}", 100, "text") for n in range(3)
    ]
    return {"to": "U" + "0" * 32, "messages": messages(listings)}


def bubble(request: dict[str, Any]) -> dict[str, Any]:
    return request["messages"][0]["contents"]["contents"][0]


def broken(change: Any) -> dict[str, Any]:
    request = copy.deepcopy(good_request())
    change(request)
    return request


@needs_spec
def test_a_good_request_passes_the_spec() -> None:
    assert spec_errors("PushMessageRequest", good_request()) == []


@needs_spec
@pytest.mark.parametrize(
    "change",
    [
        lambda r: bubble(r)["body"].pop("layout"),  # a box without layout, deep inside
        lambda r: bubble(r)["body"]["contents"][0].update(wrap="yes"),  # boolean expected
        lambda r: bubble(r)["body"]["contents"].append({"type": "banana"}),  # no such component
        lambda r: r["messages"].append({"type": "flex", "altText": "x"}),  # contents missing
        lambda r: r.pop("to"),
        lambda r: bubble(r)["footer"]["contents"][0]["action"].update(type="teleport"),
    ],
    ids=["box-layout", "wrap-type", "unknown-component", "flex-contents", "to", "action-type"],
)
def test_the_spec_check_reaches_nested_components(change: Any) -> None:
    assert spec_errors("PushMessageRequest", broken(change))


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda r: r["messages"][0].update(altText="x" * 401), "altText"),
        (
            lambda r: r["messages"][0]["contents"]["contents"].extend([bubble(r)] * 10),
            "1 to 12 bubbles",
        ),
        (
            lambda r: bubble(r)["footer"]["contents"][0]["action"].update(
                uri="javascript:alert(1)"
            ),
            "scheme",
        ),
        (
            lambda r: bubble(r)["footer"]["contents"][0]["action"].update(
                uri="https://x.test/" + "a" * 1000
            ),
            "over 1000",
        ),
        (lambda r: r["messages"].append({"type": "text", "text": "😀" * 2501}), "UTF-16"),
        (lambda r: r["messages"].extend([{"type": "text", "text": "x"}] * 5), "1 to 5"),
        (lambda r: bubble(r)["body"]["contents"][0].update(text=""), "must not be empty"),
        (lambda r: bubble(r)["body"]["contents"][0].update(text="x" * 31_000), "over 30720"),
    ],
    ids=[
        "alt-text",
        "carousel-size",
        "uri-scheme",
        "uri-length",
        "text-length",
        "messages",
        "empty-text",
        "bubble-size",
    ],
)
def test_the_documented_limits_are_enforced_without_the_spec(change: Any, needle: str) -> None:
    request = broken(change)
    errors = limit_errors(request, len(json.dumps(request).encode()))
    assert any(needle in error for error in errors), errors


def test_a_body_over_2_mb_is_refused() -> None:
    assert any("over 2097152" in e for e in limit_errors(good_request(), 3 * 1024 * 1024))


def test_a_push_to_a_group_or_room_counts_once_per_member(line: LineStandIn) -> None:
    """LINE's pricing page: a push counts one message per recipient; the member counts come
    from "Get number of users in a group chat" / "in a multi-person chat"."""
    group, room, stranger = "C" + "1" * 32, "R" + "2" * 32, "C" + "3" * 32
    line.members.update({group: 4, room: 3})
    sender = LineSender(line.token, TO, line.url)
    assert (sender.members(group), sender.members(room), sender.members(TO)) == (4, 3, 1)
    with pytest.raises(ChatGone, match="HTTP 404"):  # a LineError: the bot is not in it
        sender.members(stranger)
    text = [{"type": "text", "text": "job"}]
    for to in (TO, group, room):
        assert sender.push(text, str(uuid.uuid4()), to).kind is Kind.SENT
    assert line.used == 1 + 4 + 3
    refused = sender.push(text, str(uuid.uuid4()), stranger)
    assert refused.status == 400 and line.used == 8
    assert [v for v in line.violations if "'to'" in v]
    line.violations.clear()  # the refusal above was the point
    line.quota_limit = 10  # 2 left: a group of 4 does not fit, a user does
    assert sender.push(text, str(uuid.uuid4()), group).kind is Kind.QUOTA
    assert sender.push(text, str(uuid.uuid4()), TO).kind is Kind.SENT and line.used == 9
