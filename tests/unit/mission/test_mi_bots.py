"""Bots: they choose from the view alone, and the greedy bot beats random play."""

from __future__ import annotations

from typing import Any

from mission_support import ENGINE, created, replay

from siege.bots.protocol import RandomBot
from siege.dice.fair import BotRng
from siege.engine.local import play_local
from siege.games.mission.bots import GreedyBot
from siege.games.mission.views import MissionView
from siege.testing.playout import FairChance, win_rate

GAMES = 200


class ViewOnly:
    """Wraps a bot and records that it is only ever handed a view."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.calls = 0

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        assert isinstance(view, MissionView)
        self.calls += 1
        action = self.bot.choose(view, legal, rng)
        assert action in legal
        return action


def play_with(bots: list[Any], seed: bytes) -> tuple[Any, list[Any]]:
    rngs = [BotRng(seed, f"seat-{seat}") for seat in range(2)]

    def choose(state: Any, seat: int, legal: list[Any]) -> Any:
        return bots[seat].choose(ENGINE.view(state, seat), legal, rngs[seat])

    return play_local(ENGINE, created(), choose, FairChance(seed, seed.hex()))


def test_greedy_bot_plays_legal_moves_from_its_view_alone() -> None:
    for k in range(5):
        bots = [ViewOnly(GreedyBot()), ViewOnly(RandomBot())]
        final, events = play_with(bots, f"legal{k}".encode())
        assert ENGINE.is_terminal(final) and replay(events) == final
        assert all(bot.calls > 0 for bot in bots)


def test_greedy_bot_is_deterministic_for_a_given_rng() -> None:
    runs = [play_with([GreedyBot(), GreedyBot()], b"same")[1] for _ in range(2)]
    assert runs[0] == runs[1]


def test_greedy_bot_wins_a_clear_majority_of_200_seeded_games_against_random() -> None:
    as_seat_0 = win_rate(ENGINE, ["greedy", "random"], hero=0, games=GAMES)
    as_seat_1 = win_rate(ENGINE, ["random", "greedy"], hero=1, games=GAMES)
    print(f"greedy win rate against random: seat 0 {as_seat_0:.3f}, seat 1 {as_seat_1:.3f}")
    assert as_seat_0 >= 0.75 and as_seat_1 >= 0.75
