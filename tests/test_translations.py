"""Every word a player reads goes through translation, and Russian has all of them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"
TEMPLATE_DIRS = [
    ROOT / "templates",
    ROOT / "games" / "templates",
    ROOT / "accounts" / "templates",
    ROOT / "staff" / "templates",
]
WHOLE_LANGUAGE_DOCUMENTS = {"rules_ru.html", "rules_en.html"}

STRIPPED = [
    re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", re.S),
    re.compile(r"{#.*?#}", re.S),
    re.compile(r"{%\s*blocktranslate\b.*?{%\s*endblocktranslate\s*%}", re.S),
    re.compile(r"<(script|style)\b.*?</\1>", re.S),
    re.compile(r"{%.*?%}", re.S),
    re.compile(r"{{.*?}}", re.S),
    re.compile(r"&[a-z]+;|&#\d+;"),
]
READABLE_ATTRIBUTES = re.compile(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"')
TAG = re.compile(r"<[^>]*>", re.S)
WORD = re.compile(r"[A-Za-zА-Яа-яЁё]{2,}")


def templates() -> list[Path]:
    found = []
    for folder in TEMPLATE_DIRS:
        if folder.exists():
            found += [p for p in folder.rglob("*.html") if p.name not in WHOLE_LANGUAGE_DOCUMENTS]
    return sorted(found)


def unmarked_text(source: str) -> list[str]:
    for pattern in STRIPPED:
        source = pattern.sub(" ", source)
    readable = READABLE_ATTRIBUTES.findall(source)
    text = TAG.sub(" ", source)
    return [chunk.strip() for chunk in [*readable, *text.split("\n")] if WORD.search(chunk)]


@pytest.mark.parametrize("template", templates(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_template_string_is_marked_for_translation(template: Path) -> None:
    assert unmarked_text(template.read_text(encoding="utf-8")) == []


def test_the_check_finds_an_unmarked_string() -> None:
    assert unmarked_text('<p>{% translate "Take" %}</p><button title="Pass">x</button>') == ["Pass"]
    assert unmarked_text("<p>Take the cards</p>") == ["Take the cards"]


def test_the_russian_catalogue_has_no_missing_or_fuzzy_entry() -> None:
    catalogue = polib.pofile(str(CATALOGUE))
    assert [entry.msgid for entry in catalogue.fuzzy_entries()] == []
    assert [entry.msgid for entry in catalogue.untranslated_entries()] == []
    assert catalogue.obsolete_entries() == []


def test_the_compiled_russian_catalogue_matches_its_source() -> None:
    source = polib.pofile(str(CATALOGUE))
    compiled = polib.mofile(str(CATALOGUE.with_suffix(".mo")))
    expected = {key_of(e): text_of(e) for e in source.translated_entries()}
    shipped = {key_of(e): text_of(e) for e in compiled}
    assert {key: shipped.get(key) for key in expected} == expected


def key_of(entry: polib.POEntry | polib.MOEntry) -> tuple[str | None, str]:
    return entry.msgctxt or None, entry.msgid


def text_of(entry: polib.POEntry | polib.MOEntry) -> str:
    if entry.msgstr_plural:
        return "|".join(entry.msgstr_plural[index] for index in sorted(entry.msgstr_plural))
    return entry.msgstr


def test_every_message_in_the_code_is_in_the_russian_catalogue(tmp_path: Path) -> None:
    if shutil.which("xgettext") is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("gettext is not installed")
        pytest.skip("gettext (xgettext) is not installed: apt-get install gettext")
    copy = tmp_path / "project"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "artifacts", "*.sqlite3*", "__pycache__", "staticfiles", "node_modules"
        ),
    )
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "ru", "--no-obsolete", "-v", "0"],
        cwd=copy,
        check=True,
        env={**os.environ, "DJANGO_DEBUG": "1"},
        timeout=300,
    )
    extracted = polib.pofile(str(copy / "locale" / "ru" / "LC_MESSAGES" / "django.po"))
    shipped = {(e.msgctxt, e.msgid) for e in polib.pofile(str(CATALOGUE)) if not e.obsolete}
    missing = sorted(e.msgid for e in extracted if (e.msgctxt, e.msgid) not in shipped)
    assert missing == []
