"""Content-Encoding undone as the bytes arrive, with the size cap applied to what comes out.

httpx inflates a whole network chunk in one call: 1.8 KB of `gzip, gzip` on the wire became
1 GB in memory before any limit could look at it. Here every layer inflates at most the bytes
still allowed (zlib's `max_length`), so a bomb is refused after `limit` bytes of output,
whatever the number of layers, and memory stays near that limit.
"""

from __future__ import annotations

import zlib

from hunter.errors import SourceError


class TooLarge(SourceError):
    """The decoded body would be larger than the limit."""


class _Layer:
    """One gzip or deflate layer; its output never exceeds the limit it is given."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        # gzip: a gzip header; deflate: a zlib stream (a raw one is taken on the first byte).
        self._inflater = zlib.decompressobj(16 + zlib.MAX_WBITS if encoding == "gzip" else 0)
        self._started = False

    def feed(self, data: bytes, room: int) -> bytes:
        """Inflate `data`, producing at most `room` + 1 bytes (one more means: too large)."""
        if self.encoding == "deflate" and not self._started and data:
            self._started = True
            if data[0] & 0x0F != 8:  # not a zlib header: servers also send raw deflate
                self._inflater = zlib.decompressobj(-zlib.MAX_WBITS)
        try:
            out = self._inflater.decompress(data, room + 1)
        except zlib.error as exc:
            raise SourceError(f"the {self.encoding} body is damaged ({exc})") from exc
        if len(out) > room or self._inflater.unconsumed_tail:
            raise TooLarge("over the limit")
        return out


class Inflater:
    """Undo `Content-Encoding: a, b, ...` (applied in that order, so undone from the last)."""

    def __init__(self, content_encoding: str | None, limit: int) -> None:
        self.limit = limit
        self.size = 0  # decoded bytes so far
        names = [n.strip().lower() for n in (content_encoding or "").split(",") if n.strip()]
        unknown = [n for n in names if n not in ("gzip", "x-gzip", "deflate", "identity")]
        if unknown:
            raise SourceError(
                f"the site answered in an encoding hunter does not read ({', '.join(unknown)})"
            )
        layers = ["gzip" if n == "x-gzip" else n for n in names if n != "identity"]
        self._layers = [_Layer(name) for name in reversed(layers)]

    def feed(self, chunk: bytes) -> bytes:
        """The decoded bytes of one network chunk; TooLarge once past the limit."""
        for layer in self._layers:
            chunk = layer.feed(chunk, self.limit - self.size)
        self.size += len(chunk)
        if self.size > self.limit:
            raise TooLarge("over the limit")
        return chunk
