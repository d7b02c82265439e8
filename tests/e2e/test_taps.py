"""👍 and 👎 under each card (issue 54), as a subscriber on Telegram meets them: `hunter run`
with its webhook, a board polled every 3 s (tests/e2e/test_subscribers.py's community). After a
👎, a listing like it is held back and /why says so; after a 👍, a listing like it that the
chat's words miss comes, marked "not your words"; /places in Thai takes effect at once."""

from __future__ import annotations

import pytest

from tests.e2e.test_subscribers import STRANGER, Community, community, titles

__all__ = ["community"]  # the fixture, used by name


def card_of(community: Community, title: str) -> dict[str, str]:
    """The callback data of the buttons under `title`'s card to the stranger, by verb."""
    [card] = [
        s
        for s in community.telegram.delivered
        if s.chat_id == STRANGER and s.text.startswith(title)
    ]
    keys = [b for row in card.fields["reply_markup"]["inline_keyboard"] for b in row]
    return {
        b["callback_data"].split(" ", 1)[0]: b["callback_data"]
        for b in keys
        if "callback_data" in b
    }


def tap(community: Community, data: str) -> str:
    before = len(community.telegram.texts(STRANGER))
    assert community.telegram.update(community.telegram.tap(STRANGER, data)) == 200
    return community.read(STRANGER, before + 1)[-1]


@pytest.mark.parametrize("community", ["open"], indirect=True)
def test_a_thumbs_down_holds_back_a_listing_like_it_and_a_thumbs_up_draws_one(
    community: Community,
) -> None:
    community.say(STRANGER, "/start python")
    count = len(community.telegram.texts(STRANGER))
    community.post("Python WordPress plugin developer", "Python Django backend engineer")
    got = community.read(STRANGER, count + 2)
    assert sorted(titles(got[count:])) == [
        "Python Django backend engineer",
        "Python WordPress plugin developer",
    ]
    buttons = card_of(community, "Python WordPress plugin developer")
    assert set(buttons) == {"like", "dismiss", "mute", "applied"}
    assert tap(community, buttons["dismiss"]).startswith("ไม่สนใจ: Python WordPress")
    liked = tap(community, card_of(community, "Python Django backend engineer")["like"])
    assert liked.startswith("👍 Python Django backend engineer")
    count = len(community.telegram.texts(STRANGER))
    community.post("Senior Python WordPress plugin developer", "Django backend engineer")
    [drawn] = community.read(STRANGER, count + 1)[count:]
    assert drawn.startswith("Django backend engineer")  # not its word, like its 👍
    assert "not your words: like “Python Django backend engineer”" in drawn
    # Both came in one read: the one like its 👎 was judged with the one that came, and held.
    assert "Senior Python WordPress plugin developer" not in titles(
        community.telegram.texts(STRANGER)
    )
    why = community.say(STRANGER, "/why board:j2")
    assert "held back: like a 👎 of “Python WordPress plugin developer”" in why, why
    assert "deleted" in community.say(STRANGER, "/forget")
    assert community.rows_naming("telegram:999") == []  # its taps too


@pytest.mark.parametrize("community", ["open"], indirect=True)
def test_a_subscriber_says_where_it_can_work_in_thai(community: Community) -> None:
    community.say(STRANGER, "/start python")
    said = community.say(STRANGER, "/places กรุงเทพ ปริมณฑล")
    assert said.splitlines()[0] == "ที่ทำงาน · places: กรุงเทพ, ปริมณฑล"
    assert "the last 7 days would have brought 0 of 1" in said  # the seed: not its word
    assert "ที่ทำงาน · places: กรุงเทพ, ปริมณฑล" in community.say(STRANGER, "/words")
    assert "ไม่รู้จักสถานที่" in community.say(STRANGER, "/places Qwertyville")
    assert "every place" in community.say(STRANGER, "/places all")


@pytest.mark.parametrize("community", ["open"], indirect=True)
def test_a_subscriber_writes_its_places_as_a_listing_does(community: Community) -> None:
    """Issue 69: "Remote (US)" was refused as an unknown place, and "remote LATAM" read as
    every remote job and all of LATAM on site. Written as a listing's location is, a place
    with a word for remote first is remote work open to that place."""
    community.say(STRANGER, "/start python")
    said = community.say(STRANGER, "/places Remote (US), Austin, TX")
    assert said.splitlines()[0] == "ที่ทำงาน · places: Remote (US), Austin, TX"
    count = len(community.telegram.texts(STRANGER))
    community.post(
        "Python engineer (Remote, Germany)", "Python developer (Remote - US only)", "Python dev"
    )
    got = titles(community.read(STRANGER, count + 2)[count:])
    assert sorted(got) == ["Python dev", "Python developer (Remote - US only)"]  # no place: kept
    why = community.say(STRANGER, "/why board:j0")
    assert "open to Germany (this chat works in Remote (US), Austin, TX)" in why, why


@pytest.mark.parametrize("community", ["open"], indirect=True)
def test_a_job_written_in_other_words_comes_marked_as_a_job_like_its_word(
    community: Community,
) -> None:
    """Issue 63: someone who types "helpdesk" wants "Technical Support Engineer", and hears of
    it, told it is not their word but a job like it; a pastry chef never comes."""
    community.say(STRANGER, "/start helpdesk")
    count = len(community.telegram.texts(STRANGER))
    community.post("Technical Support Engineer", "Pastry Chef")
    [card] = community.read(STRANGER, count + 1)[count:]
    assert card.startswith("Technical Support Engineer")
    assert "not your words: a job like “helpdesk”" in card
    count = len(community.telegram.texts(STRANGER))
    community.post("Help Desk Agent")  # its own word, spelt in two
    [card] = community.read(STRANGER, count + 1)[count:]
    assert card.startswith("Help Desk Agent") and "not your words" not in card
    assert "Pastry Chef" not in titles(community.telegram.texts(STRANGER))
