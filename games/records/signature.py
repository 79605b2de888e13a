"""The site's signature on an export: HMAC-SHA256 over the record without its
``signature``, written canonically (keys sorted, no spaces, UTF-8), with a key derived from
``SECRET_KEY``. Only the site can check it; it covers what the replay cannot prove (names,
bot flags, stake, table, times, who played for a seat)."""

from __future__ import annotations

import hmac
import json
from typing import Any

from django.conf import settings
from django.utils.crypto import salted_hmac

from games.records.replay import Mismatch

SALT = "durak-game/1 signature"


def canonical(record: dict[str, Any]) -> bytes:
    unsigned = {key: value for key, value in record.items() if key != "signature"}
    written = json.dumps(unsigned, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return written.encode("utf-8")


def of(record: dict[str, Any], secret: str | bytes | None = None) -> str:
    return salted_hmac(SALT, canonical(record), secret=secret, algorithm="sha256").hexdigest()


def check(record: dict[str, Any]) -> None:
    """Raises ``Mismatch`` unless this site (under its key or a former one) signed the record."""
    given = str(record.get("signature", "")).encode("utf-8")
    for secret in (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS):
        if hmac.compare_digest(of(record, secret).encode("ascii"), given):
            return
    raise Mismatch(
        "signature: not this site's; the file was changed after its export or comes from "
        "another site"
    )
