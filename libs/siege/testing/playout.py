"""Seeded in-memory playouts with fair dice and named bots: the shared driver for every game's
property tests, bot win-rate tests and engine benchmarks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from siege.bots.registry import make_bot
from siege.contracts.events import DeckShuffled, DiceRolled, Event, MatchCreated
from siege.dice import fair
from siege.engine.local import play_local
from siege.engine.protocol import ChanceNeeded, Engine


class FairChance:
    """Answers chance exactly as the dice service would for one match, from ``seed``."""

    def __init__(self, seed: bytes, match_id: str) -> None:
        self.key = seed
        self.match_id = match_id
        self.index = 0

    def __call__(self, need: ChanceNeeded, request: int) -> DiceRolled | DeckShuffled:
        first = self.index
        if need.kind == "shuffle":
            order = fair.shuffle(self.key, self.match_id, first, need.count)
            self.index += fair.shuffle_cost(need.count)
            return DeckShuffled(request=request, first_index=first, order=order)
        values = fair.rolls(self.key, self.match_id, first, need.count, need.sides)
        self.index += need.count
        return DiceRolled(request=request, first_index=first, values=values)


def seeded_playout(
    engine: Engine[Any],
    bots: Sequence[str],
    seed: int,
    options: dict[str, str] | None = None,
    on_action: Callable[[Any, int, Any], None] | None = None,
) -> tuple[Any, list[Event]]:
    """Plays one match to the end: seat ``i`` is bot ``bots[i]``, choosing from its own view."""
    label = f"playout-{seed}"
    key = fair.derive_seed(b"siege-playout", label)
    players = [make_bot(engine.name, name) for name in bots]
    rngs = [fair.BotRng(key, f"{label}-seat-{seat}") for seat in range(len(bots))]

    def choose(state: Any, seat: int, legal: list[Any]) -> Any:
        action = players[seat].choose(engine.view(state, seat), legal, rngs[seat])
        if on_action is not None:
            on_action(state, seat, action)
        return action

    created = MatchCreated(game=engine.name, players=len(bots),
                           seat_names=[f"{b}-{i}" for i, b in enumerate(bots)],
                           options=options or {})
    return play_local(engine, created, choose, FairChance(key, label))


def win_rate(engine: Engine[Any], bots: Sequence[str], hero: int, games: int,
             first_seed: int = 0) -> float:
    """Share of ``games`` in which seat ``hero`` ranks first (a shared first counts fully)."""
    wins = 0
    for g in range(games):
        state, _ = seeded_playout(engine, bots, first_seed + g)
        wins += engine.ranks(state)[hero] == 1
    return wins / games


def rotated_win_rate(engine: Engine[Any], players: int, games: int,
                     first_seed: int = 0) -> float:
    """Share of ``games`` in which one greedy bot among random ones ranks first (a shared first
    counts), the greedy seat rotated over the seats: game g seats it at ``g % players``."""
    wins = 0
    for g in range(games):
        hero = g % players
        bots = ["random"] * players
        bots[hero] = "greedy"
        state, _ = seeded_playout(engine, bots, first_seed + g)
        wins += engine.ranks(state)[hero] == 1
    return wins / games


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% with z = 1.96)."""
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * (p * (1 - p) / games + z * z / (4 * games * games)) ** 0.5 / (1 + z * z / games)
    return centre - half, centre + half
