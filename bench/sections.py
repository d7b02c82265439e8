"""bench/RESULTS.md is written by several scripts, each owning one `## ` section of it."""

from __future__ import annotations

from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def replace_section(heading: str, lines: list[str], path: Path = RESULTS) -> None:
    """Put `lines` under `heading` (replacing what was there, or at the end), leaving every
    other section as it is."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    head, _, rest = text.partition(heading)
    following = rest[rest.find("\n## ") :] if "\n## " in rest else ""
    section = "\n".join([heading, "", *lines, ""])
    path.write_text(f"{head.rstrip()}\n\n{section}{following}", encoding="utf-8")
