"""Telegram's Bot API as a channel (the port is hunter/deliver/channel.py): render.py shows a
listing as one message, send.py sends it with httpx and reads Telegram's answers."""
