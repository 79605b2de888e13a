"""The test suite's settings: the real settings, a fixed key, fast hashing, plain HTTP."""

from __future__ import annotations

import atexit
import os
import tempfile
from pathlib import Path

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-secret-key-not-for-any-deployment-01234")
os.environ.setdefault("DJANGO_SECURE_HTTPS", "0")
os.environ.setdefault("DURAK_EMBEDDED_SCHEDULER", "0")

from durak_site.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Each test empties the cache; in Redis that would empty the whole database others share.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, not SQLite's shared in-memory database: the scheduler and the sockets reach the
    # database from several threads, and shared-cache tables lock each other out at once
    # ("database table is locked") where a file in WAL mode waits its busy timeout.
    TEST_DATABASE = os.path.join(tempfile.gettempdir(), f"durak-tests-{os.getpid()}.sqlite3")
    DATABASES["default"]["TEST"] = {"NAME": TEST_DATABASE}  # noqa: F405

    @atexit.register
    def remove_test_database() -> None:
        for end in ("", "-wal", "-shm"):
            Path(TEST_DATABASE + end).unlink(missing_ok=True)
