"""What the staff read about a player: the games, the ledger and the sessions."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from axes.models import AccessLog
from django.contrib.sessions.models import Session
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from accounts.models import Account, User
from games.models import GamePlayer
from staff.models import StaffAction

LISTED = 100


def search(text: str = "") -> QuerySet[User]:
    wallet = Account.objects.filter(kind=Account.Kind.WALLET, user=OuterRef("pk"))
    players = User.objects.annotate(chips=Subquery(wallet.values("balance")[:1]))
    text = text.strip()
    if text:
        players = players.filter(Q(username__icontains=text) | Q(email__icontains=text))
    return players.order_by("username")[:LISTED]


def games(user: User) -> QuerySet[GamePlayer]:
    return (
        GamePlayer.objects.filter(player=user)
        .select_related("game__table")
        .order_by("-game__started_at")[:LISTED]
    )


@dataclass(frozen=True)
class Visit:
    logged_in: datetime
    logged_out: datetime | None
    ip_address: str | None
    user_agent: str


def visits(user: User) -> list[Visit]:
    """The player's logins, newest first, as recorded at each login and logout."""
    logins = AccessLog.objects.filter(username=user.get_username()).order_by("-attempt_time")
    return [
        Visit(entry.attempt_time, entry.logout_time, entry.ip_address, entry.user_agent)
        for entry in logins[:LISTED]
    ]


def live_sessions(user: User) -> list[Session]:
    """The sessions that would let the player in right now."""
    found = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if session.get_decoded().get("_auth_user_id") == str(user.pk):
            found.append(session)
    return found


def end_sessions(user: User) -> int:
    """Logs the player out everywhere; how many sessions ended."""
    ended = live_sessions(user)
    Session.objects.filter(pk__in=[session.pk for session in ended]).delete()
    return len(ended)


def actions_on(user: User) -> QuerySet[StaffAction]:
    return StaffAction.objects.filter(player=user).select_related("staff", "table", "game")[:LISTED]
