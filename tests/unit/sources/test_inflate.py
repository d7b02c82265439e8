"""Content-Encoding undone chunk by chunk, the size cap applied to what comes out."""

from __future__ import annotations

import gzip
import zlib

import pytest

from hunter.errors import SourceError
from hunter.sources.inflate import Inflater, TooLarge

PAGE = b"<html>" + b"<li>job</li>" * 1000 + b"</html>"


def raw_deflate(data: bytes) -> bytes:
    packer = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


def inflate(body: bytes, encoding: str | None, limit: int = 1 << 20, chunk: int = 7) -> bytes:
    inflater = Inflater(encoding, limit)
    return b"".join(inflater.feed(body[i : i + chunk]) for i in range(0, len(body), chunk))


def gzipped(data: bytes) -> bytes:
    """gzip without its timestamp: the same bytes in every process (pytest-xdist's workers
    must collect the same test ids)."""
    return gzip.compress(data, mtime=0)


@pytest.mark.parametrize(
    ("encoding", "body"),
    [
        (None, PAGE),
        ("identity", PAGE),
        ("gzip", gzipped(PAGE)),
        ("x-gzip", gzipped(PAGE)),
        ("deflate", zlib.compress(PAGE)),
        ("deflate", raw_deflate(PAGE)),  # what some servers send as "deflate"
        ("gzip, gzip", gzipped(gzipped(PAGE))),
        ("deflate, GZIP", gzipped(zlib.compress(PAGE))),
    ],
    ids=["none", "identity", "gzip", "x-gzip", "zlib", "raw-deflate", "gzip-twice", "both"],
)
def test_encodings_are_undone(encoding: str | None, body: bytes) -> None:
    assert inflate(body, encoding) == PAGE


def test_the_limit_counts_decoded_bytes_whatever_the_layers() -> None:
    bomb = gzip.compress(gzip.compress(bytes(50 << 20)))
    assert len(bomb) < 100_000
    with pytest.raises(TooLarge):
        inflate(bomb, "gzip, gzip", limit=10 << 20, chunk=65536)
    assert inflate(gzip.compress(PAGE), "gzip", limit=len(PAGE)) == PAGE  # exactly at the limit


@pytest.mark.parametrize(
    ("encoding", "body", "words"),
    [
        ("br", b"\x00", r"does not read \(br\)"),
        ("gzip", b"not gzip at all", "damaged"),
    ],
)
def test_what_cannot_be_read_is_the_sources_error(encoding: str, body: bytes, words: str) -> None:
    with pytest.raises(SourceError, match=words):
        inflate(body, encoding)
