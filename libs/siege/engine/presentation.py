"""How a game reads to people: a drawing of a view, actions and events in words, a summary of
its rules. ``siege play`` (and later ``watch``, ``replay --text`` and the web pages) show a game
only through these, so every hosted game provides one (``<package>.presentation.PRESENTATION``,
found by :func:`siege.engine.registry.presentation`).

Text is our own words, short, in the game's terms: an action in the imperative ("place 3
soldiers against Blue's castle"), an event in the past tense ("Red placed 3 soldiers against
Blue's castle"). Seats are named by the names given (``names[seat]``), cards by their names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import RenderableType

from siege.contracts.events import MatchCreated
from siege.engine.scene import Scene

Names = Sequence[str]
ActionText = Callable[[Any, Any, Names], str]
"""``(action, view of the seat choosing, names) -> one line``."""
SceneOf = Callable[[Any, Names, "int | None"], Scene]
"""``(view, names, seat told or None for a spectator) -> the board as a page draws it``."""
Target = Callable[[Any, Any], str]
"""``(action, view of the seat choosing) -> the id of the scene's piece the action picks`` (a
place, a card, a unit), or "" where it picks none: clicking that piece offers the action."""
Group = Callable[[Any, Any, Names], str]
"""``(action, view, names) -> the heading it is listed under`` ("Archers on north rampart 1",
"Fireball") where a decision offers many actions; "" for none."""
EventText = Callable[[Any, Names, "int | None"], str]
"""``(event, names, seat told or None for a spectator) -> one line``, never revealing what that
seat's view (or, for a spectator, every seat's view) hides."""


def seat_name(names: Names, seat: int) -> str:
    """A seat by its name, or "seat N" where no name is given for it."""
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def who(names: Names, seat: int, told: int | None) -> str:
    """A seat as told to ``told``: "you" for itself, else its name."""
    return "you" if told is not None and told == seat else seat_name(names, seat)


def whose(names: Names, seat: int, told: int | None) -> str:
    return "your" if told is not None and told == seat else f"{seat_name(names, seat)}'s"


def sentence(text: str) -> str:
    """Capitalises a line that opens with "you"/"your" (names are kept as given)."""
    return text[0].upper() + text[1:] if text.startswith(("you ", "your ")) else text


@dataclass(frozen=True)
class Presentation:
    title: str
    rules_summary: str  # a few short paragraphs: the goal, a turn, how it ends
    board: Callable[[Any, Names], RenderableType]  # a view drawn in 80 columns, 40 lines at most
    actions: dict[type, ActionText] = field(default_factory=dict)  # one per action type
    events: dict[type, EventText] = field(default_factory=dict)  # one per game event type
    # The board a page draws (see siege.engine.scene); every hosted game gives one.
    scene: SceneOf | None = None
    target: Target = lambda action, view: ""
    group: Group = lambda action, view, names: ""
    # For a game whose events name things only the match's options resolve (Castle Assault's
    # cards are positions in deck lists the create gives): the presentation of one match.
    for_match: Callable[[MatchCreated], Presentation] | None = None

    def bound(self, created: MatchCreated) -> Presentation:
        """The presentation that tells the match ``created`` began."""
        return self if self.for_match is None else self.for_match(created)

    def action(self, action: Any, view: Any, names: Names) -> str:
        return self.actions[type(action)](action, view, names)

    def event(self, event: Any, names: Names, seat: int | None = None) -> str:
        return self.events[type(event)](event, names, seat)
