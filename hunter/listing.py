"""A listing: one job as hunter sees it, whatever page it came from."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Listing:
    """One job on one source.

    ``job_id`` is ``"<source>:<native id>"``: the same listing has the same id on every poll and
    on every machine, which is what makes "never twice" possible.
    """

    job_id: str
    source: str
    title: str
    url: str
    budget: int | None = None
    summary: str = ""

    def payload(self) -> dict[str, Any]:
        """What the store keeps, so a retry days later can still render the alert."""
        data = asdict(self)
        del data["job_id"]
        return data

    @classmethod
    def from_payload(cls, job_id: str, data: dict[str, Any]) -> Listing:
        return cls(
            job_id=job_id,
            source=str(data.get("source", job_id.split(":", 1)[0])),
            title=str(data.get("title", "")),
            url=str(data.get("url", "")),
            budget=data.get("budget"),
            summary=str(data.get("summary", "")),
        )
