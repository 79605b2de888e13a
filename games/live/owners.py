"""One owner per game in scale-out: the scheduler that fires a game's bots also carries out
its person's moves.

A scheduler takes up first the games it fired last (`games.deadlines.scheduler`), and each
scheduler process takes moves in a group of its own and carries them out on a thread beside
the one that fires its deadlines. The frames it draws name that group (`TableHtml.owner`),
so a socket sends the moves of the game it shows there (`games.live.consumers`) instead of
writing them on its own server: every version of the game is then written by one process,
which starts each action from the game as it holds it (`games.table.held_games`) and from
the pictures it drew last, instead of reading the game whole and drawing the version before
again.

An owner that is gone or behind never answers. It leaves a move alone once the move's
deadline has passed (`OWNER_SECONDS`), and a little after that (`TAKE_BACK_SECONDS`) the
socket's own server carries the move out itself, and the socket's next moves too until a
frame names an owner again. Whoever carries a move out, the writer writes it only over the
version of the game it read, as always (`games.table.play.act`).
"""

from __future__ import annotations

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


def carry_out(move: OwnerMove) -> bool:
    """Carry out a forwarded move and answer its socket, the answer sent with the move's
    frames; a move past its deadline is left to the socket's server, unanswered."""
    if time.time() > move["until"]:
        return False
    with broadcast.gathered():
        refusal = refusal_of(move)
        answer: OwnerAnswer = {"type": "owner.answer", "ticket": move["ticket"], "refusal": refusal}
        broadcast.reply(move["reply_to"], answer)
    return refusal is None


def refusal_of(move: OwnerMove) -> str | None:
    """Carry out the move: None once it is made, else why it was not, in the mover's words."""
    with translation.override(move["language"]):
        try:
            command = parse(move["text"])
            if not isinstance(command, Command) or not command.is_move:
                raise ProtocolError(_("That is not a move."))
            play.act_at_table(
                User(pk=move["user_id"]), command.to_engine(), command.version, move["game"]
            )
        except (GameError, ProtocolError) as refused:
            return str(refused)
        except Exception:
            logger.exception("a forwarded move of game %s failed", move["game"])
            return _("Your move could not be carried out; try again.")
    return None
