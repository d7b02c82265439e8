"""How a source's reads of a day are shared among its hours. Pure:
listings an hour in, reads a second in each local hour out ("densities"); cadence.py learns
the rates and integrates the densities into the next read.

Three shares, each for its own case:
- `learned`: what the hours ask on their own (interval_at): about one read per listing
  expected in an hour it posts in, the square-root rule in a quiet one. It sets how many reads
  a day a source deserves (a board of 3 a day asks far fewer than the budget).
- `levelled`: a known board's reads, for the share of its listings seen soon: the busiest
  hours at one interval, the others at the slowest. Waiting time is what the reads buy, and a
  read is worth the listings it finds, so a read in a busy hour is worth more than one in a
  quiet hour; no listing of a busy hour waits longer than another. Chosen, of the ways to
  cover the busiest k hours within the reads, by the smallest 90th percentile of the wait.
  On the rates of a board of 100 a day (bench/fresh.py's), 96 reads a day wait 5.0 / 8.9 min
  (median / p90) where the learned shape scaled to 96 waits 5.4 / 10.9 and the square-root
  rule 5.6 / 10.4 (test_cadence.py).
- `explored`: a board little known, whose hours may hold a busy morning its first page did
  not reach: every hour keeps what it asks and the rest of the reads go to each hour as it
  may post (`Cadence.hopeful`), the hours least watched most.
"""

from __future__ import annotations

import math

HOURS = 24
# Of interval_minutes: the square-root rule's interval at one listing an hour, as a floor in
# busy hours and as the rule in quiet ones (bench/fresh.py measured both against the targets
# of the first schedule: a board of 100 a day and one of 3 a day on a 5-minute cron)
BUSY_SQRT = 0.85
QUIET_SQRT = 0.75
LISTINGS_PER_READ = 1.1  # a busy hour's read finds about this many new listings
SOON = 0.9  # `levelled` makes the wait of this share of the listings shortest


def interval_at(rate: float, posting: float) -> float:
    """Seconds between reads in an hour of `rate` listings an hour, before the bounds. In an
    hour it posts in (a listing an hour or more): one read per LISTINGS_PER_READ listings
    expected, never further apart than `posting` (the user's interval_minutes), and never
    closer than the square-root rule's spacing (BUSY_SQRT of `posting` at one an hour). In
    a quiet hour: the square-root rule (QUIET_SQRT of `posting` at one an hour), never
    closer than `posting`."""
    if rate <= 0:
        return math.inf
    if rate >= 1.0:
        root = BUSY_SQRT * posting / math.sqrt(rate)
        return max(root, min(posting, LISTINGS_PER_READ * 3600.0 / rate))
    return max(posting, QUIET_SQRT * posting / math.sqrt(rate))


def learned(rates: list[float], posting: float, fastest: float, slowest: float) -> list[float]:
    """Reads a second in each local hour as its rate asks, within the bounds."""
    return [1 / min(max(interval_at(r, posting), fastest), slowest) for r in rates]


def levelled(rates: list[float], total: float, least: float, most: float) -> list[float]:
    """`total` reads a second over the hours (densities summed), the busiest hours at one
    density (at most `most`), the others at `least`: of the ways to do that, the one whose
    wait for SOON of the listings is shortest. The wait of a listing read every I seconds is
    even on [0, I], so that wait has a closed form for each number of hours covered."""
    mass = sum(rates)
    if mass <= 0 or total <= least * HOURS:  # nothing learned, or the slowest spends it all
        return [max(least, total / HOURS)] * HOURS
    order = sorted(range(HOURS), key=lambda h: -rates[h])
    best, chosen, covered = math.inf, (0, least), 0.0
    for k in range(1, HOURS + 1):
        covered += rates[order[k - 1]] / mass
        density = min(most, (total - least * (HOURS - k)) / k)
        if density <= least:
            break
        wait = _quantile(SOON, covered, 1 / density, 1 / least)
        if wait < best:
            best, chosen = wait, (k, density)
    k, density = chosen
    busiest = set(order[:k])
    return [density if h in busiest else least for h in range(HOURS)]


def _quantile(share: float, covered: float, often: float, rarely: float) -> float:
    """The wait within which `share` of the listings are read, when `covered` of them come in
    hours read every `often` seconds and the rest in hours read every `rarely`."""
    wait = share / (covered / often + (1 - covered) / rarely)
    if wait <= often:
        return wait
    return rarely * (share - covered) / (1 - covered)


def explored(
    learned: list[float], hopeful: list[float], total: float, least: float, most: float
) -> list[float]:
    """`total` reads a second over the hours: where the learned densities ask for more, each
    scaled alike (scaled_down); where they ask for fewer, every hour keeps its learned density
    and the same share of each hour's hopeful density is added, the share whose reads make up
    `total` (none past `most`): the hours least known get the reads."""
    asked = sum(learned)
    if asked >= total:
        return scaled_down(learned, total, least)
    # sum(min(most, max(x, s * h))) is linear in s between the shares where an hour's hopeful
    # density overtakes its learned one (x / h: the hour joins the slope) and reaches the
    # fastest (most / h: it leaves), so those turns are walked in order.
    turns = sorted(
        turn
        for x, h in zip(learned, hopeful, strict=True)
        if h > 0 and x < most
        for turn in ((x / h, h), (most / h, -h))
    )
    level, slope, share = asked, 0.0, 0.0
    for at, change in turns:
        if level + slope * (at - share) >= total:
            share += (total - level) / slope
            break
        level, share, slope = level + slope * (at - share), at, slope + change
    else:  # every hour that can be lifted is at the fastest
        share = math.inf
    return [
        min(most, max(x, share * h)) if h > 0 else x for x, h in zip(learned, hopeful, strict=True)
    ]


def scaled_down(learned: list[float], total: float, least: float) -> list[float]:
    """The learned densities times the one factor that makes their sum `total`, an hour held
    at `least` (the slowest) where the factor would take it below."""
    pinned: set[int] = set()
    while True:
        free = sum(x for h, x in enumerate(learned) if h not in pinned)
        factor = (total - least * len(pinned)) / free if free > 0 else 1.0
        below = {h for h, x in enumerate(learned) if h not in pinned and x * factor < least}
        if not below:
            return [least if h in pinned else x * factor for h, x in enumerate(learned)]
        pinned |= below
