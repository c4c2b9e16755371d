"""A match's log in words: the lines of ``siege replay --text``, ``siege watch`` and of "what
happened since your last turn" in ``siege play``.

Game events read through the game's presentation; the core events (the match's creation, dice,
shuffles, clocks, resignations, the end, the seed and the signature) read the same in every
game, here. A line is told to one seat (``seat``) or to a spectator (None) and never says what
that listener's view hides: a shuffle's order and a die's use come from the log, but only the
dice values (rolled in the open in every game) and the purpose the game gave are told.
"""

from __future__ import annotations

from collections.abc import Sequence

from siege.contracts.events import (
    ActionAccepted,
    ChanceRequested,
    DeckShuffled,
    DiceRolled,
    Event,
    GameEvent,
    MatchCreated,
    MatchDamaged,
    MatchEnded,
    MatchSealed,
    PlayerSeedAdded,
    SeatResigned,
    SeatTimedOut,
    SeedCommitted,
    SeedRevealed,
)
from siege.engine.presentation import Presentation


def ordinal(rank: int) -> str:
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def _purpose(purpose: str) -> str:
    return purpose.replace("_", " ").replace(":", " ").strip() or "the game"


class Narrator:
    """Reads one match's events in order and gives a line for each that people care about
    (None for bookkeeping: an accepted action is told by the game events it made)."""

    def __init__(self, presentation: Presentation, names: Sequence[str],
                 seat: int | None = None) -> None:
        self.presentation, self.names, self.seat = presentation, names, seat
        self._requests: dict[int, ChanceRequested] = {}

    def _name(self, seat: int) -> str:
        if seat == self.seat:
            return "you"
        return self.names[seat] if 0 <= seat < len(self.names) else f"seat {seat}"

    def line(self, seq: int, event: Event) -> str | None:
        if isinstance(event, GameEvent) and type(event) in self.presentation.events:
            return self.presentation.event(event, self.names, self.seat)
        if isinstance(event, ChanceRequested):
            self._requests[seq] = event
            return None
        if isinstance(event, DiceRolled):
            asked = self._requests.pop(event.request, None)
            what = _purpose(asked.purpose) if asked else "the game"
            return f"Dice for {what}: {', '.join(str(v) for v in event.values)}"
        if isinstance(event, DeckShuffled):
            asked = self._requests.pop(event.request, None)
            what = _purpose(asked.purpose) if asked else "a deck"
            return f"Shuffled {len(event.order)} cards ({what})"
        return self._core(event)

    def _core(self, event: Event) -> str | None:
        if isinstance(event, MatchCreated):
            # What the match's options name (the decks it was created with) from here on.
            self.presentation = self.presentation.bound(event)
            return (f"{self.presentation.title} for {event.players}: "
                    f"{', '.join(self._name(s) for s in range(event.players))}")
        if isinstance(event, SeedCommitted):
            return "The dice service committed to its seed"
        if isinstance(event, PlayerSeedAdded):
            return f"{self._name(event.seat).capitalize()} added a seed to the dice"
        if isinstance(event, SeatTimedOut):
            whose = "your" if event.seat == self.seat else f"{self._name(event.seat)}'s"
            return f"{whose.capitalize()} clock ran out: a forfeit"
        if isinstance(event, SeatResigned):
            return f"{self._name(event.seat).capitalize()} resigned"
        if isinstance(event, MatchEnded):
            places = ", ".join(f"{self._name(s)} {ordinal(r)}" for s, r in
                               sorted(enumerate(event.ranks), key=lambda sr: (sr[1], sr[0])))
            return f"The match ended ({event.reason}): {places}"
        if isinstance(event, MatchDamaged):
            return f"The match was found damaged: {event.reason}"
        if isinstance(event, SeedRevealed):
            return "The dice seed was revealed: every roll can be checked"
        if isinstance(event, MatchSealed):
            return "The server signed the finished log"
        if isinstance(event, ActionAccepted):
            return None
        return None
