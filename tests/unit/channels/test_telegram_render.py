"""A subscriber's digest on Telegram (issue 42): the most listings it holds, each a line with its
link, long Thai titles and markup-like text included, within Telegram's 4,096 characters as it
counts them (the text after its HTML is parsed, in UTF-16 units)."""

from __future__ import annotations

from html.parser import HTMLParser

from hunter.channels.telegram.render import DIGEST_MAX, TEXT_MAX, TelegramMessages
from hunter.rules.listing import Listing


class _Shown(HTMLParser):
    """What a reader sees of Telegram HTML, and the links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self.links.append(dict(attrs).get("href") or "")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_a_full_digest_fits_one_message_with_every_link() -> None:
    listings = [
        Listing(
            f"fastwork:{n}",
            "fastwork",
            "ออกแบบโลโก้ร้านกาแฟ <b>ด่วน</b> & แบรนด์ 🚀 " * 8,
            f"https://fastwork.co/job/{n}?a=1&b=2",
            budget=5000 if n % 2 else None,
        )
        for n in range(DIGEST_MAX)
    ]
    [fields] = TelegramMessages().digest(listings, "3 more new listings wait " * 40)
    shown = _Shown()
    shown.feed(fields["text"])
    text = "".join(shown.text)
    assert len(text.encode("utf-16-le")) // 2 <= TEXT_MAX
    assert shown.links == [x.url for x in listings]  # each its own, & and all
    assert text.startswith(f"📬 {DIGEST_MAX} งานใหม่ · new listings")
    assert text.count("<b>ด่วน</b>") >= DIGEST_MAX  # the title's own markup is text
    assert "฿5,000" in text and "more new listings wait" in text


def test_a_digest_of_emoji_titles_with_copies_fits_as_telegram_counts_it() -> None:
    """Issue 55, low 10: titles were cut by characters, but Telegram counts UTF-16 units: a
    digest of emoji titles was 4,163 units, which Telegram refuses. And each line names the
    boards a copy of its job was merged from, with their links (high 2: never hidden)."""
    boards = tuple((f"board-{b}-with-a-long-name", f"https://b{b}.test/j") for b in range(7))
    listings = [
        Listing(
            f"fastwork:{n}",
            "fastwork-" + "x" * 40,
            "🚀🔥💼" * 60,
            f"https://fastwork.co/job/{n}",
            budget=5000,
            budget_max=90000,
            also_on=boards[: n % 3],
        )
        for n in range(DIGEST_MAX)
    ]
    [fields] = TelegramMessages().digest(listings, "🕐 wait " * 200)
    shown = _Shown()
    shown.feed(fields["text"])
    text = "".join(shown.text)
    assert len(text.encode("utf-16-le")) // 2 <= TEXT_MAX
    for listing in listings:
        assert listing.url in shown.links
        for _board, url in listing.also_on[:1]:  # at least the first copy, with its link
            assert url in shown.links
    assert text.count("also on") == sum(1 for x in listings if x.also_on)


def test_a_card_of_emoji_everywhere_fits_as_telegram_counts_it() -> None:
    """Issue 55, low 10: every message, not only a digest, within 4,096 UTF-16 units."""
    from hunter.channels.telegram.render import message

    emoji = "🚀🔥💼" * 400
    listing = Listing(
        "fastwork:1",
        "fastwork",
        emoji,
        "https://fastwork.co/job/1",
        summary=emoji,
        company=emoji,
        location=emoji,
        category=emoji,
        also_on=tuple((f"board{b}", f"https://b{b}.test/") for b in range(10)),
    )
    shown = _Shown()
    shown.feed(message(listing, emoji)["text"])
    assert len("".join(shown.text).encode("utf-16-le")) // 2 <= TEXT_MAX


def test_every_line_of_a_digest_says_why_a_job_not_of_its_words_came() -> None:
    """A job of a word's family, or one like a 👍, is marked on its own line, long titles
    and a full digest included; a job of the chat's own words is not marked."""
    from dataclasses import replace

    base = [
        Listing(f"b:{n}", "board", "งานออกแบบ " * 20, f"https://b.test/{n}", budget=5000)
        for n in range(DIGEST_MAX)
    ]
    listings = [
        replace(x, kin="IT Support")
        if n % 3 == 0
        else replace(x, like="Data Analyst")
        if n % 3 == 1
        else x
        for n, x in enumerate(base)
    ]
    [fields] = TelegramMessages().digest(listings, None)
    shown = _Shown()
    shown.feed(fields["text"])
    text = "".join(shown.text)
    assert len(text.encode("utf-16-le")) // 2 <= TEXT_MAX
    lines = [line for line in text.splitlines() if line.startswith("• ")]
    assert len(lines) == DIGEST_MAX
    for n, line in enumerate(lines):
        if n % 3 == 0:
            assert "💡 a job like “IT Support”" in line
        elif n % 3 == 1:
            assert "💡 like your 👍 “Data Analyst”" in line
        else:
            assert "💡" not in line
