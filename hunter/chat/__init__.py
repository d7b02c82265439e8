"""The LINE chat talks back: LINE's signed webhook requests become kept events (inbox.py),
answered by replies (answers.py, in the words of texts.py).

Every answer is a reply, never a push: LINE does not count replies against the month's
messages. Each webhook event is handled once, whichever replica LINE reaches and however
often LINE redelivers it, and an event LINE got its 200 for is never lost: it is in the
store before the 200 and stays there until it is answered.
"""

from hunter.chat.answers import Chat
from hunter.chat.inbox import Inbox

__all__ = ["Chat", "Inbox"]
