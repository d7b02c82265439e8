"""The row states in Python and in the schemas' CHECK constraints are one list."""

from __future__ import annotations

import re
from importlib.resources import files

import pytest

from hunter.store.states import OUTBOX, ErrorKind, RowStatus


@pytest.mark.parametrize("dialect", ["sqlite", "postgres"])
def test_the_schema_allows_exactly_the_row_states(dialect: str) -> None:
    sql = files("hunter.store").joinpath("sql", dialect, "001_init.sql").read_text("utf-8")
    check = re.search(r"status\s+\w+\s+NOT NULL CHECK \(status IN\s*\(([^)]*)\)\)", sql, re.I)
    assert check, "no CHECK on hunter_seen_jobs.status"
    allowed = {value.strip().strip("'") for value in check.group(1).split(",")}
    assert allowed == {str(status) for status in RowStatus}


def test_the_outbox_is_every_state_not_yet_done() -> None:
    done = {RowStatus.PRIMED, RowStatus.IGNORED, RowStatus.SENT}
    assert set(OUTBOX) == set(RowStatus) - done


def test_states_read_as_the_strings_the_database_holds() -> None:
    assert RowStatus("retry") is RowStatus.RETRY and RowStatus.RETRY == "retry"
    assert ErrorKind("unknown") is ErrorKind.UNKNOWN and f"{ErrorKind.TRANSIENT}" == "transient"
