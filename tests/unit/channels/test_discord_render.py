"""A listing's text on Discord is shown as written (issue 45, finding 12): Discord reads
Markdown in an embed, so a summary "[jobboard.fastwork.co/apply](https://evil...)" showed as
a masked link to elsewhere. Every character it reads as markup is escaped (a backslash before
any punctuation shows it as it is), within Discord's sizes."""

from __future__ import annotations

import re

import pytest

from hunter.channels.discord.render import DESCRIPTION_MAX, TITLE_MAX, embed
from hunter.rules.listing import Listing

MASKED = "[jobboard.fastwork.co/apply](https://evil.example/x)"


def listing(title: str, summary: str) -> Listing:
    return Listing("a:1", "a", title, "https://x.test/1", None, summary)


def unescaped(text: str, char: str) -> bool:
    """Whether `char` appears in `text` without a backslash before it."""
    return re.search(rf"(?<!\\){re.escape(char)}", text) is not None


def test_a_masked_link_in_a_summary_is_its_words_not_a_link() -> None:
    card = embed(listing("**Logo** for `shop`", f"apply at {MASKED} > now ~~or~~ __never__"))
    assert "\\[jobboard.fastwork.co/apply\\]\\(https://evil.example/x\\)" in card["description"]
    for char in "[]()*_~`>":
        assert not unescaped(card["description"], char), char
        assert not unescaped(card["title"], char), char
    assert card["title"] == "\\*\\*Logo\\*\\* for \\`shop\\`"
    assert card["url"] == "https://x.test/1"  # the title still links to the listing itself


@pytest.mark.parametrize("size", [TITLE_MAX - 1, TITLE_MAX, TITLE_MAX + 1, 1000])
def test_escaped_text_stays_within_discords_sizes(size: int) -> None:
    card = embed(listing("[" * size, "(" * (3 * size)))
    assert len(card["title"]) <= TITLE_MAX and len(card["description"]) <= DESCRIPTION_MAX
    assert not card["title"].rstrip("…").endswith("\\")  # never half an escape
    assert not card["description"].rstrip("…").endswith("\\")
