"""One owner per game in scale-out: the scheduler that fires a game's bots also carries out
its person's moves.

A scheduler takes up first the games it fired last (`games.deadlines.scheduler`), and each
scheduler process takes moves in a group of its own. The frames it draws name that group
(`TableHtml.owner`), so a socket sends the moves of the game it shows there
(`games.live.consumers`) instead of writing them on its own server: every version of the
game is then written by one process, which starts each action from the game as it holds it
(`games.table.held_games`) and from the pictures it drew last, instead of reading the game
whole and drawing the version before again.

An owner that falls behind (its games' deadlines fire late, or a move has waited) turns
the moves that come away at once, so its games' deadlines never wait behind every player's
move when the room is full: the socket's own server carries a move turned away out itself,
and the socket's next moves for `BUSY_SECONDS`, as it did before owners. An owner that is
gone never answers. It leaves a move alone once the move's deadline has passed
(`OWNER_SECONDS`), and a little after that (`TAKE_BACK_SECONDS`) the socket's own server
carries the move out itself, and the socket's next moves too until a frame names an owner
again. Whoever carries a move out, the writer checks it against the game's version under
the row lock, as always (`games.table.play.act`).
"""

from __future__ import annotations

import collections
import logging
import re
import time

from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User
from games.errors import GameError
from games.live import broadcast
from games.live.frames import OwnerAnswer, OwnerMove
from games.live.protocol import Command, ProtocolError, parse
from games.table import play

logger = logging.getLogger(__name__)

OWNER_SECONDS = 1.0
"""How long after a socket sent a move its owner may still start it."""
TAKE_BACK_SECONDS = 1.5
"""When a socket's server carries out a forwarded move that was never answered."""
BEHIND_SECONDS = 0.1
"""How late an owner may fire its games' deadlines, and how long a move may wait for it,
while it still takes moves."""
BUSY_SECONDS = 2.0
"""How long a socket whose move was turned away carries out its moves on its own server."""


def group_of(writer: str) -> str:
    """The channel-layer group of a scheduler's moves, from its name (`Game.writer`)."""
    return "owner." + re.sub(r"[^A-Za-z0-9_.-]", "-", writer)[:90]


def take_moves(writer: str) -> str:
    """From now on this process takes the moves of the games it writes: its frames say so."""
    group = group_of(writer)
    broadcast.owned_by(group)
    return group


def stop_taking_moves() -> None:
    broadcast.owned_by(None)


def move_for(
    ticket: int, reply_to: str, user_id: int, game: int, text: str, language: str
) -> OwnerMove:
    """A move to send to its game's owner, to be started within `OWNER_SECONDS`."""
    return {
        "type": "owner.move",
        "ticket": ticket,
        "reply_to": reply_to,
        "user_id": user_id,
        "game": game,
        "text": text,
        "language": language,
        "until": time.time() + OWNER_SECONDS,
    }


class Inbox:
    """The moves sent to this owner, as they came; its writer's thread carries them out."""

    def __init__(self) -> None:
        self.moves: collections.deque[tuple[float, OwnerMove]] = collections.deque()
        self.late = 0.0
        """How late the owner fired the last game it took up (none due: 0)."""

    def put(self, move: OwnerMove) -> None:
        self.moves.append((time.monotonic(), move))

    def __bool__(self) -> bool:
        return bool(self.moves)

    def keeps_up(self) -> bool:
        """Whether the owner takes another move: it fires its games on time, and the move
        that came first is not waiting yet."""
        if self.late > BEHIND_SECONDS:
            return False
        return not self.moves or time.monotonic() - self.moves[0][0] <= BEHIND_SECONDS

    def carry_out(self) -> int:
        """Every move waiting, in order; how many were carried out."""
        done = 0
        while self.moves:
            done += carry_out(self.moves.popleft()[1])
        return done


inbox = Inbox()


def carry_out(move: OwnerMove) -> bool:
    """Carry out a forwarded move and answer its socket; a move past its deadline is left to
    the socket's server, unanswered."""
    if time.time() > move["until"]:
        return False
    refusal: str | None = None
    with translation.override(move["language"]):
        try:
            command = parse(move["text"])
            if not isinstance(command, Command) or not command.is_move:
                raise ProtocolError(_("That is not a move."))
            play.act_at_table(
                User(pk=move["user_id"]), command.to_engine(), command.version, move["game"]
            )
        except (GameError, ProtocolError) as refused:
            refusal = str(refused)
        except Exception:
            logger.exception("a forwarded move of game %s failed", move["game"])
            refusal = _("Your move could not be carried out; try again.")
    answer: OwnerAnswer = {
        "type": "owner.answer",
        "ticket": move["ticket"],
        "refusal": refusal,
        "busy_for": 0.0,
    }
    broadcast.reply(move["reply_to"], answer)
    return refusal is None


def turned_away(move: OwnerMove) -> OwnerAnswer:
    """The answer of an owner that is behind: the socket's server carries the move out."""
    return {
        "type": "owner.answer",
        "ticket": move["ticket"],
        "refusal": None,
        "busy_for": BUSY_SECONDS,
    }
