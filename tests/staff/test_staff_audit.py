"""Every staff action is in the audit trail, which nobody can edit, and the admin no longer
offers to delete tables, games, seats, events, ledger rows or players."""

from __future__ import annotations

import uuid

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from accounts import ledger
from chat import services as chat
from games.table import tables
from staff import operations
from staff.models import StaffAction
from tests.support.tables import open_table, start_when_due

pytestmark = pytest.mark.usefixtures("ledger_audit")


def test_every_kind_of_staff_action_is_recorded_with_who_what_and_why(
    frozen_clock, sofia, anna, boris, clara
):
    table = open_table(anna, stake=10)
    tables.join(table.pk, boris)
    start_when_due(table, frozen_clock)
    line = chat.post(table.pk, anna, text="rude words")
    operations.notify_table(sofia, table.pk, "hello table")
    operations.kick(sofia, table.pk, 1, "kick reason")
    operations.stop_game(sofia, table.pk, "stop reason")
    operations.lock_table(sofia, table.pk, "lock reason")
    operations.unlock_table(sofia, table.pk, "unlock reason")
    operations.close_table(sofia, table.pk, "close reason")
    notice = operations.post_site_notice(sofia, "banner text")
    operations.end_site_notice(sofia, notice.pk, "end reason")
    operations.pause_new_games(sofia, "pause reason")
    operations.resume_new_games(sofia, "resume reason")
    operations.deactivate(sofia, clara, "deactivate reason")
    operations.reactivate(sofia, clara, "reactivate reason")
    operations.adjust_chips(sofia, clara, -10, "adjust reason", key=str(uuid.uuid4()))
    chat.hide(sofia, line.pk, "hide reason")
    chat.lift_site_mute(sofia, chat.mute_site_wide(sofia, anna, "mute reason"), "lift reason")
    recorded = list(StaffAction.objects.order_by("pk").values_list("kind", "reason"))
    assert [kind for kind, _reason in recorded] == [
        "table_notice",
        "kick",
        "stop_game",
        "lock_table",
        "unlock_table",
        "close_table",
        "site_notice",
        "end_site_notice",
        "pause",
        "resume",
        "deactivate",
        "reactivate",
        "adjust_chips",
        "hide_chat",
        "mute_chat",
        "unmute_chat",
    ]
    assert {kind for kind, _reason in recorded} == set(StaffAction.Kind.values)
    assert all(reason for _kind, reason in recorded)
    assert set(StaffAction.objects.values_list("staff__username", flat=True)) == {"sofia"}


def test_the_audit_trail_cannot_be_edited_or_deleted(sofia, anna):
    operations.post_site_notice(sofia, "banner")
    action = StaffAction.objects.get()
    action.reason = "rewritten"
    with pytest.raises(TypeError):
        action.save()
    with pytest.raises(TypeError):
        action.delete()
    with pytest.raises(TypeError):
        StaffAction.objects.update(reason="rewritten")
    with pytest.raises(TypeError):
        StaffAction.objects.all().delete()
    assert StaffAction.objects.get().reason == "banner"


def test_the_audit_trail_shows_in_the_admin_read_only_and_on_the_staff_pages(
    staff_browser, admin_client, sofia
):
    operations.pause_new_games(sofia, "maintenance at noon")
    action = StaffAction.objects.get()
    listing = admin_client.get(reverse("admin:staff_staffaction_changelist")).content.decode()
    assert "maintenance at noon" in listing and "delete_selected" not in listing
    change = admin_client.get(reverse("admin:staff_staffaction_change", args=[action.pk]))
    assert change.status_code == 200 and 'name="_save"' not in change.content.decode()
    assert admin_client.post(
        reverse("admin:staff_staffaction_delete", args=[action.pk]), {"post": "yes"}
    ).status_code in (302, 403)
    assert StaffAction.objects.filter(pk=action.pk).exists()
    for url in (reverse("staff_audit"), reverse("staff_tables")):
        assert "maintenance at noon" in staff_browser.get(url).content.decode()


@pytest.mark.parametrize(
    "model",
    [
        "games_table",
        "games_game",
        "games_gameevent",
        "accounts_transfer",
        "accounts_account",
        "accounts_user",
    ],
)
def test_the_admin_offers_no_bulk_deletion_of_history_and_money(admin_client, model):
    page = admin_client.get(reverse(f"admin:{model}_changelist")).content.decode()
    assert "delete_selected" not in page


def test_the_table_admin_cannot_delete_a_seat(frozen_clock, admin_client, anna):
    table = open_table(anna, stake=0)
    page = admin_client.get(reverse("admin:games_table_change", args=[table.pk])).content.decode()
    assert "seat_set-0-DELETE" not in page


def test_closing_a_table_from_the_admin_is_recorded(frozen_clock, admin_client, admin_user, anna):
    table = open_table(anna, stake=0)
    admin_client.post(
        reverse("admin:games_table_changelist"),
        {"action": "close_tables", "_selected_action": [str(table.pk)]},
    )
    action = StaffAction.objects.get()
    assert (action.staff, action.kind, action.table_id) == (admin_user, "close_table", table.pk)


def test_a_balance_adjustment_from_the_admin_is_recorded(admin_client, admin_user, anna):
    admin_client.post(
        reverse("admin:accounts_user_changelist"),
        {
            "action": "adjust_balance",
            ACTION_CHECKBOX_NAME: [anna.pk],
            "apply": "1",
            "amount": "-30",
            "reason": "a refund given twice",
            "key": str(uuid.uuid4()),
        },
    )
    assert ledger.balance(anna) == 970
    action = StaffAction.objects.get()
    assert (action.staff, action.kind, action.player, action.reason) == (
        admin_user,
        "adjust_chips",
        anna,
        "a refund given twice",
    )
