"""Tables, seats, games and the append-only log of what happened in each game."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import get_language, gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.engine import Game as EngineGame
from games.engine import Phase

ONLINE_FOR = timedelta(seconds=45)
BOT_DELAY = (1.5, 3.0)
"""A bot's move falls due at a random moment this many seconds after it has something to
do (R16)."""


class BotLevel(models.TextChoices):
    """The bots' levels (``games.bots.LEVELS``), as every form, page and row names them."""

    EASY = "easy", _("easy")
    STRONG = "strong", _("strong")


def bot_name(position: int) -> str:
    """A bot is named by its seat, in the language being rendered right now."""
    return bot_name_in(position, get_language())


@lru_cache(maxsize=64)
def bot_name_in(position: int, language: str | None) -> str:
    """A bot's name in `language`: the pictures name every bot for every audience of every
    version, and looking each name up again cost more than drawing it."""
    with translation.override(language):
        return gettext("Bot %(position)s") % {"position": position + 1}


def new_invite_code() -> str:
    return secrets.token_urlsafe(9)


def practice_name(game: Game) -> str:
    return gettext("Practice: the deal of game #%(id)s") % {"id": game.practice_of_id or game.pk}


def bots_game_name(level: str) -> str:
    return gettext("Bots' game (%(level)s)") % {"level": BotLevel(level).label}


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        PLAYING = "playing", _("playing")
        CLOSED = "closed", _("closed")

    name = models.CharField(_("name"), max_length=60)
    stake = models.PositiveIntegerField(_("stake"), default=0, help_text=_("0 makes a free table"))
    seats = models.PositiveSmallIntegerField(
        _("seats"), default=2, validators=[MinValueValidator(2), MaxValueValidator(4)]
    )
    move_time = models.PositiveSmallIntegerField(
        _("move time (seconds)"),
        default=30,
        validators=[MinValueValidator(10), MaxValueValidator(120)],
    )
    bots_allowed = models.BooleanField(_("bots may fill seats"), default=True)
    private = models.BooleanField(_("private"), default=False)
    spectators_chat = models.BooleanField(_("spectators may write in the chat"), default=False)
    invite_code = models.CharField(_("invite code"), max_length=16, default=new_invite_code)
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_tables",
        verbose_name=_("creator"),
    )
    starts_at = models.DateTimeField(_("next game starts at"), null=True, blank=True, db_index=True)
    busy_until = models.DateTimeField(
        _("expected start while the site is full"), null=True, blank=True
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    next_seed = models.CharField(
        _("server seed of the next deal"), max_length=64, blank=True, editable=False
    )
    next_seed_hash = models.CharField(
        _("SHA-256 of the next deal's server seed"), max_length=64, blank=True, editable=False
    )
    practice_of = models.ForeignKey(
        "Game",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="practice_tables",
        verbose_name=_("deals the cards of"),
    )
    bots_game = models.CharField(
        _("bots' game of level"),
        max_length=8,
        blank=True,
        choices=BotLevel.choices,
        help_text=_(
            "Set on the tables play_bots opens: their name is said in the reader's language."
        ),
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seats__gte=2, seats__lte=4), name="table_seats_2_to_4"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("table", args=[self.pk])

    @property
    def title(self) -> str:
        """The name as shown: the tables the site names itself (a practice, a bots' game) are
        named in the reader's language, the others as their creator named them."""
        if self.practice_of is not None:
            return practice_name(self.practice_of)
        if self.bots_game:
            return bots_game_name(self.bots_game)
        return self.name

    def seats_in_order(self) -> list[Seat]:
        """Its seats with their players, by position."""
        return list(self.seat_set.select_related("player").order_by("position"))

    def host_id(self, seats: list[Seat]) -> int | None:
        """The creator while seated here; otherwise the person in the lowest seat."""
        people = [seat.player_id for seat in seats if seat.player_id is not None]
        if self.creator_id in people:
            return self.creator_id
        return people[0] if people else None


class Seat(models.Model):
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seat_set", verbose_name=_("table")
    )
    position = models.PositiveSmallIntegerField(_("position"))
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="seats",
        verbose_name=_("player"),
    )
    bot_level = models.CharField(_("bot level"), max_length=8, choices=BotLevel.choices, blank=True)
    away = models.BooleanField(_("away"), default=False)
    left = models.BooleanField(_("left the running game"), default=False)
    timeouts = models.PositiveSmallIntegerField(_("move timeouts in a row"), default=0)
    ready = models.BooleanField(_("ready for the next game"), default=False)
    last_seen = models.DateTimeField(_("last seen at the table"), null=True, blank=True)
    release_at = models.DateTimeField(
        _("stood up at, unless back by then"),
        null=True,
        blank=True,
        db_index=True,
        help_text=_("between games, a player who is offline or away gives up the seat then"),
    )
    client_seed = models.CharField(
        _("the player's seed for the next deal"), max_length=64, blank=True, editable=False
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(
                fields=["player"], condition=Q(player__isnull=False), name="one_seat_per_player"
            ),
            models.CheckConstraint(
                condition=(Q(player__isnull=False) & Q(bot_level=""))
                | (Q(player__isnull=True) & ~Q(bot_level="")),
                name="seat_is_a_player_or_a_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.position}: {self.label}"

    @property
    def is_bot(self) -> bool:
        return self.player_id is None

    @property
    def online(self) -> bool:
        """A person's socket reported in lately (see games.live.presence)."""
        return self.is_bot or (
            self.last_seen is not None and timezone.now() - self.last_seen < ONLINE_FOR
        )

    @property
    def autopiloted(self) -> bool:
        """Played by a bot: a bot seat, or a person who is away or has left (R15)."""
        return self.is_bot or self.away or self.left

    @property
    def label(self) -> str:
        return self.player.username if self.player is not None else bot_name(self.position)


class Game(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        FINISHED = "finished", pgettext_lazy("game status", "finished")
        ABORTED = "aborted", _("aborted")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="games", verbose_name=_("table")
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.RUNNING
    )
    state = models.JSONField(_("engine state"))
    version = models.PositiveIntegerField(_("version"), default=0)
    table_version = models.PositiveIntegerField(
        default=0, help_text=_("the version at which the cards on the table last changed")
    )
    event_seq = models.PositiveIntegerField(default=0, help_text=_("seq of the last event"))
    deadline_at = models.DateTimeField(_("next deadline"), null=True, blank=True, db_index=True)
    writer = models.CharField(max_length=64, default="", blank=True, editable=False)
    bot_moves = models.JSONField(default=dict, blank=True, help_text=_("seat -> due time"))
    seed = models.CharField(_("seed"), max_length=64)
    seed_hash = models.CharField(_("SHA-256 of the seed"), max_length=64)
    stake = models.PositiveIntegerField(_("stake"), default=0)
    bank = models.PositiveIntegerField(_("bank"), default=0)
    client_seeds = models.JSONField(_("seats' seeds"), default=list, blank=True)
    deal = models.JSONField(
        _("deal"), default=dict, blank=True, help_text=_("hands, talon and the time of the deal")
    )
    practice_of = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="practices",
        verbose_name=_("practice of"),
    )
    started_at = models.DateTimeField(_("started"), default=timezone.now)
    finished_at = models.DateTimeField(pgettext_lazy("time", "finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(status="running"), name="one_running_game_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"Game #{self.pk} at {self.table}"


class GameEvent(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="events", verbose_name=_("game")
    )
    seq = models.PositiveIntegerField(_("number"))
    version = models.PositiveIntegerField(
        _("version"), default=0, help_text=_("the game version this event produced")
    )
    type = models.CharField(_("type"), max_length=32)
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    data = models.JSONField(_("data"), default=dict)
    created_at = models.DateTimeField(_("time"), auto_now_add=True)

    class Meta:
        verbose_name = _("game event")
        verbose_name_plural = _("game events")
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="event_seq_unique")]


class GamePlayer(models.Model):
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="players", verbose_name=_("game")
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="game_players",
    )
    bot_level = models.CharField(_("bot level"), max_length=8, choices=BotLevel.choices, blank=True)
    stake = models.PositiveIntegerField(_("stake"), default=0)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    payout = models.PositiveIntegerField(_("payout"), null=True, blank=True)
    durak = models.BooleanField(_("durak"), default=False)

    class Meta:
        verbose_name = _("player in a game")
        verbose_name_plural = _("players in games")
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="game_player_seat_unique")
        ]

    @property
    def label(self) -> str:
        return self.player.username if self.player is not None else bot_name(self.seat)


@dataclass
class BotSchedule:
    """When each seat that no person plays (a bot's, an autopiloted one: R15/R16) moves next,
    as stored in `Game.bot_moves`: due times by seat, and the table version at which each
    seat last acted.

    A seat's move falls due at a random moment `BOT_DELAY` after it has something to do.
    Having acted, it waits for the cards on the table to change before it is asked again;
    a bot that passed is asked again only once its pass is void (a new rank, a take or a
    transfer), as a person's pass would be."""

    due: dict[int, float] = field(default_factory=dict)
    acted: dict[int, str] = field(default_factory=dict)

    @classmethod
    def load(cls, data: dict[str, Any]) -> BotSchedule:
        return cls(
            due={int(seat): float(at) for seat, at in data.get("due", {}).items()},
            acted={int(seat): str(key) for seat, key in data.get("acted", {}).items()},
        )

    def dump(self) -> dict[str, Any]:
        return {
            "due": {str(seat): at for seat, at in self.due.items()},
            "acted": {str(seat): key for seat, key in self.acted.items()},
        }

    def earliest(self) -> float | None:
        return min(self.due.values(), default=None)

    def due_seats(self, now: float) -> list[int]:
        return sorted(
            (seat for seat, at in self.due.items() if at <= now), key=self.due.__getitem__
        )

    def refresh(
        self, game: EngineGame, autopiloted: set[int], now: float, rng: random.Random
    ) -> None:
        key = table_key(game)
        for seat in range(game.players):
            wants = (
                seat in autopiloted
                and game.phase != Phase.OVER
                and seat not in game.passed
                and self.acted.get(seat) != key
                and bool(game.legal_actions(seat))
            )
            if not wants:
                self.due.pop(seat, None)
            elif seat not in self.due:
                self.due[seat] = now + rng.uniform(*BOT_DELAY)

    def record_move(self, seat: int, key: str) -> None:
        self.due.pop(seat, None)
        self.acted[seat] = key


def table_key(game: EngineGame) -> str:
    """Changes exactly when the cards on the table change (a new round included)."""
    cards = ",".join(f"{attack}{defence or ''}" for attack, defence in game.table)
    return f"{game.round}|{int(game.taken)}|{cards}"


@dataclass(frozen=True)
class SeatInfo:
    """Who plays a position, as a plain value: what the pictures show of a seat."""

    position: int
    username: str
    is_bot: bool
    bot_level: str
    away: bool
    left: bool
    online: bool = True

    @property
    def label(self) -> str:
        """Read when rendering, so a bot is named in each audience's language."""
        return self.label_in(get_language())

    def label_in(self, language: str | None) -> str:
        """What the player is called in `language` (a bot is named by its seat)."""
        return self.username or bot_name_in(self.position, language)


def seat_infos(seats: Iterable[Seat | GamePlayer]) -> list[SeatInfo]:
    """Who sits at each position: of a table's seats, or of a game's players."""
    infos = []
    for seat in seats:
        if isinstance(seat, Seat):
            infos.append(
                SeatInfo(
                    seat.position,
                    seat.player.username if seat.player is not None else "",
                    seat.is_bot,
                    seat.bot_level,
                    seat.away,
                    seat.left,
                    seat.online,
                )
            )
        else:
            infos.append(
                SeatInfo(
                    seat.seat,
                    seat.player.username if seat.player is not None else "",
                    seat.player_id is None,
                    seat.bot_level,
                    False,
                    False,
                )
            )
    return infos
