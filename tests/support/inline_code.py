"""What the Content Security Policy would block in a page or fragment: inline scripts and
styles, event handler attributes, `style` attributes and `javascript:` URLs."""

from __future__ import annotations

from html.parser import HTMLParser

DATA_SCRIPTS = {"application/json", "application/ld+json"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href"}


class InlineCode(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        for name, value in values.items():
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}=...>: an inline event handler")
            elif name == "style":
                self.found.append(f'<{tag} style="{value}">: a style attribute')
            elif name in URL_ATTRIBUTES and value.strip().lower().startswith("javascript:"):
                self.found.append(f'<{tag} {name}="{value}">: a javascript: URL')
        if tag == "script" and "src" not in values and values.get("type") not in DATA_SCRIPTS:
            self.found.append("<script> without src: an inline script")
        if tag == "style":
            self.found.append("<style>: an inline style sheet")


def inline_code(html: str) -> list[str]:
    """Each piece of inline code in `html`, described; empty when there is none."""
    parser = InlineCode()
    parser.feed(html)
    parser.close()
    return parser.found
