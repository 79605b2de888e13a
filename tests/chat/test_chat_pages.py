"""The chat on the table page and among the moves of a game's history."""

from __future__ import annotations

import re

import pytest

from chat import services
from tests.support.tables import play_out, start_when_due

pytestmark = pytest.mark.django_db

SCRIPT = '<script>alert("x")</script>'
ESCAPED = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"


@pytest.fixture(autouse=True)
def pages_in_english(client, settings) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def moves_of(page: str) -> list[str]:
    log = re.search(r'<ol class="log"[^>]*>(.*?)</ol>', page, re.S)
    assert log is not None
    return re.findall(r"<li\b.*?</li>", log.group(1), re.S)


def test_the_table_page_shows_recent_lines_as_text_and_lets_a_player_write(
    table, anna, boris, client
):
    services.post(table.pk, boris, text=SCRIPT)
    client.force_login(anna)
    page = client.get(table.get_absolute_url()).content.decode()
    panel = page[page.index('id="chat"') :]
    assert ESCAPED in panel and SCRIPT not in page
    assert 'id="chat-form"' in panel and 'maxlength="300"' in panel
    assert "data-staff" not in panel
    assert panel.count('class="reaction"') == 8


EMOJI = re.compile("[\U0001f300-\U0001faff]")


@pytest.mark.parametrize(("language", "name"), [("en", "thumbs up"), ("ru", "палец вверх")])
def test_emoji_reactions_are_pictures_named_in_the_readers_language_not_characters(
    table, anna, boris, client, settings, language, name
):
    from lxml import html

    services.post(table.pk, boris, reaction="thumbs-up")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    client.force_login(anna)
    page = client.get(table.get_absolute_url()).content.decode()
    assert not EMOJI.search(page)
    panel = html.fromstring(page).cssselect("#chat")[0]
    said = panel.cssselect(".chat-reaction img")
    assert [(img.get("src"), img.get("alt")) for img in said] == [
        ("/static/img/reactions/thumbs-up.svg", name)
    ]
    assert panel.cssselect(f'.reaction img[alt="{name}"]')


def test_a_spectator_reads_the_chat_and_is_told_why_there_is_no_box(table, anna, clara, client):
    services.post(table.pk, anna, text="hello")
    client.force_login(clara)
    page = client.get(table.get_absolute_url()).content.decode()
    assert "hello" in page and 'id="chat-form"' not in page
    assert "Spectators may only read the chat at this table." in page
    table.spectators_chat = True
    table.save(update_fields=["spectators_chat"])
    assert 'id="chat-form"' in client.get(table.get_absolute_url()).content.decode()


def test_a_player_muted_by_the_staff_sees_why_instead_of_the_box(table, anna, moderator, client):
    services.mute_site_wide(moderator, anna, "spam links")
    client.force_login(anna)
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'id="chat-form"' not in page and "muted you in chat: spam links" in page


def test_the_staff_get_the_hide_tool_and_a_reader_never_sees_whom_they_muted(
    table, anna, boris, moderator, client
):
    services.post(table.pk, anna, text="from anna")
    services.post(table.pk, boris, text="from boris")
    services.mute(boris, anna.pk)
    client.force_login(boris)
    page = client.get(table.get_absolute_url()).content.decode()
    assert "from boris" in page and "from anna" not in page
    client.force_login(moderator)
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'data-staff="true"' in page and "from anna" in page


@pytest.fixture
def talked_game(table, anna, boris, clara, moderator, frozen_clock):
    """A finished game with lines at the deal and after the end (one hidden), and clara
    muting boris."""
    game = start_when_due(table, frozen_clock)
    services.post(table.pk, anna, text="good luck " + SCRIPT)
    services.post(table.pk, boris, reaction="thanks")
    hidden = services.post(table.pk, boris, text="rude words")
    finished = play_out(game, frozen_clock)
    services.post(table.pk, boris, text="well played")
    services.mute(clara, boris.pk)
    services.hide(moderator, hidden.pk, "insults")
    return finished


def test_the_history_shows_what_was_said_among_the_moves_in_its_place(
    talked_game, anna, clara, client
):
    finished = talked_game

    client.force_login(anna)
    lines = moves_of(client.get(f"/games/{finished.pk}/").content.decode())
    said = [n for n, line in enumerate(lines) if "chat-line" in line]
    assert ESCAPED in lines[said[0]] and SCRIPT not in "".join(lines)
    assert "Thanks" in lines[said[1]]
    assert "hidden by the staff" in lines[said[2]] and "rude words" not in lines[said[2]]
    assert "well played" in lines[said[3]] and said[3] == len(lines) - 1
    assert said[:3] == [said[0], said[0] + 1, said[0] + 2] and said[0] > 0
    assert said[3] > said[2] + 1, "the game's moves come between"
    assert not any("data-chat-mute" in line for line in lines)

    client.force_login(clara)
    seen = "".join(moves_of(client.get(f"/games/{finished.pk}/").content.decode()))
    assert "good luck" in seen and "well played" not in seen and "Thanks" not in seen


def test_the_replay_log_carries_the_chat_as_text_at_the_step_it_was_said_in(
    talked_game, anna, clara, client
):
    client.force_login(anna)
    frames = client.get(f"/games/{talked_game.pk}/replay.json?seat=all").json()
    log = frames["log"]
    said = [n for n, entry in enumerate(log) if entry.get("chat")]
    assert [log[n]["text"] for n in said] == [
        "good luck " + SCRIPT,
        "Thanks",
        "hidden by the staff",
        "well played",
    ]
    assert log[said[2]]["hidden"] and log[said[0]]["author"] == "anna"
    moves = [entry for entry in log if not entry.get("chat")]
    assert all(entry["seq"] <= log[said[0]]["seq"] for entry in log[: said[0]])
    assert log[said[0]]["step"] == log[said[0] - 1]["step"] == 0
    assert said[3] == len(log) - 1 and log[said[3]]["step"] == moves[-1]["step"] > 0
    client.force_login(clara)
    log = client.get(f"/games/{talked_game.pk}/replay.json?seat=all").json()["log"]
    assert [entry["author"] for entry in log if entry.get("chat")] == ["anna"]
