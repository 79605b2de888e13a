"""The pieces a version draws anew most often, written as code instead of templates: a known
card of another player, a pair on the table, a card of the hand, the hand around them and
the round's line. Drawing one from its template took some ninety microseconds, a fifth of
drawing a version for its audiences; as code, eight to seventeen.

Each writes the markup its template wrote, escaped as the template language escapes, with
the same messages for translation; `games.picture.pieces.drawn_piece` gathers runs of white
space as it does for every piece.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.html import escape
from django.utils.translation import gettext as _

from games.picture.hand import HandCard
from games.picture.words import CardFace, drawn_face


def opening(tag: str, id: str, oob: bool, first: str = "") -> str:
    """A piece's opening tag up to its class: `first`, its id, whether it swaps out of band."""
    swapped = ' hx-swap-oob="true"' if oob else ""
    return f'<{tag}{first} id="{escape(id)}"{swapped}'


def seat_known(context: Mapping[str, Any], id: str, oob: bool) -> str:
    known: tuple[CardFace, ...] = context["known"]
    label = f' aria-label="{escape(_("known cards in that hand"))}"' if known else " hidden"
    faces = "".join(drawn_face(face) for face in known)
    return f'{opening("div", id, oob)} class="known"{label}>{faces}</div>'


def pair(context: Mapping[str, Any], id: str, oob: bool) -> str:
    attack: CardFace = context["attack"]
    defence: CardFace | None = context["defence"]
    beaten = " beaten" if defence else ""
    defended = f' data-defence="{escape(defence.code)}"' if defence else ""
    button = (
        f'<button type="button" class="attack-card" data-target="{escape(attack.code)}"'
        f' aria-label="{escape(attack.name)}" disabled>{drawn_face(attack)}</button>'
    )
    beaten_by = ""
    if defence:
        name = _("beaten by %(name)s") % {"name": escape(defence.name)}
        beaten_by = (
            f'<span class="defence-card" role="img" aria-label="{name}">'
            f"{drawn_face(defence)}</span>"
        )
    return (
        f'{opening("div", id, oob)} class="pair{beaten}" data-attack="{escape(attack.code)}"'
        f"{defended}> {button} {beaten_by} </div>"
    )


def hand_card(context: Mapping[str, Any], id: str, oob: bool) -> str:
    card: HandCard = context["card"]
    face = card.face
    classes = "hand-card" + (" playable" if card.action else "")
    classes += " can-transfer" if card.transfer else ""
    action = f' data-action="{escape(card.action)}"' if card.action else ""
    targets = card.targets
    aimed = f' data-targets="{" ".join(escape(t) for t in targets)}"' if targets else ""
    idle = ' aria-disabled="true"' if not card.action and not card.transfer else ""
    start = opening("button", id, oob, first=' type="button"')
    return (
        f'{start} class="{classes}" data-card="{escape(face.code)}"{action}{aimed}'
        f' aria-label="{escape(face.name)}"{idle}>{drawn_face(face)}</button>'
    )


def hand(context: Mapping[str, Any], id: str, oob: bool) -> str:
    label = escape(_("Your cards"))
    return (
        f'{opening("div", id, oob)} class="hand" aria-label="{label}">{context["cards_html"]}</div>'
    )


def round_line(context: Mapping[str, Any], id: str, oob: bool) -> str:
    line = _("Round %(round)s: %(attacker)s led, %(defender)s defends (at most %(limit)s cards).")
    words = line % {
        "round": context["round"],
        "attacker": escape(context["attacker_name"]),
        "defender": escape(context["defender_name"]),
        "limit": context["limit"],
    }
    return f'{opening("p", id, oob)} class="round-info">{words}</p>'


DRAWN_IN_CODE: dict[str, Callable[[Mapping[str, Any], str, bool], str]] = {
    "seat_known": seat_known,
    "pair": pair,
    "hand_card": hand_card,
    "hand": hand,
    "round": round_line,
}
"""The drawers of these pieces, by the name their template had."""
