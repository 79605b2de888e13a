"""The table socket driven the way a browser drives it (htmx ws-send JSON), and the checks
the socket tests share: which cards a frame shows, and whether its reader may see them."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from games.engine import Action, Defend, Lead, Pass, Take, ThrowIn, Transfer, View
from games.engine import Game as EngineGame
from games.live import broadcast
from games.live.consumers import TableConsumer
from games.live.protocol import Command, parse
from games.models import Game, Table
from games.table import play, tables
from tests.support.tables import Clock, open_table

SYMBOLS = {"♠": "S", "♣": "C", "♦": "D", "♥": "H"}
CARD_ATTRIBUTE = re.compile(r'data-(?:card|code|attack|defence|target)="([6-9TJQKA][SCDH])"')
CARD_TEXT = re.compile(r"(10|[6-9JQKA])([♠♣♦♥])")
VERSION = re.compile(r'id="game(?:-attrs)?"[^>]*data-version="(\d+)"')
OVER = re.compile(r'<section id="game"[^>]*data-version=""')


@pytest.fixture
def in_memory_layer(settings: Any) -> None:
    """Channels' own in-memory layer, whose groups a test can look into."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def cards_in(html: str) -> set[str]:
    found = set(CARD_ATTRIBUTE.findall(html))
    for rank, suit in CARD_TEXT.findall(html):
        found.add(("T" if rank == "10" else rank) + SYMBOLS[suit])
    return found


class Socket:
    def __init__(self, table: Table, user: Any, invite: str = "") -> None:
        path = f"/ws/table/{table.pk}/" + (f"?invite={invite}" if invite else "")
        self.communicator = WebsocketCommunicator(TableConsumer.as_asgi(), path)
        self.communicator.scope["user"] = user
        self.communicator.scope["url_route"] = {"kwargs": {"table_id": table.pk}}
        self.communicator.scope["cookies"] = {"django_language": "en"}
        self.frames: list[str] = []

    async def connect(self) -> tuple[bool, int | None]:
        return await self.communicator.connect(timeout=10)

    async def send(self, **fields: Any) -> None:
        await self.communicator.send_to(text_data=json.dumps({**fields, "HEADERS": {}}))

    async def send_raw(self, text: str) -> None:
        await self.communicator.send_to(text_data=text)

    async def next(self, timeout: float = 3.0) -> str:
        frame = await self.communicator.receive_from(timeout=timeout)
        self.frames.append(frame)
        return frame

    async def drain(self) -> list[str]:
        got = []
        while not await self.communicator.receive_nothing(timeout=0.05):
            got.append(await self.next())
        return got

    async def close(self) -> None:
        await self.communicator.disconnect()


@pytest.fixture
async def sockets() -> AsyncIterator[list[Socket]]:
    """The sockets a test opens, closed after it."""
    opened: list[Socket] = []
    yield opened
    for socket in opened:
        await socket.close()


async def connected(sockets: list[Socket], table: Table, user: Any, invite: str = "") -> Socket:
    socket = Socket(table, user, invite)
    ok, _code = await socket.connect()
    assert ok
    sockets.append(socket)
    await socket.next()
    await socket.drain()
    return socket


async def until_closed(socket: Socket, timeout: float = 10.0) -> tuple[list[str], int]:
    """The frames sent before the close, and its code."""
    frames: list[str] = []
    while True:
        output = await socket.communicator.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return frames, output["code"]
        frames.append(output["text"])


def group_members(table_id: int) -> int:
    """Members of every group of the table: its public one and each audience's."""
    prefix = broadcast.public_group(table_id)
    layer = get_channel_layer()
    return sum(
        len(members)
        for name, members in layer.groups.items()
        if name == prefix or name.startswith(f"{prefix}-")
    )


@database_sync_to_async
def two_player_table(anna: Any, boris: Any, frozen_clock: Clock, stake: int = 100) -> Table:
    table = open_table(anna, stake=stake)
    tables.join(table.pk, boris)
    frozen_clock.advance(tables.START_DELAY + 0.01)
    assert play.start(table.pk) is not None
    return table


@database_sync_to_async
def running_game(table: Table) -> Game:
    return Game.objects.get(table=table, status=Game.Status.RUNNING)


def encode(action: Action) -> dict[str, Any]:
    """The message a browser sends for an engine action."""
    if isinstance(action, Lead):
        return {"action": "lead", "card": [str(card) for card in action.cards]}
    if isinstance(action, ThrowIn):
        return {"action": "throw-in", "card": str(action.card)}
    if isinstance(action, Defend):
        return {"action": "defend", "card": str(action.card), "target": str(action.target)}
    if isinstance(action, Transfer):
        return {"action": "transfer", "card": str(action.card)}
    if isinstance(action, Take):
        return {"action": "take"}
    assert isinstance(action, Pass)
    return {"action": "pass"}


def move_of(fields: dict[str, Any]) -> Action:
    """The move the table socket reads from a browser's message of these fields, as the
    game's writer takes it."""
    command = parse(json.dumps(fields))
    assert isinstance(command, Command), command
    return command.to_engine()


class StateHistory:
    """Every committed engine state by game version, to judge each frame against."""

    def __init__(self) -> None:
        self.states: dict[int, dict[str, Any]] = {}

    def record(self, row: Game) -> None:
        self.states[row.version] = json.loads(json.dumps(row.state))


@pytest.fixture
def state_history(monkeypatch: pytest.MonkeyPatch) -> StateHistory:
    """Each version's state as its writer commits it, before its frames are sent."""
    history = StateHistory()
    committed = play.changed

    def recorded(loaded: play.Loaded) -> None:
        history.record(loaded.row)
        committed(loaded)

    monkeypatch.setattr(play, "changed", recorded)
    return history


def may_see(view: View) -> set[str]:
    """The cards a seat's view lets its reader see: their own hand, the table, the discard
    pile, the cards known to be in other hands, and the face-up trump card."""
    seen = set(view["hand"]) | set(view["discarded"])
    seen |= {card for pair in view["table"] for card in pair if card is not None}
    seen |= {card for known in view["known"] for card in known}
    if view["trump_card"] is not None:
        seen.add(view["trump_card"])
    return seen


def state_shown(frame: str, history: StateHistory) -> dict[str, Any] | None:
    """The state a frame shows: the version it names, or the last one for the picture of a
    table whose game is over; None for a frame of no game (presence, a notice)."""
    match = VERSION.search(frame)
    if match is not None:
        return history.states[int(match.group(1))]
    if OVER.search(frame) and history.states:
        return history.states[max(history.states)]
    return None


def assert_no_leak(frame: str, audience: int | None, history: StateHistory) -> None:
    """The frame shows no card its reader's view hides from them."""
    state = state_shown(frame, history)
    if state is None:
        return
    hidden = cards_in(frame) - may_see(EngineGame.from_dict(state).view(audience))
    assert not hidden, (audience, sorted(hidden))


def assert_frames_hide_cards(
    frames: list[str], audience: int | None, history: StateHistory
) -> None:
    """Every frame that shows a card is judged against a state, and shows none it hides."""
    for frame in frames:
        if cards_in(frame):
            assert state_shown(frame, history) is not None, f"cards of no game: {frame[:300]}"
        assert_no_leak(frame, audience, history)
