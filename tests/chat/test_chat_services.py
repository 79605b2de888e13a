"""Posting, muting and the staff's hides and site-wide mutes, without a socket."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from chat import mutes, services
from chat.models import Message, Mute, SiteMute
from games.models import Game
from staff.models import StaffAction
from tests.support.tables import open_table, play_out, start_when_due

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(table, frozen_clock):
    return start_when_due(table, frozen_clock)


def test_a_seated_players_line_is_kept_with_the_running_game_after_its_last_event(
    table, game, anna
):
    game.refresh_from_db()
    message = services.post(table.pk, anna, text="good luck")
    assert message.game_id == game.pk
    assert message.after_seq == game.event_seq
    assert message.seat == table.seat_set.get(player=anna).position
    assert (message.kind, message.text) == (Message.Kind.TEXT, "good luck")


def test_posting_never_changes_the_game(table, game, anna):
    before = (game.version, game.state, game.deadline_at)
    services.post(table.pk, anna, text='{"action": "take", "version": 1}')
    game.refresh_from_db()
    assert (game.version, game.state, game.deadline_at) == before


def test_a_line_after_the_game_ended_belongs_to_that_game(table, game, anna, frozen_clock):
    finished = play_out(game, frozen_clock)
    assert finished.status != Game.Status.RUNNING
    message = services.post(table.pk, anna, text="well played")
    assert message.game_id == finished.pk and message.after_seq == finished.event_seq


def test_a_line_before_any_game_belongs_to_the_table_only(table, anna):
    message = services.post(table.pk, anna, text="hi")
    assert message.game is None and message.table_id == table.pk


def test_a_message_becomes_one_line_without_control_or_direction_characters(table, anna):
    message = services.post(table.pk, anna, text="  one\ntwo\r\n\tthree\x00 \u202egnp.exe  ")
    assert message.text == "one two three gnp.exe"


@pytest.mark.parametrize("mark", ["\u200e", "\u200f", "\u061c", "\u200b", "\u200d", "\ufeff"])
def test_a_message_keeps_no_direction_mark_or_zero_width_character(table, anna, mark):
    message = services.post(table.pk, anna, text=f"an{mark}na says hi{mark}")
    assert message.text == "anna says hi"


def test_a_message_of_invisible_characters_only_is_empty(table, anna):
    with pytest.raises(services.ChatRefused, match="Write something first"):
        services.post(table.pk, anna, text="\u200b\u200e\ufeff")


@pytest.mark.parametrize("text", ["", "   ", "\n\t"])
def test_an_empty_message_is_refused_and_nothing_is_kept(table, anna, text):
    with pytest.raises(services.ChatRefused, match="Write something first"):
        services.post(table.pk, anna, text=text)
    assert not Message.objects.exists()


def test_three_hundred_characters_are_the_most_a_message_may_have(table, anna):
    assert len(services.post(table.pk, anna, text="ы" * 300).text) == 300
    with pytest.raises(services.ChatRefused, match="at most 300 characters; this one has 301"):
        services.post(table.pk, anna, text="ы" * 301)
    assert Message.objects.count() == 1


def test_a_spectator_may_not_write_unless_the_table_allows_it(table, clara):
    with pytest.raises(services.ChatRefused, match="Spectators may only read"):
        services.post(table.pk, clara, text="hello")
    table.spectators_chat = True
    table.save(update_fields=["spectators_chat"])
    assert services.post(table.pk, clara, text="hello").seat is None


def test_an_anonymous_visitor_may_not_write(table):
    with pytest.raises(services.ChatRefused, match="Log in"):
        services.post(table.pk, AnonymousUser(), text="hello")


def test_a_closed_or_missing_table_takes_no_lines(table, anna):
    with pytest.raises(services.ChatRefused, match="no such table"):
        services.post(table.pk + 100, anna, text="hello")


def test_a_quick_reaction_is_kept_by_its_code_and_an_unknown_one_is_refused(table, anna):
    message = services.post(table.pk, anna, reaction="well-played")
    assert (message.kind, message.text) == (Message.Kind.REACTION, "well-played")
    with pytest.raises(services.ChatRefused, match="no such quick reaction"):
        services.post(table.pk, anna, reaction="rude-gesture")


def test_a_player_mutes_another_for_themselves_once_and_can_unmute(anna, boris):
    services.mute(anna, boris.pk)
    services.mute(anna, boris.pk)
    assert mutes.muted_ids(anna) == {boris.pk}
    assert mutes.muted_ids(boris) == set()
    services.unmute(anna, boris.pk)
    assert mutes.muted_ids(anna) == set()


def test_nobody_mutes_themselves_or_a_player_who_does_not_exist(anna):
    with pytest.raises(services.ChatRefused, match="cannot mute yourself"):
        services.mute(anna, anna.pk)
    with pytest.raises(services.ChatRefused, match="no such player"):
        services.mute(anna, anna.pk + 1000)
    assert not Mute.objects.exists()


def test_the_staff_hide_a_line_with_a_reason_that_is_kept(table, anna, moderator):
    message = services.post(table.pk, anna, text="rude words")
    services.hide(moderator, message.pk, "  insults  ")
    message.refresh_from_db()
    assert message.hidden and message.hidden_by == moderator
    assert message.hidden_reason == "insults" and message.text == "rude words"
    with pytest.raises(services.ChatRefused, match="already hidden"):
        services.hide(moderator, message.pk, "again")


def test_only_the_staff_hide_and_never_without_a_reason(table, anna, boris, moderator):
    message = services.post(table.pk, anna, text="hello")
    with pytest.raises(services.ChatRefused, match="Only the staff"):
        services.hide(boris, message.pk, "I do not like it")
    with pytest.raises(services.ChatRefused, match="Give a reason"):
        services.hide(moderator, message.pk, "   ")
    with pytest.raises(services.ChatRefused, match="at most 200"):
        services.hide(moderator, message.pk, "x" * 201)
    message.refresh_from_db()
    assert not message.hidden


def test_a_site_wide_mute_silences_a_player_at_every_table_and_says_why(
    table, anna, clara, moderator
):
    services.mute_site_wide(moderator, anna, "spam")
    other = open_table(clara, stake=0, spectators_chat=True)
    for table_id in (table.pk, other.pk):
        with pytest.raises(services.ChatRefused, match="muted you in chat: spam"):
            services.post(table_id, anna, text="buy chips here")
    assert not Message.objects.exists()


def test_a_site_wide_mute_ends_when_lifted_or_when_its_time_is_up(table, anna, moderator):
    lifted = services.mute_site_wide(moderator, anna, "spam")
    services.lift_site_mute(moderator, lifted, "a mistake")
    with pytest.raises(services.ChatRefused, match="already lifted"):
        services.lift_site_mute(moderator, lifted, "again")
    assert services.post(table.pk, anna, text="sorry")
    timed = services.mute_site_wide(
        moderator, anna, "cool down", until=timezone.now() + timedelta(hours=1)
    )
    with pytest.raises(services.ChatRefused, match="until"):
        services.post(table.pk, anna, text="again")
    SiteMute.objects.filter(pk=timed.pk).update(until=timezone.now() - timedelta(seconds=1))
    assert services.post(table.pk, anna, text="back")


def test_only_the_staff_mute_site_wide_with_a_reason_and_a_future_end(anna, boris, moderator):
    with pytest.raises(services.ChatRefused, match="Only the staff"):
        services.mute_site_wide(boris, anna, "spam")
    with pytest.raises(services.ChatRefused, match="Give a reason"):
        services.mute_site_wide(moderator, anna, "")
    with pytest.raises(services.ChatRefused, match="in the future"):
        services.mute_site_wide(moderator, anna, "spam", until=timezone.now())
    assert not SiteMute.objects.exists()


def test_every_hide_mute_and_lift_by_the_staff_is_in_the_audit_trail_with_its_reason(
    table, anna, moderator
):
    message = services.post(table.pk, anna, text="rude words")
    services.hide(moderator, message.pk, "insults")
    until = timezone.now() + timedelta(days=1)
    site_mute = services.mute_site_wide(moderator, anna, "spam", until=until)
    services.lift_site_mute(moderator, site_mute, "appealed")
    trail = list(StaffAction.objects.order_by("id"))
    assert [(a.kind, a.reason, a.staff, a.player) for a in trail] == [
        (StaffAction.Kind.HIDE_CHAT, "insults", moderator, anna),
        (StaffAction.Kind.MUTE_CHAT, "spam", moderator, anna),
        (StaffAction.Kind.UNMUTE_CHAT, "appealed", moderator, anna),
    ]
    assert trail[0].table == table and trail[0].details == {
        "message": message.pk,
        "text": "rude words",
    }
    assert trail[1].details == {"mute": site_mute.pk, "until": until.isoformat()}


def test_a_refused_staff_action_leaves_no_trace_in_the_audit_trail(table, anna, boris, moderator):
    message = services.post(table.pk, anna, text="hello")
    with pytest.raises(services.ChatRefused):
        services.hide(boris, message.pk, "not staff")
    with pytest.raises(services.ChatRefused):
        services.mute_site_wide(moderator, anna, "")
    assert not StaffAction.objects.exists()
