"""The staff's chat tools in the admin: every hide and mute asks for a reason and keeps it."""

from __future__ import annotations

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.contrib.auth import get_user_model

from chat import services
from chat.models import Message, SiteMute
from tests.support.tables import open_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def admin_in_english(client, admin_client, settings) -> None:
    for browser in (client, admin_client):
        browser.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


@pytest.fixture
def line(anna):
    table = open_table(anna, stake=0)
    return services.post(table.pk, anna, text="rude words")


def act(admin_client, model: str, action: str, pks: list[int], **fields: str):
    return admin_client.post(
        f"/admin/chat/{model}/",
        {"action": action, ACTION_CHECKBOX_NAME: [str(pk) for pk in pks], **fields},
    )


def test_hiding_lines_in_the_admin_asks_for_a_reason_first(admin_client, line):
    asked = act(admin_client, "message", "hide_messages", [line.pk])
    assert asked.status_code == 200 and 'name="reason"' in asked.content.decode()
    line.refresh_from_db()
    assert not line.hidden
    act(admin_client, "message", "hide_messages", [line.pk], apply="1", reason="insults")
    line.refresh_from_db()
    assert line.hidden and line.hidden_reason == "insults"
    assert line.hidden_by.username == "admin"


def test_muting_the_authors_site_wide_from_their_lines_keeps_the_reason(admin_client, line, anna):
    act(admin_client, "message", "mute_authors", [line.pk], apply="1", reason="spam")
    mute = SiteMute.objects.get()
    assert (mute.player, mute.reason, mute.by.username) == (anna, "spam", "admin")


def test_a_site_wide_mute_added_in_the_admin_is_by_whoever_added_it(admin_client, anna):
    response = admin_client.post(
        "/admin/chat/sitemute/add/", {"player": anna.pk, "reason": "flooding", "until": ""}
    )
    assert response.status_code == 302
    mute = SiteMute.objects.get()
    assert (mute.player, mute.by.username, mute.until) == (anna, "admin", None)
    act(admin_client, "sitemute", "lift", [mute.pk], apply="1", reason="served the time")
    mute.refresh_from_db()
    assert mute.lifted_at is not None
    assert mute.lifted_by is not None and mute.lifted_by.username == "admin"


def test_a_site_wide_mute_needs_a_reason_and_an_end_in_the_future(admin_client, anna):
    page = admin_client.post(
        "/admin/chat/sitemute/add/",
        {"player": anna.pk, "reason": "", "until_0": "2000-01-01", "until_1": "00:00:00"},
    ).content.decode()
    assert "This field is required" in page and "must be in the future" in page
    assert not SiteMute.objects.exists()


def test_chat_records_cannot_be_deleted_or_edited_in_the_admin(admin_client, line):
    assert admin_client.post(f"/admin/chat/message/{line.pk}/delete/").status_code == 403
    admin_client.post(f"/admin/chat/message/{line.pk}/change/", {"text": "nice words"})
    assert Message.objects.get().text == "rude words"


def test_staff_without_chat_permissions_get_no_moderation_actions(client, line):
    staff = get_user_model().objects.create_user("helper", password="x", is_staff=True)
    client.force_login(staff)
    act(client, "message", "hide_messages", [line.pk], apply="1", reason="x")
    line.refresh_from_db()
    assert not line.hidden
