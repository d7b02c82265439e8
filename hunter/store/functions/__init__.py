"""The adapters over hunter's PostgreSQL functions: the carrier (carrier.py) and its rooms."""

from hunter.store.functions.carrier import Document, FunctionStore

__all__ = ["Document", "FunctionStore"]
