"""A table page as the browser keeps it: frames from the socket applied the way the htmx ws
extension swaps them (each top element out of band, by id or by its `hx-swap-oob` target),
then `#game-attrs` copied onto the section as `static/js/table.js` does."""

from __future__ import annotations

import re

from lxml import html as lxml_html
from lxml.html import HtmlElement

VARYING = ("hx-swap-oob", "data-now", "data-base")
"""Attributes that differ between two pages showing the same thing: the swap instruction
htmx removes, the server's clock at sending, the version a change applied to."""


class Page:
    def __init__(self, first: str = "") -> None:
        self.root: HtmlElement = lxml_html.fragment_fromstring(
            '<div id="table-socket"><div id="notice"></div></div>'
        )
        if first:
            self.apply(first)

    def apply(self, frame: str) -> None:
        for element in lxml_html.fragments_fromstring(frame):
            if not isinstance(element, HtmlElement):
                continue
            self.swap(element)
        self.copy_attrs()

    def swap(self, element: HtmlElement) -> None:
        how = element.attrib.pop("hx-swap-oob", "true")
        style, _colon, selector = how.partition(":")
        if style == "true":
            style = "outerHTML"
        if not selector:
            selector = f"#{element.get('id')}"
        target = self.find(selector)
        if target is None:
            if selector in ("#game", "#log", "#earlier-games"):
                element.tail = None
                self.root.append(element)
            return
        if style == "outerHTML":
            element.tail = target.tail
            parent = target.getparent()
            assert parent is not None, f"{selector} is the page itself"
            parent.replace(target, element)
        elif style == "beforeend":
            if len(target):
                last = target[-1]
                last.tail = (last.tail or "") + (element.text or "")
            else:
                target.text = (target.text or "") + (element.text or "")
            for child in list(element):
                target.append(child)
        elif style == "beforebegin":
            for child in list(element):
                child.tail = None
                target.addprevious(child)
        elif style == "delete":
            target.drop_tree()
        else:
            raise AssertionError(f"a swap this page does not know: {how}")

    def find(self, selector: str) -> HtmlElement | None:
        assert selector.startswith("#"), selector
        found = self.root.xpath(f'.//*[@id="{selector[1:]}"]')
        return found[0] if found else None

    def copy_attrs(self) -> None:
        attrs, game = self.find("#game-attrs"), self.find("#game")
        if attrs is None or game is None:
            return
        game.set("class", f"game phase-{attrs.get('data-phase', '')}")
        for name in ("version", "phase", "seat", "role", "game-id"):
            game.set(f"data-{name}", attrs.get(f"data-{name}", ""))
        me = self.find("#me")
        if me is not None:
            me.set("class", attrs.get("data-me-class", ""))
        for state in attrs.get("data-seats", "").split():
            position, cards, role, waited = state.split(":")
            seat = self.find(f"#seat-{position}")
            assert seat is not None, f"no seat {position} on the page"
            seat.set("data-cards", cards)
            seat.set("data-role", role)
            classes = f"seat role-{role}" + (" waited-on" if waited == "1" else "")
            if position == attrs.get("data-new-defender"):
                classes += " new-defender"
            seat.set("class", classes)
        countdown = self.find("#countdown")
        if countdown is not None:
            countdown.set("data-deadline", attrs.get("data-deadline", ""))
            countdown.set("data-kind", attrs.get("data-kind", ""))
            if attrs.get("data-phase") == "closing":
                countdown.attrib.pop("hidden", None)
            else:
                countdown.set("hidden", "")

    def game(self) -> str:
        """The section as markup, without what differs between equal pages."""
        game = self.find("#game")
        assert game is not None, "the page shows no game section"
        copy = lxml_html.fragment_fromstring(lxml_html.tostring(game, encoding="unicode"))
        for element in copy.iter():
            for name in VARYING:
                element.attrib.pop(name, None)
        return lxml_html.tostring(copy, encoding="unicode")

    def log(self) -> list[str]:
        log = self.find("#log")
        return [] if log is None else [re.sub(r"\s+", " ", li.text_content()) for li in log]
