from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.test import Client

from games.picture.rulebook import link_rules
from games.picture.words import CardFace

RULE_NUMBERS = range(1, 17)


def rules_page(client: Client, language: str | None = None) -> str:
    if language:
        client.cookies["django_language"] = language
    response = client.get("/rules/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_the_rules_page_is_in_russian_by_default(client: Client) -> None:
    page = rules_page(client)
    assert '<html lang="ru">' in page
    assert "Правила переводного дурака" in page
    assert "R6.</span> Перевод" in page


@pytest.mark.django_db
def test_the_rules_page_is_in_english_with_the_language_cookie(client: Client) -> None:
    page = rules_page(client, "en")
    assert '<html lang="en">' in page
    assert "Rules of transfer durak" in page
    assert "R6.</span> Transfer" in page
    assert "Правила" not in page


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_rule_has_its_anchor_and_a_contents_link(client: Client, language: str) -> None:
    page = rules_page(client, language)
    for number in RULE_NUMBERS:
        assert page.count(f'id="r{number}"') == 1
        assert f'href="#r{number}"' in page


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_rules_page_loads_its_stylesheet_and_draws_labelled_pictures(
    client: Client, language: str
) -> None:
    page = rules_page(client, language)
    assert "css/rules.css" in page
    pictures = re.findall(r'role="img"\s+aria-label="([^"]+)"', page)
    assert len(pictures) >= 10
    assert 'data-code="6C"' in page


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_bank_table_closes_the_bank_rule(client: Client, language: str) -> None:
    page = rules_page(client, language)
    bank_rule = page.split('id="r14"')[1].split('<section class="rule" id="r15"')[0]
    assert re.search(r"</table>\s*</section>\s*$", bank_rule)
    for share in ("100%", "80%", "20%", "60%", "30%", "10%"):
        assert f"<td>{share}</td>" in bank_rule


def test_a_rule_reference_links_to_its_section() -> None:
    assert link_rules("Nothing to transfer (R6)") == (
        'Nothing to transfer (<a href="/rules/#r6">R6</a>)'
    )


def test_a_rule_reference_link_escapes_the_message() -> None:
    linked = link_rules("<b>Too many</b> cards (R9) & more (R10)")
    assert "<b>" not in linked
    assert "&lt;b&gt;Too many&lt;/b&gt;" in linked
    assert "&amp; more" in linked
    assert '<a href="/rules/#r9">R9</a>' in linked
    assert '<a href="/rules/#r10">R10</a>' in linked


def test_the_card_tag_draws_the_face_of_the_card() -> None:
    html = Template('{% load cards %}{% card "TH" %}').render(Context())
    assert 'data-code="TH"' in html
    assert 'class="card red"' in html
    assert 'data-rank="10" data-suit="♥"' in html and ">♥</span>" in html


def test_the_face_filter_draws_a_face_as_the_card_tag_does() -> None:
    context = Context({"face": CardFace.of("9D")})
    by_face = Template("{% load cards %}{{ face|face }}").render(context)
    assert by_face == Template('{% load cards %}{% card "9D" %}').render(Context())
    assert 'data-code="9D"' in by_face and 'class="card red"' in by_face


def test_the_card_tag_draws_a_black_card_black() -> None:
    html = Template('{% load cards %}{% card "QS" %}').render(Context())
    assert 'class="card"' in html
    assert 'data-rank="Q" data-suit="♠"' in html


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [("en", "server seed"), ("ru", "зерно сервера")])
def test_the_rules_explain_the_fair_deal_to_players_in_their_language(
    client: Client, language: str, words: str
) -> None:
    page = rules_page(client, language)
    assert page.count('id="fair-deal"') == 1 and 'href="#fair-deal"' in page
    section = page.split('id="fair-deal"', 1)[1].split("</section>", 1)[0]
    assert words in section and "SHA-256" in section and "HMAC-SHA256" in section
    assert "README" not in page
