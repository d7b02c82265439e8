"""LINE: Flex cards within LINE's limits (render.py), pushes and replies with line-bot-sdk
(push.py), the webhook's events (webhook.py) and the rich menu (richmenu.py). The only folder
that imports line-bot-sdk."""
