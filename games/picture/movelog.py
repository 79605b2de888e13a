"""The move log a person reads ("Anna transfers with 7♥ to Boris"), in their language, and
the headline over the table for what just changed that is easy to miss.

Events are the engine's full truth; each reader sees them through `public_event`,
except the drawing seat, who sees the cards it drew.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from django.template.loader import render_to_string
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games import rows
from games.engine import DrawEvent, LeadEvent, TakeEvent, labels, public_event
from games.models import Game, SeatInfo
from games.picture.stopped import STOPPED_BY_STAFF
from games.site_events import Logged

EARLIER_GAMES = 10


def log_entries(
    events: Sequence[dict[str, Any]], seats: Sequence[SeatInfo], reader: int | None
) -> list[str]:
    language = get_language()
    names = [info.label_in(language) for info in seats]
    lines = (describe(event, names, reader) for event in events)
    return [line for line in lines if line]


def earlier_games(table_id: int, shown: int | None) -> list[Game]:
    """The table's other finished games, newest first, for links under the log (which name
    each by its number alone, so nothing else of them is read)."""
    return rows.earlier_games(table_id, shown, EARLIER_GAMES)


def render_log(
    events: Sequence[dict[str, Any]],
    seats: Sequence[SeatInfo] | None,
    reader: int | None,
    earlier: Sequence[Game] = (),
) -> str:
    """The log of one game, from its first line, and links to the table's earlier games."""
    lines = log_entries(events, seats, reader) if seats is not None else []
    return render_to_string(
        "games/fragments/log.html", {"items": log_items(lines), "earlier": earlier}
    )


def render_log_append(
    events: Sequence[dict[str, Any]], seats: Sequence[SeatInfo], reader: int | None
) -> str:
    """The lines a version adds to the log, appended to it."""
    lines = log_entries(events, seats, reader)
    if not lines:
        return ""
    return f'<ol hx-swap-oob="beforeend:#log">{log_items(lines)}</ol>'


def log_items(lines: Sequence[str]) -> SafeString:
    """The log's lines as its items: written here rather than drawn from a template, since
    every version draws them for every audience and every snapshot draws a whole log."""
    return SafeString("".join(f"<li>{conditional_escape(line)}</li>" for line in lines))


def headline(events: Sequence[dict[str, Any]], seats: Sequence[SeatInfo]) -> dict[str, Any] | None:
    """A short line for what just changed that is easy to miss: a transfer or the drawing."""
    transfers = [event for event in events if event["type"] == "transfer"]
    if transfers:
        defender = transfers[-1]["to"]
        return {
            "kind": "transfer",
            "defender": defender,
            "text": _("Now %(name)s defends.") % {"name": seats[defender].label},
        }
    draws = [event for event in events if event["type"] == "draw" and event["count"]]
    if draws:
        parts = ", ".join(f"{seats[event['seat']].label} +{event['count']}" for event in draws)
        return {"kind": "draw", "defender": None, "text": _("Drawing: %(who)s") % {"who": parts}}
    return None


def visible(event: Logged, reader: int | None) -> Logged:
    if event["type"] == "draw" and event["seat"] != reader:
        return public_event(event)
    return event


def describe(event: Mapping[str, Any], names: Sequence[str], reader: int | None) -> str | None:
    """The line of a game's log (an event as stored) that ``reader`` reads; None for an event
    the log does not tell."""
    return line_of(visible(cast(Logged, event), reader), names)


def line_of(event: Logged, names: Sequence[str]) -> str | None:
    if event["type"] == "deal":
        return _("Cards are dealt. Seed fingerprint: %(hash)s…") % {"hash": event["seed_hash"][:16]}
    if event["type"] == "round":
        return _("Round %(round)s: %(attacker)s attacks %(defender)s, at most %(limit)s cards") % {
            "round": event["round"],
            "attacker": names[event["attacker"]],
            "defender": names[event["defender"]],
            "limit": event["limit"],
        }
    if event["type"] == "lead":
        words = {"who": names[event["seat"]], "cards": labels(event["cards"])}
        return _("%(who)s leads %(cards)s") % words + late(event)
    if event["type"] == "throw_in":
        return _("%(who)s throws in %(card)s") % {
            "who": names[event["seat"]],
            "card": labels([event["card"]]),
        }
    if event["type"] == "defend":
        return _("%(who)s beats %(target)s with %(card)s") % {
            "who": names[event["seat"]],
            "target": labels([event["target"]]),
            "card": labels([event["card"]]),
        }
    if event["type"] == "transfer":
        return _("%(who)s transfers with %(card)s to %(to)s") % {
            "who": names[event["seat"]],
            "card": labels([event["card"]]),
            "to": names[event["to"]],
        }
    if event["type"] == "take":
        return _("%(who)s takes") % {"who": names[event["seat"]]} + late(event)
    if event["type"] == "pass":
        return _("%(who)s passes") % {"who": names[event["seat"]]}
    if event["type"] == "pick_up":
        return _("%(who)s picks up %(cards)s") % {
            "who": names[event["seat"]],
            "cards": labels(event["cards"]),
        }
    if event["type"] == "discard":
        return _("Beaten: %(cards)s go to the discard pile") % {"cards": labels(event["cards"])}
    if event["type"] == "draw":
        return describe_draw(event, names[event["seat"]])
    if event["type"] == "finish":
        return _("%(who)s has no cards left and finishes") % {"who": names[event["seat"]]}
    if event["type"] == "over":
        if event["durak"] is None:
            return _("The game ends in a draw")
        return _("The game is over: %(who)s is the durak") % {"who": names[event["durak"]]}
    if event["type"] == "seed":
        return _("The deck's seed was %(seed)s") % {"seed": event["seed"]}
    if event["type"] == "stopped":
        return _(
            "After %(round)s rounds among bots alone the game stops: those still holding cards "
            "share the last places, as in a draw"
        ) % {"round": event["round"]}
    if event["type"] == "aborted":
        return str(STOPPED_BY_STAFF)
    return None


def late(event: LeadEvent | TakeEvent) -> str:
    """R15: the engine acted for a seat out of time."""
    return _(" (out of time)") if event.get("auto") else ""


def describe_draw(event: DrawEvent, who: str) -> str:
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
