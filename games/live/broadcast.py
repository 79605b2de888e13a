"""After a commit: render each audience's HTML once and send it to its group.

Audiences: the spectators of a table in each language (each language has its own
group) and each seated person (rendered in their language). An audience with no socket
in its group is not rendered at all.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import translation

from games.live import blocking, listeners, metrics
from games.live.frames import TableAnnounce, TableHtml, TableNotice, TablePresence, TableSeating
from games.live.outages import UNREACHABLE
from games.models import Table
from games.picture import lobby, movelog, notices, pieces, scene
from games.table import committed as writers
from games.table.committed import GameCommitted

logger = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
STAFF_GROUP = "staff"
STAFF_TOUCH = "staff.table"


def public_group(table_id: int) -> str:
    return f"table-{table_id}"


def seat_group(table_id: int, position: int) -> str:
    return f"table-{table_id}-seat-{position}"


def spectators_group(table_id: int, language: str) -> str:
    return f"table-{table_id}-spectators-{language}"


def audience_group(table_id: int, audience: scene.Audience) -> str:
    if audience.seat is None:
        return spectators_group(table_id, audience.language)
    return seat_group(table_id, audience.seat)


Message = tuple[str, Mapping[str, Any]]
"""A message for every channel in a group."""


class Reply(NamedTuple):
    """A message for one channel."""

    channel: str
    message: Mapping[str, Any]


def send_all(messages: Sequence[Message | Reply]) -> None:
    """Deliver messages to their groups, in order. On Redis, a writer's thread publishes
    them itself, in one trip (`games.live.blocking`). Otherwise, from a writer's thread of a
    server whose event loop runs (`serve_from`), they are handed to that loop without
    waiting for it: the writer goes on with the next game while the loop delivers, in the
    order handed."""
    if not messages:
        return
    held = getattr(_gathering, "messages", None)
    if held is not None:
        held.extend(messages)
        return
    redis = blocking.of(get_channel_layer())
    if redis is not None and not on_event_loop():
        publish(redis, messages)
        return
    loop = _serving
    if loop is not None and loop.is_running():
        loop.call_soon_threadsafe(_hand_over, loop, messages)
        return
    async_to_sync(deliver)(messages)


_gathering = threading.local()


@contextmanager
def gathered() -> Iterator[None]:
    """What this thread sends meanwhile goes out at the end, in the order sent, together: in
    one trip to Redis (a move's frames and the answer to the socket that sent it, a bot's
    frames and the schedulers' wake-up), or in one hand-over to the server's event loop."""
    if getattr(_gathering, "messages", None) is not None:
        yield
        return
    held: list[Message | Reply] = []
    _gathering.messages = held
    try:
        yield
    finally:
        _gathering.messages = None
        send_all(held)


def on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def publish(redis: blocking.BlockingRedis, messages: Sequence[Message | Reply]) -> None:
    metrics.LAYER_SENDS.inc(len(messages))
    addressed = [
        (item.channel, item.message)
        if isinstance(item, Reply)
        else (redis.group_channel(item[0]), item[1])
        for item in messages
    ]
    try:
        redis.publish(addressed)
    except Exception as error:
        metrics.LAYER_DROPS.inc(len(messages))
        if not isinstance(error, blocking.Unreachable):
            logger.exception("could not publish to %s", ", ".join(name for name, _ in addressed))


async def deliver(messages: Sequence[Message | Reply]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    metrics.LAYER_SENDS.inc(len(messages))
    for item in messages:
        try:
            if isinstance(item, Reply):
                await layer.send(item.channel, item.message)
            else:
                await layer.group_send(*item)
        except UNREACHABLE:
            metrics.LAYER_DROPS.inc()
        except Exception:
            metrics.LAYER_DROPS.inc()
            logger.exception("could not send to %s", item[0])


_serving: asyncio.AbstractEventLoop | None = None
_owner: str | None = None


def owned_by(group: str | None) -> None:
    """This process takes the moves of the games it writes in `group` (`games.live.owners`):
    its frames of a game name it."""
    global _owner
    _owner = group


_outboxes: dict[asyncio.AbstractEventLoop, asyncio.Queue[Sequence[Message | Reply]]] = {}


def serve_from(loop: asyncio.AbstractEventLoop) -> None:
    """The event loop of this server: what the writers commit is delivered on it."""
    global _serving
    _serving = loop


def _hand_over(loop: asyncio.AbstractEventLoop, messages: Sequence[Message | Reply]) -> None:
    """On the loop: queue the messages behind those handed over before them."""
    _outbox(loop).put_nowait(messages)


def _outbox(loop: asyncio.AbstractEventLoop) -> asyncio.Queue[Sequence[Message | Reply]]:
    """The loop's queue of messages to deliver, and the one task delivering them in order."""
    queue = _outboxes.get(loop)
    if queue is None:
        for gone in [other for other in _outboxes if other.is_closed()]:
            del _outboxes[gone]
        queue = _outboxes[loop] = asyncio.Queue()
        loop.create_task(_deliver_in_order(queue), name="durak-outbox")
    return queue


async def _deliver_in_order(queue: asyncio.Queue[Sequence[Message | Reply]]) -> None:
    while True:
        await deliver(await queue.get())


def send(group: str, message: Mapping[str, Any]) -> None:
    send_all([(group, message)])


def reply(channel: str, message: Mapping[str, Any]) -> None:
    """Send to one channel, after what this process handed over before."""
    send_all([Reply(channel, message)])


def in_every_language(render: Callable[[], str]) -> dict[str, str]:
    rendered = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            rendered[code] = render()
    return rendered


def in_language(html: dict[str, str], language: str) -> str:
    """The HTML rendered in this language (any, if that one was not rendered)."""
    return html.get(language) or next(iter(html.values()))


def game_changed(committed: GameCommitted) -> None:
    """A writer committed a version of a game: every audience's new picture, with the log
    lines this version adds (a game's first version starts a new log). Pages that show the
    version before get only the pieces that changed."""
    game = committed.game
    now = scene.of_game(committed)
    names = now.names if now.game is not None else scene.log_names(game)
    earlier = movelog.earlier_games(game.table_id, game.pk) if game.version == 1 else None
    heard = heard_at(now)
    outbox = scene_messages(
        now, heard, lambda audience: scene.render_news(now, names, audience, earlier)
    )
    send_all(outbox + staff_touch(game.table_id, heard))


def table_changed(table_id: int) -> None:
    """Seats or status changed: the lobby row (while the lobby is watched), the seating and
    the waiting room."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return
    seats = table.seats_in_order()
    outbox: list[Message] = []
    waiting = scene.of_table(table_id) if table.status != Table.Status.PLAYING else None
    heard = heard_at(waiting) if waiting is not None else listeners.listening(WATCHERS)
    if not table.private and LOBBY_GROUP in heard:
        outbox.append(
            (
                LOBBY_GROUP,
                {
                    "type": "lobby.html",
                    "html": in_every_language(lambda: lobby.render_lobby_row(table, seats)),
                },
            )
        )
    seating: TableSeating = {
        "type": "table.seating",
        "seating": {str(s.player_id): s.position for s in seats if s.player_id is not None},
    }
    outbox.append((public_group(table_id), seating))
    if waiting is not None:
        outbox += scene_messages(waiting, heard)
    send_all(outbox + staff_touch(table_id, heard))


def line_told(table_id: int) -> None:
    """A table in line was told when to expect its game (`games.deadlines.admission`): only
    its waiting room's status line says so, and only to those who watch it."""
    if not listeners.listening([public_group(table_id)]):
        return
    waiting = scene.of_waiting_table(table_id)
    if waiting is None:
        return
    heard = heard_at(waiting)
    outbox: list[Message] = []
    for audience, group in heard_audiences(waiting, heard):
        frame: TableHtml = {
            "type": "table.html",
            "html": {audience_key(audience): scene.render_status(waiting, audience)},
            "version": None,
            "game": None,
            "base": None,
            "owner": None,
            "piece": True,
        }
        outbox.append((group, frame))
    send_all(outbox)


WATCHERS = [LOBBY_GROUP, STAFF_GROUP]
"""The groups that hear of every table: the lobby's and the control room's."""


def heard_at(now: scene.Scene) -> set[str]:
    """The groups of the scene's audiences, the lobby's and the staff's, that a socket
    listens in."""
    table_id = now.table.pk
    groups = [audience_group(table_id, audience) for audience in now.audiences()]
    return listeners.listening([*groups, *WATCHERS])


def staff_touch(table_id: int, heard: set[str]) -> list[Message]:
    """Tell the control room, if anyone has it open, that the table changed."""
    if STAFF_GROUP not in heard:
        return []
    return [(STAFF_GROUP, {"type": STAFF_TOUCH, "table_id": table_id})]


def scene_messages(
    now: scene.Scene,
    heard: set[str],
    extra: Callable[[scene.Audience], str] = lambda audience: "",
) -> list[Message]:
    """The table's picture for every audience a socket listens as: the spectators' of each
    language to that language's group, each seated person's to their seat's group. Where
    the scene knows the version before, the picture is what changed since (`base`)."""
    outbox: list[Message] = []
    for audience, group in heard_audiences(now, heard):
        with metrics.RENDER.time(), scene.reading_in(audience.language):
            changes = scene.render_changes(now, audience)
            html = (scene.render(now, audience) if changes is None else changes) + extra(audience)
        frame: TableHtml = {
            "type": "table.html",
            "html": {audience_key(audience): html},
            "version": now.version,
            "game": now.game.pk if now.game is not None else None,
            "base": now.before.version if changes is not None and now.before else None,
            "owner": _owner if now.game is not None else None,
        }
        outbox.append((group, frame))
    return outbox


def heard_audiences(now: scene.Scene, heard: set[str]) -> Iterator[tuple[scene.Audience, str]]:
    """The scene's audiences a socket listens as, each with its group."""
    for audience in now.audiences():
        group = audience_group(now.table.pk, audience)
        if group in heard:
            yield audience, group


def audience_key(audience: scene.Audience) -> str:
    """Under which key a frame carries an audience's HTML: the spectators' language, or "*"
    for the one seat whose group it goes to."""
    return audience.language if audience.seat is None else "*"


def presence_changed(table_id: int, position: int, online: bool) -> None:
    frame: TablePresence = {
        "type": "table.presence",
        "html": in_every_language(lambda: pieces.render_presence(position, online)),
    }
    send(public_group(table_id), frame)


def unseated(table_id: int, user_id: int, reason: str) -> None:
    frame: TableNotice = {
        "type": "table.notice",
        "user_id": user_id,
        "html": notices.render_notice(reason),
    }
    send(public_group(table_id), frame)


def table_notice(table_id: int, template: Any, values: dict[str, str]) -> None:
    """A notice from the staff to everyone at the table, each in their language."""

    def render() -> str:
        text = str(template) % values if values else str(template)
        return notices.render_notice(text, level="staff")

    frame: TableAnnounce = {"type": "table.announce", "html": in_every_language(render)}
    send(public_group(table_id), frame)


def hear_the_writers() -> None:
    """Send what the writers commit (`games.table.committed`) to the pages."""
    writers.game_committed.connect(
        lambda sender, committed, **_: game_changed(committed), weak=False, dispatch_uid="pages"
    )
    writers.table_changed.connect(
        lambda sender, table_id, **_: table_changed(table_id), weak=False, dispatch_uid="pages"
    )
    writers.player_unseated.connect(
        lambda sender, table_id, user_id, reason, **_: unseated(table_id, user_id, reason),
        weak=False,
        dispatch_uid="pages",
    )
