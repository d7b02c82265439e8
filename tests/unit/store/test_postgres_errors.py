"""How a PostgreSQL connection error is said: one line, no secret, with what it often is."""

from __future__ import annotations

import pytest

from hunter.store.postgres import _reason


@pytest.mark.parametrize(
    ("driver", "said"),
    [
        # Render's Internal Database URL from a laptop: the External one is to use
        (
            "failed to resolve host 'dpg-abc123-a': [Errno -2] Name or service not known",
            "use Render's External Database URL",
        ),
        # A new user's: Supabase's direct address, IPv6 only, from an IPv4-only machine
        (
            'could not translate host name "db.abcdefghijkl.supabase.co" to address: '
            "Name or service not known",
            "Supabase's direct address is IPv6 only; use its pooler's connection string",
        ),
    ],
)
def test_a_name_that_does_not_resolve_says_what_it_often_is(driver: str, said: str) -> None:
    reason = _reason(OSError(driver))
    assert "does not resolve" in reason and said in reason
    assert "\n" not in reason
