"""The test suite's settings: the real settings, a fixed key, fast hashing, plain HTTP."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-secret-key-not-for-any-deployment-01234")
os.environ.setdefault("DJANGO_SECURE_HTTPS", "0")
os.environ.setdefault("DURAK_EMBEDDED_SCHEDULER", "0")

from durak_site.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A file, as in production, so WAL and the busy timeout let the scheduler's thread and
    # the sockets' thread share it: threads sharing an in-memory database refuse a read
    # while another thread writes ("database table is locked").
    _DIRECTORY = tempfile.mkdtemp(prefix="durak-tests-")
    atexit.register(shutil.rmtree, _DIRECTORY, ignore_errors=True)
    DATABASES["default"]["TEST"] = {"NAME": os.path.join(_DIRECTORY, "tests.sqlite3")}  # noqa: F405
