"""The easy level: a card player's rules of thumb, from what the seat knows and nothing else."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import Action, Card, Defend, Lead, Pass, Take, ThrowIn, Transfer, beats, in_order

from .knowledge import Knowledge, worth

BEATERS_TRIED = 4
"""How many of the cheapest beaters of each attack card the cover search tries."""
BOUNCE_RISK = 6
"""What a transfer is thought to cost when the next defender may transfer it straight back."""
UNBEATABLE_BONUS = 4
"""What leading a card the defender cannot beat is thought to be worth."""


def cheapest_cover(
    attacks: Sequence[Card], hand: Sequence[Card], trump: str
) -> list[tuple[Card, Card]] | None:
    """The cheapest way to beat every attack card, as (card, target) pairs; None when the hand
    cannot beat them all."""
    order = sorted(attacks, key=lambda card: -worth(card, trump))
    choices = [
        sorted((c for c in hand if beats(c, target, trump)), key=lambda c: worth(c, trump))[
            :BEATERS_TRIED
        ]
        for target in order
    ]
    best: list[tuple[Card, Card]] | None = None
    best_cost = float("inf")

    def search(at: int, used: list[Card], cost: int) -> None:
        nonlocal best, best_cost
        if cost >= best_cost:
            return
        if at == len(order):
            best, best_cost = list(zip(used, order, strict=True)), cost
            return
        for card in choices[at]:
            if card not in used:
                search(at + 1, [*used, card], cost + worth(card, trump))

    search(0, [], 0)
    return best


def choose_easy(k: Knowledge, legal: Sequence[Action]) -> Action:
    """The easy bot's action among ``legal`` (plus, when leading, a lead of several cards)."""
    if any(isinstance(a, Defend | Transfer | Take) for a in legal):
        return defend(k, legal)
    if any(isinstance(a, Lead) for a in legal):
        return lead(k)
    return throw_in(k, legal)


def defend(k: Knowledge, legal: Sequence[Action]) -> Action:
    cover = cheapest_cover(k.unbeaten, k.hand, k.trump)
    cost = float("inf") if cover is None else sum(worth(c, k.trump) for c, _ in cover)
    transfers = [a for a in legal if isinstance(a, Transfer)]
    if transfers:
        transfer = min(transfers, key=lambda a: transfer_cost(k, a.card))
        if transfer_cost(k, transfer.card) < cost:
            return transfer
    take = Take()
    if cover is None or (take in legal and beating_is_too_dear(k, cover)):
        return take if take in legal else legal[0]
    card, target = cover[0]
    return Defend(card, target)


def transfer_cost(k: Knowledge, card: Card) -> float:
    """A transfer spends one card; dearer when the new defender is known to hold the rank and
    can send a bigger attack on."""
    bounce = k.next_in_game(k.seat) in known_rank_holders(k, card.rank)
    return worth(card, k.trump) + (BOUNCE_RISK if bounce else 0)


def known_rank_holders(k: Knowledge, rank: int) -> set[int]:
    return {seat for seat in range(k.players) if any(c.rank == rank for c in k.known[seat])}


def beating_is_too_dear(k: Knowledge, cover: list[tuple[Card, Card]]) -> bool:
    """Early in the game, a small pickup of low cards beats spending high trumps."""
    if k.talon < 2 * k.players:
        return False
    spent = [card for card, _ in cover if card.suit == k.trump]
    dear = len(spent) >= 2 or any(card.rank >= 12 for card in spent)
    pickup = k.on_table
    cheap_pickup = len(pickup) <= 4 and all(worth(c, k.trump) <= 6 for c in pickup)
    return dear and cheap_pickup


def lead(k: Knowledge) -> Lead:
    room = min(k.limit, k.counts[k.defender])
    plain = [c for c in k.hand if c.suit != k.trump]
    pool = plain or list(k.hand)
    defender_cards = k.may_hold(k.defender)
    best: tuple[float, int, list[Card]] | None = None
    for rank in sorted({c.rank for c in pool}):
        group = in_order(c for c in pool if c.rank == rank)
        if rank > 11 and k.talon:
            group = group[:1]
        group = group[: max(room, 1)]
        score = lead_score(k, group, defender_cards)
        if best is None or (score, rank) < best[:2]:
            best = (score, rank, group)
    assert best is not None
    return Lead(best[2])


def lead_score(k: Knowledge, group: list[Card], defender_cards: set[Card]) -> float:
    """Lower is better: cheap cards, several at once, none the defender can transfer or beat."""
    score = worth(group[0], k.trump) - 1.5 * (len(group) - 1)
    if k.defender in known_rank_holders(k, group[0].rank):
        score += 3
    if not any(beats(c, target, k.trump) for c in defender_cards for target in group):
        score -= UNBEATABLE_BONUS
    return score


def throw_in(k: Knowledge, legal: Sequence[Action]) -> Action:
    offered = sorted(
        (a.card for a in legal if isinstance(a, ThrowIn)), key=lambda c: worth(c, k.trump)
    )
    worth_giving = [c for c in offered if gives_away(k, c)]
    if worth_giving:
        return ThrowIn(worth_giving[0])
    return Pass() if Pass() in legal else ThrowIn(offered[0])


def gives_away(k: Knowledge, card: Card) -> bool:
    """Whether throwing this card in is worth more than keeping it."""
    if card.suit == k.trump:
        return k.talon == 0 and len(k.hand) <= 2
    if k.talon == 0:
        return True
    if k.taken:
        return card.rank <= 12
    return card.rank <= (12 if k.talon <= k.players else 10)
