"""The test suite's settings: the real settings, a fixed key, fast hashing, plain HTTP."""

from __future__ import annotations

import os

os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-secret-key-not-for-any-deployment-01234")
os.environ.setdefault("DJANGO_SECURE_HTTPS", "0")
os.environ.setdefault("DURAK_EMBEDDED_SCHEDULER", "0")

from durak_site.settings import *  # noqa: E402,F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
