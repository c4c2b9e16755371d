"""Who must act after an append: the pointer goes only to that service's bus.

At every point of a match exactly one service owes the log its next event, which is also why
logs come out in one order however the services are spread over processes.
"""

from __future__ import annotations

from siege.contracts.events import (
    ChanceRequested,
    Event,
    MatchCreated,
    MatchDamaged,
    MatchEnded,
    MatchSealed,
    SeedRevealed,
)


def next_owner(last: Event) -> str:
    """The service that owes the event after ``last``."""
    if isinstance(last, MatchCreated | ChanceRequested | MatchEnded | MatchDamaged):
        return "dice"  # commit the seed, answer the request, reveal the seed
    if isinstance(last, SeedRevealed | MatchSealed):
        return "scoring"  # the match is over and provable: record it
    return "rules"  # a chance answer, a commitment or an action: what follows is the game's
