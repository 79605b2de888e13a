"""The move log a person reads ("Anna transfers with 7♥ to Boris"), in their language.

Events are the engine's full truth; each reader sees them through `public_event`,
except the drawing seat, who sees the cards it drew.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import labels, public_event
from games.picture.stopped import STOPPED_BY_STAFF


def visible(event: dict[str, Any], reader: int | None) -> dict[str, Any]:
    if event.get("type") == "draw" and event.get("seat") == reader:
        return event
    return public_event(event)


def describe(event: dict[str, Any], names: Sequence[str], reader: int | None) -> str | None:
    event = visible(event, reader)
    kind = event["type"]
    who = names[event["seat"]] if event.get("seat") is not None else ""
    late = _(" (out of time)") if event.get("auto") else ""
    if kind == "deal":
        return _("Cards are dealt. Seed fingerprint: %(hash)s…") % {"hash": event["seed_hash"][:16]}
    if kind == "round":
        return _("Round %(round)s: %(attacker)s attacks %(defender)s, at most %(limit)s cards") % {
            "round": event["round"],
            "attacker": names[event["attacker"]],
            "defender": names[event["defender"]],
            "limit": event["limit"],
        }
    if kind == "lead":
        return _("%(who)s leads %(cards)s") % {"who": who, "cards": labels(event["cards"])} + late
    if kind == "throw_in":
        return _("%(who)s throws in %(card)s") % {"who": who, "card": labels([event["card"]])}
    if kind == "defend":
        return _("%(who)s beats %(target)s with %(card)s") % {
            "who": who,
            "target": labels([event["target"]]),
            "card": labels([event["card"]]),
        }
    if kind == "transfer":
        return _("%(who)s transfers with %(card)s to %(to)s") % {
            "who": who,
            "card": labels([event["card"]]),
            "to": names[event["to"]],
        }
    if kind == "take":
        return _("%(who)s takes") % {"who": who} + late
    if kind == "pass":
        return _("%(who)s passes") % {"who": who}
    if kind == "pick_up":
        return _("%(who)s picks up %(cards)s") % {"who": who, "cards": labels(event["cards"])}
    if kind == "discard":
        return _("Beaten: %(cards)s go to the discard pile") % {"cards": labels(event["cards"])}
    if kind == "draw":
        return describe_draw(event, who)
    if kind == "finish":
        return _("%(who)s has no cards left and finishes") % {"who": who}
    if kind == "over":
        if event["durak"] is None:
            return _("The game ends in a draw")
        return _("The game is over: %(who)s is the durak") % {"who": names[event["durak"]]}
    if kind == "seed":
        return _("The deck's seed was %(seed)s") % {"seed": event["seed"]}
    if kind == "stopped":
        return _(
            "After %(round)s rounds among bots alone the game stops: those still holding cards "
            "share the last places, as in a draw"
        ) % {"round": event["round"]}
    if kind == "aborted":
        return str(STOPPED_BY_STAFF)
    return None


def describe_draw(event: dict[str, Any], who: str) -> str:
    count = event["count"]
    line = ngettext("%(who)s draws %(count)s card", "%(who)s draws %(count)s cards", count) % {
        "who": who,
        "count": count,
    }
    if event.get("cards"):
        line += ": " + labels(event["cards"])
    if event.get("shown"):
        line += _(", including the trump card %(card)s") % {"card": labels(event["shown"])}
    return line
