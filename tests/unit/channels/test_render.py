"""Whatever a listing holds, the request hunter builds is one LINE accepts."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from hunter.channels.line.render import MAX_PER_PUSH, alt_text, cut, messages, safe_uri, utf16_len
from hunter.rules.listing import Listing
from tests.support.line_limits import limit_errors
from tests.support.line_spec import spec_available, spec_errors

HOSTILE = [
    Listing("s:1", "s", "รับสมัครนักพัฒนา 🚀👩‍💻 " * 900, "https://x.test/1", 10**12, "ก" * 20000),
    Listing("s:2", "s", "XSS", "javascript:alert(1)", None, ""),
    Listing("s:3", "s", "Long link", "https://x.test/?q=" + "a" * 3000, 5, "s"),
    Listing("s:4", "s", "Relative", "/jobs/4", None, ""),
    Listing("s:5", "s", "   ", "", None, ""),
    Listing("s:6", "s", "𝓤𝓷𝓲𝓬𝓸𝓭𝓮 " * 3000, "https://ไทย.test/งาน?x=ไลน์", None, "📣" * 9000),
]


def body(listings: list[Listing]) -> dict[str, object]:
    return {"to": "U" + "0" * 32, "messages": messages(listings)}


def test_hostile_listings_still_make_a_valid_request() -> None:
    request = body(HOSTILE)
    raw = json.dumps(request).encode()
    assert limit_errors(request, len(raw)) == []
    if spec_available():
        assert spec_errors("PushMessageRequest", request) == []


@pytest.mark.skipif(
    not spec_available(), reason="../shared/contracts (LINE's OpenAPI spec) is not here; CI has it"
)
def test_a_full_push_matches_lines_openapi_spec() -> None:
    listings = [HOSTILE[n % len(HOSTILE)] for n in range(MAX_PER_PUSH)]
    assert spec_errors("PushMessageRequest", body(listings)) == []


def test_a_full_push_is_four_carousels_of_twelve_and_a_note() -> None:
    listings = [HOSTILE[0]] * MAX_PER_PUSH
    out = messages(listings, note="3 more new listings wait for the next poll")
    assert [m["type"] for m in out] == ["flex"] * 4 + ["text"]
    assert all(len(m["contents"]["contents"]) == 12 for m in out[:4])
    request = body(listings)
    request["messages"] = out
    assert limit_errors(request, len(json.dumps(request).encode())) == []
    if spec_available():
        assert spec_errors("PushMessageRequest", request) == []


def test_every_listing_is_still_alerted_cut_to_fit() -> None:
    out = messages(HOSTILE)
    bubbles = out[0]["contents"]["contents"]
    assert len(bubbles) == len(HOSTILE)
    first_title = bubbles[0]["body"]["contents"][0]["text"]
    assert first_title.startswith("รับสมัครนักพัฒนา 🚀") and first_title.endswith("…")
    assert "footer" not in bubbles[1]  # javascript: link dropped, listing kept
    # a link of 3,018 characters: no button holds it, and it comes whole as text, never cut
    assert "footer" not in bubbles[2]
    assert out[-1]["type"] == "text" and HOSTILE[2].url in out[-1]["text"]
    assert bubbles[4]["body"]["contents"][0]["text"]  # never an empty text


INDEED = "https://cn.indeed.com/pagead/clk/dl?mo=r&ad=" + "-6NYlbfkN0" * 110 + "&jsa=7213"


def test_a_link_longer_than_a_uri_action_still_opens_its_listing() -> None:
    # Issue 62, low 8: a 1,000-character URI action cut Indeed's link to its path, a page that
    # shows no job. Now no card has a cut link; the whole link comes in a text message, which
    # LINE shows as a link (5,000 characters), after the note.
    listings = [
        Listing("i:1", "indeed", "Backend Engineer", INDEED, None, ""),
        Listing("i:2", "indeed", "Data Engineer", "https://cn.indeed.com/viewjob?jk=2", None, ""),
    ]
    out = messages(listings, note="3 more wait")
    uris = [
        b["footer"]["contents"][0]["action"]["uri"]
        for b in out[0]["contents"]["contents"]
        if "footer" in b
    ]
    assert uris == ["https://cn.indeed.com/viewjob?jk=2"]
    assert out[-1]["text"] == f"3 more wait\n\n🔗 Backend Engineer\n{INDEED}"
    request = body(listings)
    request["messages"] = out
    assert limit_errors(request, len(json.dumps(request).encode())) == []
    if spec_available():
        assert spec_errors("PushMessageRequest", request) == []


def test_cut_counts_utf16_units_and_never_splits_a_pair() -> None:
    text = "😀" * 10
    assert utf16_len(cut(text, 7)) <= 7 and cut(text, 7).endswith("…")
    assert cut("short", 10) == "short"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://x.test/a", "https://x.test/a"),
        ("javascript:alert(1)", None),
        ("data:text/html,x", None),
        ("/relative", None),
        ("https://ไทย.test/งาน", "https://xn--o3cw4h.test/%E0%B8%87%E0%B8%B2%E0%B8%99"),
    ],
)
def test_safe_uri(url: str, expected: str | None) -> None:
    assert safe_uri(url) == expected


def test_alt_text_names_the_jobs() -> None:
    text = alt_text(HOSTILE[:2])
    assert text.startswith("2 new jobs: ") and utf16_len(text) <= 400


def test_cards_with_buttons_still_fit_when_ids_and_keywords_are_long() -> None:
    """With the webhook on, every card carries three postback buttons whose data hold a job id
    or a keyword: twelve worst-case cards must still fit a carousel's 50 KB."""
    long_id = "s" * 64 + ":" + "ก" * 150 + "-" + "f" * 64  # the longest id hunter makes
    worst = replace(HOSTILE[0], job_id=long_id, keywords=("ไลน์" * 60,))
    out = messages([worst] * MAX_PER_PUSH, note="more wait", actions=True)
    request = body([worst])
    request["messages"] = out
    assert limit_errors(request, len(json.dumps(request).encode())) == []
    if spec_available():
        assert spec_errors("PushMessageRequest", request) == []
    rows = out[0]["contents"]["contents"][0]["footer"]["contents"][1:]
    labels = [b["action"]["label"] for row in rows for b in row["contents"]]
    assert labels == ["👎 ไม่สนใจ", "ไม่เอาคำนี้", "สมัครแล้ว"]  # no 👍 under an id this long
    [usual] = messages([replace(worst, job_id="fastwork:0c5f7b1e")], actions=True)
    rows = usual["contents"]["footer"]["contents"][1:]
    labels = [b["action"]["label"] for row in rows for b in row["contents"]]
    assert labels == ["👍 สนใจ", "👎 ไม่สนใจ", "ไม่เอาคำนี้", "สมัครแล้ว"]  # two a row
    assert [len(row["contents"]) for row in rows] == [2, 2]
    for card in out[0]["contents"]["contents"]:
        for row in card["footer"]["contents"][1:]:
            for button in row["contents"]:
                assert utf16_len(button["action"]["data"]) <= 300


def test_notices_carry_no_buttons() -> None:
    notice = Listing("hunter:quota:2026-11", "hunter", "📈 190 of 200 used", "")
    [message] = messages([notice], actions=True)
    assert "footer" not in message["contents"]


def test_a_notice_is_told_from_a_job_on_every_channel() -> None:
    # A new user's find: "⚠️ Source fastwork cannot be read" came as a job card, with
    # "💰 งบไม่ระบุ · budget not stated", in a job's colour on Discord
    from hunter.channels.discord.render import COLOR, embed
    from hunter.channels.telegram.render import message

    notice = Listing("hunter:broken:fastwork:1", "hunter", "⚠️ Source fastwork cannot be read", "")
    job = Listing("f:1", "fastwork", "Logo design", "https://f.test/1", None, "")
    card, own = embed(notice), embed(job)
    assert "💰" not in card["description"] and card["color"] != COLOR
    assert "💰" in own["description"] and own["color"] == COLOR
    assert "💰" not in message(notice, None)["text"] and "💰" in message(job, None)["text"]
    [line] = messages([notice])
    assert "💰" not in json.dumps(line, ensure_ascii=False)
    assert "budget not stated" not in json.dumps(line, ensure_ascii=False)


def test_a_long_link_opens_its_listing_on_telegram_and_discord_too() -> None:
    # Issue 62's must-show (8): every alert's link opens its listing, on every channel
    from hunter.channels.discord.render import embed
    from hunter.channels.telegram.render import message

    listing = Listing("i:1", "indeed", "Backend Engineer", INDEED, None, "")
    sent = message(listing, None, actions=True)
    assert sent["reply_markup"]["inline_keyboard"][0][0]["url"] == INDEED
    assert embed(listing)["url"] == INDEED
