"""Balance measurement for Storm the Castle!: for each army, the greedy bot playing it against
random seats (the greedy seat rotated), and four greedy seats: how often each army enters the
keep, tops the vilest ranking and ranks first, and how often the defenders hold. Rates come
with 95% Wilson intervals (``siege.testing.playout.wilson``).

Run: ``.venv/bin/python -m siege.games.storm_castle.balance [games]`` (default 200).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import msgspec

from siege.bots.protocol import RandomBot, Rng
from siege.contracts.events import MatchCreated
from siege.dice import fair
from siege.engine.local import play_local
from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import ARMY_NAMES
from siege.games.storm_castle.board import NOBODY
from siege.games.storm_castle.bots import GreedyBot
from siege.games.storm_castle.engine import StormTheCastle
from siege.games.storm_castle.rules.scoring import vilest
from siege.games.storm_castle.state import State
from siege.testing.playout import FairChance, wilson

ENGINE = StormTheCastle()
PLAYERS = 4


class ArmyGreedy(GreedyBot):
    """The greedy bot, taking ``army`` at set-up."""

    def __init__(self, army: int) -> None:
        self.army = army

    def choose(self, view: Any, legal: Sequence[Any], rng: Rng) -> Any:
        want = a.ChooseArmy(army=self.army)
        if view.asking == "army" and want in legal:
            return want
        return super().choose(view, legal, rng)


class RandomAvoiding(RandomBot):
    """A random bot that leaves ``army`` to the greedy seat."""

    def __init__(self, army: int) -> None:
        self.army = army

    def choose(self, view: Any, legal: Sequence[Any], rng: Rng) -> Any:
        if view.asking == "army":
            legal = [x for x in legal if x != a.ChooseArmy(army=self.army)]
        return super().choose(view, legal, rng)


class Rate(msgspec.Struct, frozen=True):
    wins: int
    games: int

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def text(self) -> str:
        low, high = wilson(self.wins, self.games) if self.games else (0.0, 0.0)
        low, high = max(0.0, low), min(1.0, high)
        return f"{100 * self.share:.1f}% ({100 * low:.1f}–{100 * high:.1f})"


def play(bots: Sequence[Any], seed: int, label: str) -> State:
    """One seeded four-seat match with fair dice; returns the final state."""
    name = f"{label}-{seed}"
    key = fair.derive_seed(b"siege-balance", name)
    rngs = [fair.BotRng(key, f"{name}-seat-{seat}") for seat in range(len(bots))]

    def choose(state: State, seat: int, legal: list[Any]) -> Any:
        return bots[seat].choose(ENGINE.view(state, seat), legal, rngs[seat])

    created = MatchCreated(game=ENGINE.name, players=len(bots),
                           seat_names=[f"seat-{i}" for i in range(len(bots))], options={})
    final, _ = play_local(ENGINE, created, choose, FairChance(key, name))
    return final


def greedy_vs_random(army: int, games: int, first_seed: int = 0) -> Rate:
    """Games in which one greedy seat playing ``army`` ranks first (a shared first counts)
    against three random seats; game g seats it at ``g % 4``."""
    wins = 0
    for g in range(games):
        hero = g % PLAYERS
        bots: list[Any] = [RandomAvoiding(army) for _ in range(PLAYERS)]
        bots[hero] = ArmyGreedy(army)
        final = play(bots, first_seed + g, f"vs-random-{army}")
        wins += ENGINE.ranks(final)[hero] == 1
    return Rate(wins, games)


class Table(msgspec.Struct, frozen=True):
    """Four greedy seats: per army, keep entries, vilest tops and first places."""

    games: int
    keep: list[int]
    vilest: list[int]
    first: list[int]
    defenders: int


def four_greedy(games: int, first_seed: int = 0) -> Table:
    keep, tops, first = [0] * 4, [0] * 4, [0] * 4
    held = 0
    for g in range(games):
        final = play([GreedyBot() for _ in range(PLAYERS)], first_seed + g, "four-greedy")
        totals = [vilest(final, seat).total for seat in range(PLAYERS)]
        ranks = ENGINE.ranks(final)
        for seat in range(PLAYERS):
            army = final.armies[seat]
            keep[army] += final.winner == seat
            tops[army] += totals[seat] == max(totals)
            first[army] += ranks[seat] == 1
        held += final.winner == NOBODY
    return Table(games=games, keep=keep, vilest=tops, first=first, defenders=held)


def report(games: int = 200) -> str:
    """The README's balance table in Markdown."""
    rows = ["| army | greedy vs random: first | 4 greedy: enters the keep | tops the vilest "
            "| ranks first |", "|---|---|---|---|---|"]
    table = four_greedy(games)
    for army, name in enumerate(ARMY_NAMES):
        vs = greedy_vs_random(army, games)
        rows.append(f"| {name} | {vs.text()} | {Rate(table.keep[army], games).text()} "
                    f"| {Rate(table.vilest[army], games).text()} "
                    f"| {Rate(table.first[army], games).text()} |")
    rows.append(f"\nDefenders hold in {Rate(table.defenders, games).text()} of {games} "
                "four-greedy games.")
    return "\n".join(rows)


if __name__ == "__main__":
    print(report(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
