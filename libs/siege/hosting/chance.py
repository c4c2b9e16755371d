"""What the dice service owes a match log: the seed commitment, answers to chance requests,
and the reveal once the match has ended. It never looks at the game."""

from __future__ import annotations

from siege.contracts.events import (
    DeckShuffled,
    DiceRolled,
    Event,
    SeedCommitted,
    SeedRevealed,
)
from siege.dice import fair
from siege.hosting.match_state import MatchState


def owed_by_dice(ms: MatchState, seed: bytes) -> Event | None:
    """The next event the dice service must append, given the match's secret seed."""
    if ms.created is None:
        return None
    if ms.ended is not None:
        # An end (a damaged one may leave a chance request open) owes only the reveal; a match
        # damaged before any commitment made no roll, so it owes nothing.
        if ms.commitment is not None and ms.revealed is None:
            return SeedRevealed(seed=seed.hex())
        return None
    if ms.commitment is None:
        return SeedCommitted(commitment=fair.commitment(seed))
    if ms.open_request is not None:
        return answer(ms, seed)
    return None


def answer(ms: MatchState, seed: bytes) -> Event:
    assert ms.open_request is not None
    request_seq, need = ms.open_request
    key = fair.mix_key(seed, ms.player_seeds)
    if need.kind == "shuffle":
        order = fair.shuffle(key, ms.match_id, ms.next_roll, need.count)
        return DeckShuffled(request=request_seq, first_index=ms.next_roll, order=order)
    values = fair.rolls(key, ms.match_id, ms.next_roll, need.count, need.sides)
    return DiceRolled(request=request_seq, first_index=ms.next_roll, values=values)
