"""A listing: one job as hunter sees it, whatever page it came from."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class Listing:
    """One job on one source.

    ``job_id`` is ``"<source>:<native id>"``: the same listing has the same id on every poll and
    on every machine, which is what makes "never twice" possible. The fields after `summary`
    are what a freelancer decides by, where the source says them: all optional.
    """

    job_id: str
    source: str
    title: str
    url: str
    budget: int | None = None  # None: not stated; the lower end of a range
    summary: str = ""
    budget_max: int | None = None  # the upper end of a range
    currency: str = "THB"  # ISO 4217: the item's own, or its source's
    category: str = ""
    engagement: str = ""  # freelance, contract, part-time, full-time (as the source says)
    offers: int | None = None  # offers freelancers made so far: the competition
    deadline: str = ""  # ISO 8601: when the post closes
    keywords: tuple[str, ...] = ()  # the include keywords it matched (its card can mute one)
    like: str = ""  # no keyword matched: the title of the 👍'd listing it is like
    kin: str = ""  # no keyword matched: the chat's keyword whose kind of job it is
    near: str = ""  # no keyword matched: the chat's keyword next to whose role it is
    period: str = ""  # what the budget is per: "" a whole job, or hour, day, week, month, year
    bound: str = ""  # "from": the budget is its least ("15,000+"); "up to": its most
    posted: str = ""  # ISO 8601, UTC: when the board says it was posted; "" not stated
    company: str = ""  # who posts it (the employer, the client), where the board says
    location: str = ""  # where the job is, or who may apply ("Bangkok", "APAC", "Remote")
    # One alert per job: the link of the first copy this one was merged with, and
    # why ("same title, same employer, 94% the same text"); or when a re-post alerted anyway
    # (reposts = "alert") was first seen (ISO 8601 date).
    same_as: str = ""
    same_why: str = ""
    reposted: str = ""
    # The copies merged into this alert since it was sent, (source, link) each: shown on it
    # when it is edited ("also on <board>"); kept on its row, not in its payload.
    also_on: tuple[tuple[str, str], ...] = ()

    def payload(self) -> dict[str, Any]:
        """What the store keeps, so a retry days later can still render the alert. Made by
        hand (dataclasses.asdict deep-copies every field: most of a record's time)."""
        data = {name: getattr(self, name) for name in _PAYLOAD}
        data["keywords"] = list(self.keywords)
        if self.like:
            data["like"] = self.like
        if self.kin:
            data["kin"] = self.kin
        if self.near:
            data["near"] = self.near
        return data

    @classmethod
    def from_payload(cls, job_id: str, data: dict[str, Any]) -> Listing:
        """From a stored payload, including one written before a field existed."""

        def number(key: str) -> int | None:
            value = data.get(key)
            return value if isinstance(value, int) and not isinstance(value, bool) else None

        return cls(
            job_id=job_id,
            source=str(data.get("source", job_id.split(":", 1)[0])),
            title=str(data.get("title", "")),
            url=str(data.get("url", "")),
            budget=number("budget"),
            summary=str(data.get("summary", "")),
            budget_max=number("budget_max"),
            currency=str(data.get("currency") or "THB"),
            category=str(data.get("category") or ""),
            engagement=str(data.get("engagement") or ""),
            offers=number("offers"),
            deadline=str(data.get("deadline") or ""),
            keywords=tuple(str(k) for k in data.get("keywords") or () if isinstance(k, str)),
            period=str(data.get("period") or ""),
            bound=str(data.get("bound") or ""),
            posted=str(data.get("posted") or ""),
            company=str(data.get("company") or ""),
            location=str(data.get("location") or ""),
            same_as=str(data.get("same_as") or ""),
            same_why=str(data.get("same_why") or ""),
            reposted=str(data.get("reposted") or ""),
            like=str(data.get("like") or ""),
            kin=str(data.get("kin") or ""),
            near=str(data.get("near") or ""),
        )


# A payload's fields: all but the id (its key) and the copies merged since (kept on its row).
_PAYLOAD = tuple(
    f.name for f in fields(Listing) if f.name not in ("job_id", "also_on", "like", "kin", "near")
)
