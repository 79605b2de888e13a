"""Tests that run on both databases the site runs on."""

from __future__ import annotations

import pytest

ON_BOTH_DATABASES = pytest.mark.parametrize(
    "database", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
)
"""A test of the writers' own SQL, run by `make test` on SQLite and by the PostgreSQL
suite on PostgreSQL."""
