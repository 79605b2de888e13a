from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_manage(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_deploy_check_is_clean_with_debug_off() -> None:
    result = run_manage(
        ["check", "--deploy", "--fail-level", "WARNING"],
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="a-long-random-secret-key-for-the-deploy-check-0123456789-abcdefghij",
        DJANGO_ALLOWED_HOSTS="durak.example",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_secret_key_is_required_when_debug_is_off() -> None:
    result = run_manage(["check"], DJANGO_DEBUG="0")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is required" in result.stderr


def test_sqlite_waits_for_the_lock_and_takes_it_at_transaction_start(db) -> None:
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("the SQLite settings apply to the embedded setup only")
    assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] >= 5000


def test_the_migrations_describe_the_models() -> None:
    result = run_manage(["makemigrations", "--check", "--dry-run"], DJANGO_DEBUG="1")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(("prepared", "expected"), [("1", True), ("0", None)])
def test_on_postgresql_statements_are_bound_and_prepared_by_the_server_unless_turned_off(
    prepared: str, expected: bool | None
) -> None:
    show = "from django.conf import settings; print(settings.DATABASES['default']['OPTIONS'])"
    result = run_manage(
        ["shell", "-c", show],
        DJANGO_DEBUG="1",
        DATABASE_URL="postgres://durak@db.example:5432/durak?sslmode=require",
        DURAK_PREPARED_STATEMENTS=prepared,
    )
    assert result.returncode == 0, result.stderr
    options = ast.literal_eval(result.stdout.strip().splitlines()[-1])
    assert options.get("server_side_binding") is expected
    assert options.get("prepare_threshold") == (5 if expected else None)
    assert options["sslmode"] == "require"
