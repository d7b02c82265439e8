"""👍 and 👎 under LINE's cards (issue 54), as the owner meets them: `hunter run` on PostgreSQL
with its webhook (tests/e2e/test_chat.py's chat), the postbacks LINE sends when a button is
tapped. After a 👎 a listing like it is held back (its row "ignored": seen, never pushed), and
`hunter check` and /why say why; after a 👍 a listing like it without the chat's word is pushed,
its card marked "not your words"."""

from __future__ import annotations

import json
import time

from tests.e2e.test_chat import Chat, chat
from tests.support.line_standin import TO
from tests.support.webhook import event, payload, post

__all__ = ["chat"]  # the fixture, used by name


def buttons_of(card: dict[str, object]) -> dict[str, str]:
    """The postback data under a card, by verb."""
    footer = card["footer"]["contents"]  # type: ignore[index]
    data = [b["action"]["data"] for row in footer[1:] for b in row["contents"]]
    return {d.split(" ", 1)[0]: d for d in data}


def test_taps_under_line_cards_hold_back_and_draw_listings(chat: Chat) -> None:
    chat.configure()  # no quiet hours: pushes go, with the card buttons
    first = [("j1", "python wordpress plugin developer"), ("j2", "python django backend engineer")]
    chat.board.serve_jobs("/jobs", first)
    chat.posted = 2
    replica = chat.start()
    deadline = time.monotonic() + 30
    while len(chat.line.delivered) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    cards = {
        card["body"]["contents"][0]["text"]: card
        for push in chat.line.pushes
        for message in push.body["messages"]
        for card in (
            message["contents"]["contents"]
            if message["contents"]["type"] == "carousel"
            else [message["contents"]]
        )
    }
    wordpress = buttons_of(cards["python wordpress plugin developer"])
    django = buttons_of(cards["python django backend engineer"])
    assert set(wordpress) == {"like", "dismiss", "mute", "applied"}
    for data in (wordpress["dismiss"], django["like"]):
        token = chat.line.chat.issue_token()
        assert (
            post(replica.url, payload(event("postback", TO, token, data=data))).status_code == 200
        )
    answers = [r.body["messages"][0]["text"] for r in chat.replies(2)]
    assert answers[0].startswith("ไม่สนใจ: python wordpress plugin developer")
    assert answers[1].startswith("👍 python django backend engineer")
    then = [("j3", "senior python wordpress plugin developer"), ("j4", "django backend engineer")]
    chat.board.serve_jobs("/jobs", then)  # j4: no "python"
    deadline = time.monotonic() + 30
    while len(chat.line.delivered) < 3 and time.monotonic() < deadline:
        time.sleep(0.2)
    # Both were on the board at once: one read judged them, the one like the 👎 held back.
    assert chat.line.delivered[2:] == ["django backend engineer"]
    drawn = json.dumps(chat.line.pushes[-1].body, ensure_ascii=False)
    assert "not your words: like “python django backend engineer”" in drawn
    assert chat.settled("sent")["board:j3"] == "ignored"  # seen, held back
    chat.message(replica, "ทำไม board:j3")
    why = chat.replies(3)[-1].body["messages"][0]["text"]
    assert "held back: like a 👎 of “python wordpress plugin developer”" in why, why
    assert not chat.line.chat.violations
    chat.stop()
    check = chat.run("check").stdout
    assert "held back: like a 👎 of “python wordpress plugin developer”" in check, check
    assert "not your words: like “python django backend engineer”" in check, check
