"""The `ledger_audit` fixture: the chip ledger must audit clean after the test."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO

import pytest
from django.core.management import call_command


@pytest.fixture
def ledger_audit(db: None) -> Iterator[None]:
    yield
    call_command("audit_ledger", stdout=StringIO())
