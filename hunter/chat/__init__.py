"""The chat talks back: each channel's webhook requests (LINE's signed, Telegram's with their
secret) become kept events (inbox.py),
answered by replies (answers.py, in the words of texts.py).

Every answer is a reply, never a push (LINE does not count replies against the month's
messages). Each webhook event is handled once, whichever replica the channel reaches and
however often it redelivers it, and an event its channel got a 200 for is never lost: it is in the
store before the 200 and stays there until it is answered.
"""

from hunter.chat.answers import Chat
from hunter.chat.inbox import Inbox

__all__ = ["Chat", "Inbox"]
