"""Whatever file is uploaded to ``/replay/frames.json`` or given to ``verify_game``: a 400
(the command: "not verified: <reason>", exit 1) with a clear reason, never a traceback."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.history_helpers import played, record_of

pytestmark = pytest.mark.usefixtures("ledger_audit")
URL = "/replay/frames.json?seat=all"

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats()
    | st.text(max_size=20)
)
JSONISH = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)


@pytest.fixture
def record(anna) -> dict[str, Any]:
    (game,) = played(anna, stake=10)
    return record_of(game)


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


def malformed(record: dict[str, Any]) -> dict[str, str]:
    """The bodies the attack sent, by name."""
    seed, last = record["events"][-1], record["events"][-1]["seq"]
    stopped = [*record["events"], {"seq": last + 1, "type": "stopped", "at": seed["at"]}]
    text = json.dumps(record)
    return {
        "brackets": "[" * 100_000,
        "deep events": text.replace('"events": [', '"events": [' + deep(50_000) + ", ", 1),
        "seed 5": json.dumps({**record, "seed": 5}),
        "events abc": json.dumps({**record, "events": "abc"}),
        "events 1 2": json.dumps({**record, "events": [1, 2]}),
        "huge stake": text.replace('"stake": 10', '"stake": 1e400', 1),
        "stop appended": json.dumps({**record, "events": stopped}),
        "players 7": json.dumps({**record, "players": 7}),
        "no deal": json.dumps({key: v for key, v in record.items() if key != "deal"}),
        "not utf-8": "\udcff",
    }


def upload(body: str | bytes) -> Any:
    """The upload, with the address's budget full again and no answer kept."""
    cache.clear()
    return Client().post(URL, body, content_type="application/json")


def verify_file(path: Any, body: str | bytes) -> str | None:
    """What ``verify_game`` says of the file: None when it verifies, else its refusal."""
    if isinstance(body, str):
        body = body.encode("utf-8", "surrogateescape")
    path.write_bytes(body)
    try:
        call_command("verify_game", str(path))
    except CommandError as refusal:
        return str(refusal)
    return None


def assert_refused(answer: Any) -> None:
    assert answer.status_code == 400, answer.content[:300]
    reason = answer.json()["error"]
    assert reason and "Traceback" not in reason


@pytest.mark.parametrize(
    "name",
    [
        "brackets",
        "deep events",
        "seed 5",
        "events abc",
        "events 1 2",
        "huge stake",
        "stop appended",
        "players 7",
        "no deal",
        "not utf-8",
    ],
)
def test_a_malformed_upload_is_refused_with_a_reason(record, name, tmp_path):
    body = malformed(record)[name]
    assert_refused(upload(body.encode("utf-8", "surrogateescape")))
    refusal = verify_file(tmp_path / "game.json", body)
    assert refusal is not None and refusal.startswith("not verified: ")


def mutate(record: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """The record with one value somewhere inside it replaced by any JSON value."""
    changed = copy.deepcopy(record)
    node: Any = changed
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = data.draw(st.sampled_from(keys))
        inner = node[key]
        if isinstance(inner, dict | list) and inner and data.draw(st.booleans()):
            node = inner
            continue
        node[key] = data.draw(JSONISH)
        return changed


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_upload_and_no_file_makes_a_traceback(record, data, tmp_path):
    changed = mutate(record, data)
    whole = data.draw(st.booleans())
    body = json.dumps(changed) if whole else json.dumps(changed)[:-1]
    answer = upload(body)
    refusal = verify_file(tmp_path / "game.json", body)
    if whole and json.dumps(changed) == json.dumps(record):
        assert answer.status_code == 200 and refusal is None
        return
    assert_refused(answer)
    assert refusal is not None and refusal.startswith("not verified: ")
