"""Hypothesis strategies for what a client may send a socket: any JSON, and objects with
the fields of a move (each a likely value or any JSON)."""

from __future__ import annotations

from hypothesis import strategies as st

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
FIELDS = st.fixed_dictionaries(
    {},
    optional={
        "action": st.sampled_from(["lead", "throw-in", "defend", "transfer", "take", "pass"])
        | JSON,
        "card": st.sampled_from(["6S", "TH", "AS", ["6S", "6H"]]) | JSON,
        "target": st.sampled_from(["7S", "QD"]) | JSON,
        "version": st.integers(-3, 10**30) | JSON,
    },
)
