"""The terminal as a channel: what it prints counts as shown only when someone can read it."""

from __future__ import annotations

import contextlib
import io

from hunter.channels.terminal import TerminalSender
from hunter.deliver.outcome import Kind
from hunter.rules.listing import Listing


class _Gone(io.StringIO):
    """A pipe whose reader has left (`hunter run --once | head -1`)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_a_card_printed_to_a_reader_that_left_is_not_sent() -> None:
    sender = TerminalSender()
    messages = sender.render([Listing("a:1", "a", "Python job", "https://a.test/1")], None, False)
    with contextlib.redirect_stdout(_Gone()):
        gone = sender.push(messages, "key")
    assert gone.kind is Kind.TRANSIENT  # it waits, and is shown to the next reader
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        assert sender.push(messages, "key").kind is Kind.SENT
    assert "Python job" in shown.getvalue()
