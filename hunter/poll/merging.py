"""One alert per job: a new listing that is a job already sent, or about to be, to a
chat is recorded for that chat as seen, not sent again. hunter/rules/likeness.py says whether
two listings are one job; the store's note (store/likeness.py) found the earlier ones of its
title; this decides, listing by listing, in the order the page shows them.

Nothing is hidden from a chat that did not get the first copy (filtered, muted, a chat that
joined later, a first copy only primed): it gets this one as usual. A re-post on the same board
(a new id) is merged too, unless the source says `reposts = "alert"`: then it is alerted,
marked as re-posted. A chat with `merge = false` gets every copy.

Only a listing hunter never recorded can be a later copy. A read mostly shows what the last
one showed: the marks of the last page recorded (PAGE, kept with the source's schedule) say
which, so their likeness is never made nor sent, and a read whose page is all known asks the
store nothing (a quiet cron run of 50 sources made 1,000 likenesses, about a quarter of its
time, to find nothing). A mark is a CRC-32 of the id: one that collides makes a new listing
look known, so it is alerted as usual, never merged (a missed merge, never a lost listing)."""

from __future__ import annotations

import hashlib
import zlib
from collections import deque
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from hunter.rules.destinations import OWNER, Destinations
from hunter.rules.likeness import Likeness, Sameness, in_another_language, same_job
from hunter.rules.listing import Listing
from hunter.rules.sites import site_of
from hunter.settings.config import Config
from hunter.sources.spec import SourceConfig
from hunter.store.base import Store
from hunter.store.edits import Merged
from hunter.store.likeness import Earlier, Noted
from hunter.store.records import SourceState

# Earlier listings of one title a fresh one is compared with, at most (the newest): the store's
# note answers as many of each kind (sql/postgres/027_turns.sql).
BUCKET_MOST = 96
DIGEST, PAGE_AT = "page_digest", "page_at"  # the last recorded page's digest, and when
REFRESH = timedelta(days=1)  # a page shown again unchanged is recorded again after this
PAGE = "page"  # the key of the last recorded page's marks in a source's schedule document


def page_marks(listings: Iterable[Listing]) -> list[str]:
    """The marks of a page's listings, as a source's schedule document keeps them."""
    return sorted(set(_marks(listings)))


def known_marks(cadence: Mapping[str, object] | None) -> frozenset[str]:
    """The marks of the last page recorded ({} before any, or from an older hunter)."""
    found = cadence.get(PAGE) if cadence else None
    if not isinstance(found, list):
        return frozenset()
    return frozenset(m for m in found if isinstance(m, str))


class Copies:
    """The earlier listings of one source's read (what the store noted, then each fresh
    listing of the read as it is decided), and the decision for each fresh listing."""

    def __init__(
        self,
        listings: Sequence[tuple[Listing, Likeness | None]],
        noted: Noted,
        alert_reposts: bool,
        merges: Callable[[str], bool],
        now: datetime,
        shown_before: frozenset[str] = frozenset(),
    ) -> None:
        # The read's, in the page's order, each with its likeness (None: on the last page)
        self.listings = listings
        # By title key, the oldest first; the newest BUCKET_MOST of each (the store answers
        # as many of each kind): a page of one title costs the same, however long.
        self._earlier: dict[str, deque[Earlier]] = {}
        # By employer, for its job in another language under another title (the store
        # answers those too: languages_apart.py)
        self._employers: dict[str, deque[Earlier]] = {}
        for earlier in noted.earlier:
            self._keep(earlier)
        self.fresh = noted.fresh
        self._alert_reposts = alert_reposts
        self._merges = merges  # does this chat merge copies ('' the owner's)?
        self._now = now
        self.merged = 0  # listings merged with a first copy in this read
        self.shown_before = shown_before  # the job ids of the read the last page showed too
        self.also: list[Merged] = []  # each merged, on its first's row for each chat

    @classmethod
    def of(
        cls,
        listings: Sequence[Listing],
        source: SourceConfig,
        store: Store,
        config: Config,
        destinations: Destinations,
        now: datetime,
        keep: bool = True,
        last: Mapping[str, object] | None = None,
    ) -> Copies:
        """A read's listings with their likeness, and the earlier listings of their titles
        (one call to the store, which keeps the new ones' likeness unless `keep` is False:
        `hunter check` changes nothing). `last`: the source's schedule document, with the
        marks of the last page recorded, whose listings are no copy (their likeness neither
        made nor sent; all of them: no call)."""
        known = known_marks(last)
        marks = _marks(listings)
        bare = _shares_its_site(source, config)
        pairs: list[tuple[Listing, Likeness | None]] = [
            (x, None if m in known else _comparable(Likeness.of(x), bare))
            for x, m in zip(listings, marks, strict=True)
        ]
        before = frozenset(x.job_id for x, m in zip(listings, marks, strict=True) if m in known)
        unknown = [(x, lk) for x, lk in pairs if lk is not None]
        firsts, copies = _within(unknown)
        window = now - timedelta(days=config.prune_after_days)
        noted = store.likeness.note(firsts, window, now, keep) if firsts else Noted(frozenset(), ())
        if copies:  # decided against their first in this read, as fresh as it
            noted = Noted(noted.fresh | copies, noted.earlier)

        def merges(chat: str) -> bool:  # a [[chats]]'s `merge`, else the config's
            named = destinations.chat_named(chat) if chat != OWNER else None
            return config.merge if named is None or named.merge is None else named.merge

        return cls(pairs, noted, source.reposts == "alert", merges, now, before)

    def decide(self, listing: Listing, likeness: Likeness | None) -> tuple[Listing, Earlier | None]:
        """The listing as recorded (marked), and its first copy: the oldest earlier listing
        that is the same job (None: a job not seen before, or a re-post alerted)."""
        if listing.job_id not in self.fresh or likeness is None:
            return listing, None
        found = self._first(likeness, listing.source)
        if found is None:
            return listing, None
        first, sameness = found
        # A re-post is the board's listing again later; a copy on the same page is no re-post
        if first.source == listing.source and self._alert_reposts and first.seen_at < self._now:
            return replace(listing, reposted=first.seen_at.date().isoformat()), None
        why = f"the same job as {first.url} on {first.source}: {sameness}"
        return replace(listing, same_as=first.url, same_why=why), first

    def merged_for(
        self, first: Earlier | None, chats: Collection[str], listing: Listing
    ) -> frozenset[str]:
        """Of `chats` (that want `listing` now), those that got its first copy; each such
        first alert gains "also on" this listing's board (`also`, for store/edits.py)."""
        if first is None:
            return frozenset()
        merged = frozenset(c for c in chats if c in first.chats and self._merges(c))
        self.merged += bool(merged)
        self.also += [Merged(c, first.job_id, listing.source, listing.url) for c in merged]
        return merged

    def add(
        self,
        listing: Listing,
        likeness: Likeness | None,
        chats: Collection[str],
        first: Earlier | None = None,
    ) -> None:
        """A fresh listing decided: an earlier one for the rest of the read, sent to `chats`,
        or merged into `first`: then the chats that have `first` have it too (100
        copies of one job in one read gave 4 alerts once the first left the bucket)."""
        if first is not None:
            chats = frozenset(chats) | first.chats
        if listing.job_id in self.fresh and likeness is not None and likeness.title:
            self._keep(
                Earlier(
                    job_id=listing.job_id,
                    source=listing.source,
                    url=listing.url,
                    title=listing.title,
                    likeness=likeness,
                    seen_at=self._now,
                    chats=frozenset(chats),
                )
            )

    def _keep(self, earlier: Earlier) -> None:
        title, company = earlier.likeness.title, earlier.likeness.company
        self._earlier.setdefault(title, deque(maxlen=BUCKET_MOST)).append(earlier)
        if company:
            self._employers.setdefault(company, deque(maxlen=BUCKET_MOST)).append(earlier)

    def _first(self, likeness: Likeness, source: str) -> tuple[Earlier, Sameness] | None:
        employer = self._employers.get(likeness.company, ())
        others = [e for e in employer if in_another_language(likeness, e.likeness)]
        for earlier in [*self._earlier.get(likeness.title, ()), *others]:
            sameness = same_job(likeness, earlier.likeness, earlier.source == source)
            if sameness.same:
                return earlier, sameness
        return None


def _within(
    unknown: Sequence[tuple[Listing, Likeness]],
) -> tuple[list[tuple[Listing, Likeness]], frozenset[str]]:
    """A read's unknown listings split into the first of each job on it, which the store is
    asked about and keeps, and the ids of the rest: copies of one of those on the same page
    (one job under many links). The store then holds one likeness of the job, not 100 whose
    newest 32 (what it answers of a title) would hide the first copy from the next read or
    the next source (50 copies on each of two boards gave 51 alerts)."""
    firsts: list[tuple[Listing, Likeness]] = []
    copies: set[str] = set()
    by_title: dict[str, list[Likeness]] = {}
    for listing, likeness in unknown:
        kept = by_title.setdefault(likeness.title, [])
        if any(same_job(likeness, first, same_board=True).same for first in kept):
            copies.add(listing.job_id)
            continue
        if len(kept) < BUCKET_MOST:
            kept.append(likeness)
        firsts.append((listing, likeness))
    return firsts, frozenset(copies)


def _comparable(likeness: Likeness, bare: bool) -> Likeness | None:
    """The likeness to keep and look up, if any. `bare`: a title and a link are enough (two
    searches of one board: the same job under both is one page, likeness.same_job)."""
    if likeness.comparable or (bare and likeness.title and likeness.link):
        return likeness
    return None


def _shares_its_site(source: SourceConfig, config: Config) -> bool:
    """Whether another of the config's sources reads `source`'s site (its host): two
    searches of one board, whose bare titles are kept to be merged by their link."""
    site = site_of(source.url)
    return sum(site_of(s.url) == site for s in config.sources) > 1


def with_page(
    schedule: dict[str, Any],
    recorded: Sequence[Listing] | None,
    last: SourceState | None,
    now: datetime,
) -> dict[str, Any]:
    """A source's next read (timetable.plan's) whose schedule document holds the marks of
    the page this read recorded, its digest and when (`now`), or, when it recorded none (a
    failed read, an empty page, the same page again: same_page), the last page's."""
    before = dict(last.cadence) if last else {}
    page = {key: before[key] for key in (PAGE, DIGEST, PAGE_AT) if key in before}
    if recorded:
        page = {PAGE: page_marks(recorded), DIGEST: page_digest(recorded)}
        page[PAGE_AT] = now.isoformat()
    return {**schedule, "cadence": {**schedule["cadence"], PAGE: [], **page}}


def page_digest(listings: Iterable[Listing]) -> str:
    """A page's listings as one digest of their ids (SHA-256: two pages of one digest show the
    same listings, whatever the ids)."""
    ids = "\n".join(sorted({x.job_id for x in listings}))
    return hashlib.sha256(ids.encode()).hexdigest()[:32]


def same_page(
    listings: Sequence[Listing], last: SourceState | None, now: datetime, keep_days: float
) -> bool:
    """Whether a read shows exactly the listings the last recorded page showed, recorded less
    than REFRESH (and a quarter of `keep_days`, prune_after_days) ago: nothing on it is new,
    and recording it again would only refresh when they were last seen, which the prune
    needs long before it forgets them (a quiet read wrote a round trip a source)."""
    cadence = last.cadence if last else None
    if not listings or not cadence or cadence.get(DIGEST) != page_digest(listings):
        return False
    try:
        recorded = datetime.fromisoformat(str(cadence.get(PAGE_AT)))
    except ValueError:
        return False
    refresh = min(REFRESH, timedelta(days=keep_days / 4))
    return now - refresh < recorded <= now


def _marks(listings: Iterable[Listing]) -> list[str]:
    return [f"{zlib.crc32(x.job_id.encode()):08x}" for x in listings]
