"""Delivery: claim -> render -> send -> mark, for pushes and replies alike; the month's pace and
allowance; what a channel's answer means."""
