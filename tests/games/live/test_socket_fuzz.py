"""Fuzzing the table and lobby sockets from the five kinds of client: a seated player,
a spectator, an anonymous visitor, an outsider (a player seated at another table) and a
page of a foreign origin.

Whatever they send: no exception escapes a socket (nor is caught by its guard), the
game changes only by the seated player's own legal moves, no frame shows a card its
reader may not see, and every socket leaves its groups when it goes.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import re
from collections import Counter
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.services import create_player
from durak_site.asgi import application
from games import clock
from games.engine import Game as EngineGame
from games.live import ratelimit
from games.live.consumers import LobbyConsumer
from games.live.protocol import Command, ProtocolError, parse
from games.live.sockets import UNEXPECTED_MESSAGE, GuardedConsumer
from games.models import Game, Seat
from games.table import play, tables
from tests.support.messages import FIELDS, JSON
from tests.support.sockets import Socket, assert_no_leak, encode, group_members, move_of
from tests.support.tables import Clock, open_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("ledger_audit", "in_memory_layer"),
]

KINDS = ("player", "spectator", "anonymous", "outsider", "foreign")
EXAMPLES = int(os.environ.get("DURAK_FUZZ_EXAMPLES", "15"))
FIGURES: Counter[str] = Counter()
RESIDENT: list[int] = []

NASTY = st.sampled_from(
    [
        "[" * 1000 + "]" * 1000,
        '{"action": "ping", "version": Infinity}',
        '{"action": "take", "version": 1e400}',
        '{"action": "take", "version": NaN}',
        '{"action": "lead", "card": "\\ud800", "version": 1}',
        '{"action": "take", "version": 1, "pad": "' + "x" * 3000 + '"}',
        " ",
        "null",
        '"take"',
    ]
)


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class Errors(logging.Handler):
    """Failures a socket's guard caught and logged: the fuzz allows none."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(self.format(record))


@pytest.fixture
def errors() -> Any:
    handler = Errors()
    logging.getLogger().addHandler(handler)
    yield handler
    logging.getLogger().removeHandler(handler)


@pytest.fixture
def scene(anna, boris, clara, frozen_clock, state_history) -> dict[str, Any]:
    """A running two-player game (anna and boris) and a running game elsewhere (dima's,
    dealt first: the history of states, by version, is the game's at this table)."""
    table = open_table(anna, stake=10)
    tables.join(table.pk, boris)
    dima = create_player("dima", "dima-plays-durak")
    elsewhere = open_table(dima, stake=0)
    tables.add_bot(elsewhere.pk, dima, "easy")
    frozen_clock.advance(tables.START_DELAY + 0.01)
    assert play.start(elsewhere.pk) is not None
    state_history.states.clear()
    assert play.start(table.pk) is not None
    seat = Seat.objects.get(table=table, player=anna).position
    users = {"player": anna, "spectator": clara, "anonymous": AnonymousUser(), "outsider": dima}
    return {"table": table, "seat": seat, "users": users, "clock": frozen_clock}


@database_sync_to_async
def game_state(table: Any) -> tuple[int, str, str]:
    row = table.games.order_by("-started_at").first()
    seats = list(Seat.objects.filter(table=table).values_list("position", "player_id", "away"))
    return row.version, json.dumps(row.state, sort_keys=True), json.dumps(seats)


@database_sync_to_async
def game_goes_on(table: Any, seat: int, frozen_clock: Clock) -> None:
    """Until the seated player can move: the other player moves, or the deadline fires."""
    for _ in range(10):
        row = table.games.order_by("-started_at").first()
        engine = EngineGame.from_dict(row.state)
        if row.status != Game.Status.RUNNING or engine.legal_actions(seat):
            return
        legal = engine.legal_actions(1 - seat)
        if legal:
            other = Seat.objects.get(table=table, position=1 - seat).player
            assert other is not None, "both seats are people's"
            command = move_of({**encode(legal[0]), "version": row.version})
            play.act(row.pk, other, command, row.version)
            FIGURES["moves of the other player"] += 1
        else:
            frozen_clock.past_deadline(row)
            play.tick(row.pk)
            FIGURES["deadlines fired"] += 1


@database_sync_to_async
def running(table: Any) -> bool:
    return table.games.filter(status=Game.Status.RUNNING).exists()


@database_sync_to_async
def legal_for(table: Any, seat: int) -> tuple[int, list[Any]]:
    row = table.games.order_by("-started_at").first()
    if row.status != Game.Status.RUNNING:
        return row.version, []
    return row.version, EngineGame.from_dict(row.state).legal_actions(seat)


def legal_at(state: str, seat: int, text: str) -> bool:
    """Whether `text` names a move that `seat` may make in `state`."""
    try:
        command = parse(text)
    except ProtocolError:
        return False
    if not isinstance(command, Command) or not command.is_move:
        return False
    engine = EngineGame.from_dict(json.loads(state))
    try:
        engine.apply(seat, command.to_engine(), now=clock.now())
    except Exception:
        return False
    return True


async def message(data: Any, table: Any, seat: int) -> str:
    """Anything from garbage to the seated player's next legal move."""
    choice = data.draw(st.integers(-2, 5))
    if choice <= 0:
        # What is drawn never depends on the game, so that examples replay.
        pick, offset = data.draw(st.integers(0, 40)), data.draw(st.sampled_from([0, 0, 0, 1, -1]))
        version, legal = await legal_for(table, seat)
        if not legal:
            return json.dumps({"action": "ping", "HEADERS": {}})
        action = legal[pick % len(legal)]
        return json.dumps({**encode(action), "version": version + offset, "HEADERS": {}})
    if choice == 1:
        return data.draw(NASTY)
    if choice == 2:
        return data.draw(st.text(min_size=1, max_size=40))
    if choice == 3:
        return json.dumps(data.draw(JSON))
    return json.dumps({**data.draw(FIELDS), "HEADERS": {}})


async def frames_of(socket: Socket) -> list[str]:
    got = []
    while not await socket.communicator.receive_nothing(timeout=0.02):
        got.append(await next_frame(socket))
    return got


async def next_frame(socket: Socket) -> str:
    output = await socket.communicator.receive_output(timeout=10)
    assert output["type"] == "websocket.send", output
    socket.frames.append(output["text"])
    return output["text"]


async def caught_up(socket: Socket, table: Any) -> None:
    """Wait until the seated player's page shows the game's current version, as a
    browser's would before its player moves."""
    current, _state, _seats = await game_state(table)
    if not await running(table):
        return
    while latest_version(socket.frames) != current:
        await next_frame(socket)


ATTRS = '<div id="game-attrs"'


def latest_version(frames: list[str]) -> int | None:
    """The version the last picture (whole or what changed) put on the page."""
    pictures = [frame for frame in frames if '<section id="game"' in frame or ATTRS in frame]
    if not pictures:
        return None
    attrs = re.search(ATTRS + r'[^>]*?data-version="(\d+)"', pictures[-1])
    return int(attrs.group(1)) if attrs else None


async def processed(socket: Socket, probe: int) -> None:
    """Wait until the socket has dealt with everything sent before: it answers in order,
    and a probe's answer names the probe."""
    await socket.send_raw(json.dumps({"action": f"probe-{probe}"}))
    while f"probe-{probe}" not in await next_frame(socket):
        pass


async def foreign_page_is_refused(table: Any, data: Any) -> None:
    origin = data.draw(
        st.sampled_from(
            ["http://127.0.0.1:9999", "https://127.0.0.1:8000", "http://evil.example", "null"]
        )
    )
    path = data.draw(st.sampled_from([f"/ws/table/{table.pk}/", "/ws/lobby/"]))
    headers = [(b"host", b"127.0.0.1:8000"), (b"origin", origin.encode())]
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _code = await communicator.connect(timeout=10)
    assert not connected, origin
    await communicator.wait()
    FIGURES["foreign refused"] += 1


async def lobby_refuses(user: Any, text: str) -> None:
    communicator = WebsocketCommunicator(LobbyConsumer.as_asgi(), "/ws/lobby/")
    communicator.scope["user"] = user
    communicator.scope["cookies"] = {"django_language": "en"}
    assert (await communicator.connect(timeout=10))[0]
    await communicator.send_to(text_data=text)
    assert 'id="notice"' in await communicator.receive_from(timeout=10)
    assert await communicator.receive_output(timeout=10) == {
        "type": "websocket.close",
        "code": UNEXPECTED_MESSAGE,
    }
    await communicator.wait()
    FIGURES["lobby messages"] += 1


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_no_client_can_break_a_socket_change_a_game_or_see_a_hidden_card(
    data, state_history, scene, errors
):
    table, seat, users = scene["table"], scene["seat"], scene["users"]
    ratelimit.forget_all()
    sockets = {kind: Socket(table, user) for kind, user in users.items()}
    audience = {"player": seat}
    for socket in sockets.values():
        assert (await socket.communicator.connect(timeout=10))[0]
        await next_frame(socket)
    try:
        for probe in range(data.draw(st.integers(4, 12))):
            kind = data.draw(st.sampled_from(KINDS))
            FIGURES[f"messages from {kind}"] += 1
            if kind == "foreign":
                await foreign_page_is_refused(table, data)
                continue
            text = await message(data, table, seat)
            if data.draw(st.integers(0, 9)) == 0:
                await lobby_refuses(users[kind], text)
                continue
            await game_goes_on(table, seat, scene["clock"])
            await caught_up(sockets["player"], table)
            before = await game_state(table)
            await sockets[kind].send_raw(text)
            await processed(sockets[kind], probe)
            after = await game_state(table)
            if after != before:
                FIGURES["state changes"] += 1
                assert kind == "player", (kind, text)
                assert after[0] == before[0] + 1 and legal_at(before[1], seat, text), text
                FIGURES["legal moves applied"] += 1
        for socket in sockets.values():
            await frames_of(socket)
    finally:
        for socket in sockets.values():
            await socket.close()
    for kind, socket in sockets.items():
        for frame in socket.frames:
            assert_no_leak(frame, audience.get(kind), state_history)
        FIGURES["frames checked"] += len(socket.frames)
    assert not errors.records, errors.records[:3]
    assert group_members(table.pk) == 0
    assert not get_channel_layer().channels
    gc.collect()
    assert not [held for held in gc.get_objects() if isinstance(held, GuardedConsumer)]
    RESIDENT.append(resident_bytes())


@pytest.fixture(scope="module", autouse=True)
def figures() -> Any:
    """The fuzz's figures, printed once it is over (run with -s to see them)."""
    yield
    kinds = {kind: FIGURES[f"messages from {kind}"] for kind in KINDS}
    print(
        f"\nsocket fuzz: {sum(kinds.values())} messages {kinds}, "
        f"{FIGURES['lobby messages']} to the lobby, {FIGURES['frames checked']} frames checked, "
        f"{FIGURES['state changes']} state changes (all legal moves of the seated player: "
        f"{FIGURES['legal moves applied']}; the other player's moves between: "
        f"{FIGURES['moves of the other player']}, deadlines: {FIGURES['deadlines fired']}), "
        "no exception, no hidden card, no socket left "
        f"behind; resident memory {min(RESIDENT, default=0) >> 20}-"
        f"{max(RESIDENT, default=0) >> 20} MB"
    )
