"""Whatever a browser (or anyone) sends, parsing ends in a command or a clear refusal."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.live.protocol import Command, ProtocolError, parse
from tests.support.messages import FIELDS, JSON


@pytest.mark.parametrize(
    ("message", "problem"),
    [
        ("[" * 1000 + "]" * 1000, "not valid JSON"),
        ('{"action": "ping", "version": ' + "[" * 1000 + "]" * 1000 + "}", "not valid JSON"),
        ('{"action": "ping", "version": Infinity}', "whole number"),
        ('{"action": "ping", "version": -Infinity}', "whole number"),
        ('{"action": "ping", "version": NaN}', "whole number"),
        ('{"action": "take", "version": 1e400}', "whole number"),
        ('{"action": "take", "version": 2.5}', "whole number"),
        ('{"action": "take", "version": "1e400"}', "whole number"),
        ('{"action": "take", "version": [1]}', "whole number"),
        ('{"action": ["take"], "version": 1}', "Unknown action"),
        ('{"action": {"a": 1}, "version": 1}', "Unknown action"),
        ('{"action": "lead", "card": {"x": 1}, "version": 1}', "must name a card"),
        ('{"action": "lead", "card": [[]], "version": 1}', "must name a card"),
        ('{"action": "lead", "card": "\\ud800", "version": 1}', "is not a card"),
    ],
)
def test_a_message_that_broke_the_parser_is_refused_with_a_reason(message, problem):
    with pytest.raises(ProtocolError, match=problem) as refusal:
        parse(message)
    str(refusal.value).encode()


def test_a_version_sent_as_text_or_a_whole_float_is_read_as_a_number():
    assert parse('{"action": "take", "version": "12"}') == Command("take", version=12)
    assert parse('{"action": "take", "version": 12.0}') == Command("take", version=12)


@settings(max_examples=400, deadline=None)
@given(st.one_of(FIELDS.map(json.dumps), JSON.map(json.dumps), st.text(max_size=64)))
def test_any_text_is_a_command_or_a_protocol_error(text):
    try:
        command = parse(text)
    except ProtocolError as problem:
        assert str(problem).encode()
    else:
        assert isinstance(command, Command)
