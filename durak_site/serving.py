"""How a process that serves the site (a server, a scheduler) runs its interpreter."""

from __future__ import annotations

import gc
import sys

from django.conf import settings


def tune_interpreter() -> None:
    """Threads switch every `GIL_SWITCH_SECONDS`. The cyclic garbage collector leaves out
    what the process made while starting (modules, templates, settings: frozen), and looks
    at young objects every `GC_YOUNG_OBJECTS` allocations rather than every 700: at that
    pace most of a move's objects (frames, messages, rows) are gone by then, so few reach
    the oldest generation, whose every collection walks the whole heap and holds every
    thread, the scheduler's included, for as long as it takes."""
    sys.setswitchinterval(settings.GIL_SWITCH_SECONDS)
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(settings.GC_YOUNG_OBJECTS, middle, old)
