"""Settings read from the environment.

With no environment at all the site runs on one machine: SQLite (WAL) and the
in-memory channel layer. `DATABASE_URL` and `REDIS_URL` switch to PostgreSQL and
Redis for the scale-out setup.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
import django_stubs_ext
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

django_stubs_ext.monkeypatch()  # Django's generic classes (forms, admins) take type arguments

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_flag("DJANGO_DEBUG", False)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY is required when DJANGO_DEBUG is off.")
    SECRET_KEY = "insecure-local-development-key-never-used-with-debug-off"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "axes",
    "csp",
    "accounts",
    "games",
    "staff",
    "ratings",
    "chat",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "durak_site.security_policy.SecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.language.PlayerLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "durak_site.urls"
ASGI_APPLICATION = "durak_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.context_processors.balance",
                "staff.context_processors.site_notices",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    DATABASES = {
        "default": dj_database_url.parse(DATABASE_URL, conn_max_age=600, conn_health_checks=True)
    }
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # Its health check of a kept connection at most once a second (durak_site/postgresql).
        DATABASES["default"]["ENGINE"] = "durak_site.postgresql"
        # Parameters bound by the server and a statement run five times on a connection
        # prepared there, so it is planned once (off behind a pooler in transaction mode).
        if os.environ.get("DURAK_PREPARED_STATEMENTS", "1") != "0":
            DATABASES["default"].setdefault("OPTIONS", {}).update(
                server_side_binding=True, prepare_threshold=5
            )
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            # Each thread keeps its connection: opening one (and its PRAGMAs) on every
            # call of a socket cost a sixth of the server's time.
            "CONN_MAX_AGE": None,
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": (
                    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=20000;"
                ),
            },
        }
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
REDIS_PREFIX = os.environ.get("REDIS_PREFIX", "durak")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.live.layers.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 15,
                        "socket_connect_timeout": 5,
                    }
                ],
                "capacity": 2000,
                "prefix": REDIS_PREFIX,
            },
        }
    }
    # Shared by every server process: the pages' throttles and the verified uploads.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": f"{REDIS_PREFIX}:cache",
            "OPTIONS": {"socket_timeout": 2, "socket_connect_timeout": 2},
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.live.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": 2000, "group_expiry": 7 * 24 * 3600},
        }
    }

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=15)
# One username from one address: a success forgets that username's failures only. Spraying
# many usernames from one address is slowed by accounts.limits, never locked.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Per address, whatever the usernames (accounts.limits).
LOGINS_PER_MINUTE = int(os.environ.get("DURAK_LOGINS_PER_MINUTE", "10"))
SIGN_UPS_PER_HOUR = int(os.environ.get("DURAK_SIGN_UPS_PER_HOUR", "3"))
# Socket connects in any minute (games.live.sockets), per player and per address.
CONNECTS_PER_MINUTE = int(os.environ.get("DURAK_CONNECTS_PER_MINUTE", "30"))
ADDRESS_CONNECTS_PER_MINUTE = int(os.environ.get("DURAK_ADDRESS_CONNECTS_PER_MINUTE", "120"))
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if not DEBUG
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)

# Off only where the site is served over plain HTTP (local runs, tests).
SECURE_HTTPS = env_flag("DJANGO_SECURE_HTTPS", not DEBUG)
SESSION_COOKIE_SECURE = SECURE_HTTPS
CSRF_COOKIE_SECURE = SECURE_HTTPS
SECURE_SSL_REDIRECT = SECURE_HTTPS
SECURE_HSTS_SECONDS = 31536000 if SECURE_HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HTTPS
SECURE_HSTS_PRELOAD = SECURE_HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE_HTTPS else None
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Everything from the site itself and nothing inline: no inline scripts, event handlers,
# `style` attributes or eval (durak_site/security_policy.py adds the sockets' origin).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "object-src": [NONE],
    }
}

METRICS_TOKEN = os.environ.get("DURAK_METRICS_TOKEN", "")
WELCOME_GRANT = int(os.environ.get("DURAK_WELCOME_GRANT", "1000"))
EMBEDDED_SCHEDULER = env_flag("DURAK_EMBEDDED_SCHEDULER", True)
BOT_WORKERS = int(os.environ.get("DURAK_BOT_WORKERS", "1"))
RUNNING_GAMES_LIMIT = int(os.environ.get("DURAK_RUNNING_GAMES_LIMIT", "80"))
GIL_SWITCH_SECONDS = float(os.environ.get("DURAK_GIL_SWITCH_SECONDS", "0.0005"))
"""How long a thread of a server or scheduler process holds the interpreter before another
may take it (Python's default is 5 ms): the sockets' loop, the database thread and the
scheduler's thread each get it back sooner, so none waits behind a busy one for long."""
GC_YOUNG_OBJECTS = int(os.environ.get("DURAK_GC_YOUNG_OBJECTS", "50000"))
"""Allocations between two collections of a serving process's youngest objects
(`durak_site.serving`; Python's default is 700)."""

LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "filters": {"one_line_refusals": {"()": "durak_site.error_pages.OneLineRefusals"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    "loggers": {
        "axes": {"level": "WARNING"},
        "django.request": {"filters": ["one_line_refusals"]},
    },
}
# Commit times and deadline lateness, one line each, for benchmarks/load.py
# (`games.deadlines.timing`).
TIMING_LOG = os.environ.get("DURAK_TIMING_LOG", "")
