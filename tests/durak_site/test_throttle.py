"""The pages' throttles count per address, and with Redis every server process shares one
count."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.test import RequestFactory

from durak_site.throttle import Limit, allows

ROOT = Path(__file__).resolve().parents[2]


def test_a_throttle_counts_each_address_apart():
    limit = Limit("test", count=2, seconds=60)
    here, there = RequestFactory().get("/"), RequestFactory().get("/", REMOTE_ADDR="10.1.2.3")
    assert [allows(limit, here) for _ in range(3)] == [True, True, False]
    assert allows(limit, there)


@pytest.mark.redis
def test_server_processes_share_a_throttles_count_in_redis():
    hits = (
        "from django.test import RequestFactory; from durak_site.throttle import Limit, allows; "
        "t = Limit('shared', count=3, seconds=60); r = RequestFactory().get('/'); "
        "print([allows(t, r), allows(t, r)])"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "durak_site.settings",
        "DJANGO_DEBUG": "1",
        "REDIS_PREFIX": f"durak-throttle-test-{uuid.uuid4().hex}",
    }
    env.pop("DATABASE_URL", None)
    said = [
        subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", hits],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout.splitlines()[-1]
        for _ in range(2)
    ]
    assert said == ["[True, True]", "[True, False]"]
