"""Waiting in a test for what other threads or processes do."""

from __future__ import annotations

import time
from collections.abc import Callable


def eventually(condition: Callable[[], bool], seconds: float = 10.0, pause: float = 0.02) -> bool:
    """Whether `condition` came true within `seconds`, asked every `pause`."""
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        if condition():
            return True
        time.sleep(pause)
    return False
