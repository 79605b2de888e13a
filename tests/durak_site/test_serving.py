from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest

from durak_site.serving import tune_interpreter


@pytest.fixture
def interpreter() -> Iterator[None]:
    thresholds, interval = gc.get_threshold(), sys.getswitchinterval()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    sys.setswitchinterval(interval)


def test_a_serving_process_freezes_what_it_made_while_starting_and_collects_less_often(
    interpreter, settings
):
    settings.GC_YOUNG_OBJECTS = 12_345
    settings.GIL_SWITCH_SECONDS = 0.002
    _young, middle, old = gc.get_threshold()
    tune_interpreter()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (12_345, middle, old)
    assert sys.getswitchinterval() == pytest.approx(0.002)
