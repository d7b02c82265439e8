"""hunter's public HTTP side, served when PORT is set: /healthz for platforms and uptime
pingers (health.py), and the channels' webhooks (hunter/chat/), on a server that bounds what a
stranger on the internet can cost it (server.py, with its numbers in limits.py)."""
