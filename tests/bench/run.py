"""``make bench``: throughput figures measured side by side in one run (medians of repeats).

Not a test: it prints figures and ratios. Machines here are noisy, so each figure is the median
of several repeats and the replay figure is a ratio against a baseline measured in the same run.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

from redis.asyncio import Redis

from siege.bots.registry import bot_names
from siege.engine.registry import game_names, get_engine
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.log import RedisEventLog
from siege.hosting.loader import decode_entries
from siege.hosting.match_state import MatchState, codec_for
from siege.testing.playout import rotated_win_rate, seeded_playout, wilson
from siegeworks.runner import RunConfig, play_matches

REPEATS = 5


def engine_figures(game: str, players: int, games: int) -> tuple[float, float]:
    """Actions/s and games/s of the bare engine: random bots choosing from their views, chance
    answered in memory from the fair-dice stream."""
    engine = get_engine(game)
    bots = ["random"] * players

    def one_run() -> tuple[float, int]:
        actions = 0

        def count(state: object, seat: int, action: object) -> None:
            nonlocal actions
            actions += 1

        start = time.perf_counter()
        for g in range(games):
            seeded_playout(engine, bots, seed=g, on_action=count)
        return time.perf_counter() - start, actions

    runs = [one_run() for _ in range(REPEATS)]
    seconds = statistics.median(r[0] for r in runs)
    return runs[0][1] / seconds, games / seconds


async def replay_figures(game: str, players: int, matches: int) -> tuple[float, float, int]:
    """Replay events/s from Redis, and the bare XRANGE + decode rate of the same streams."""
    with EmbeddedRedis() as server:
        client = Redis.from_url(server.url)
        log = RedisEventLog(client)
        cfg = RunConfig(game=game, matches=matches, players=players, bots=["random"], seed=1)
        result = await play_matches(cfg, log)
        codec = codec_for(game)
        ids = result.match_ids
        events = 0
        for match_id in ids:
            events += len(await log.read(match_id))

        async def bare() -> float:
            start = time.perf_counter()
            for match_id in ids:  # the same XRANGE read the replay uses, then decode only
                for _seq, stored, _hash in await log.read(match_id):
                    codec.decode(stored)
            return time.perf_counter() - start

        async def replay() -> float:
            start = time.perf_counter()
            for match_id in ids:
                decode_entries(MatchState(match_id), await log.read(match_id))
            return time.perf_counter() - start

        bare_s, replay_s = [], []
        for _ in range(REPEATS):  # interleaved, so drift on a noisy machine hits both alike
            bare_s.append(await bare())
            replay_s.append(await replay())
        await client.aclose()
    return events / statistics.median(replay_s), events / statistics.median(bare_s), events


# The figures the project tracks; other games at their minimum.
PLAYERS = {"castle-dash": 4, "storm-the-castle": 4}


def main() -> None:
    chosen = sys.argv[1:] or game_names()
    print(f"siegeworks bench ({', '.join(chosen)}); medians of {REPEATS} repeats")
    for game in chosen:
        engine = get_engine(game)
        players = PLAYERS.get(game, engine.min_players)
        actions_s, games_s = engine_figures(game, players=players, games=40)
        print(f"engine {game} {players}p: {actions_s:,.0f} actions/s, {games_s:,.1f} games/s "
              "(one core)")
        if "greedy" in bot_names(game):
            games = 200
            rate = rotated_win_rate(engine, players, games)
            low, high = wilson(round(rate * games), games)
            print(f"greedy (seat rotated) vs {players - 1} random, {game}: greedy first in "
                  f"{rate:.1%} of {games} games (95% CI {low:.1%}-{high:.1%})")
        replay_s, bare_s, events = asyncio.run(replay_figures(game, players, matches=40))
        print(f"replay from redis, {game}: {replay_s:,.0f} events/s vs bare XRANGE+decode "
              f"{bare_s:,.0f} events/s ({events} events): replay ratio {replay_s / bare_s:.2f} "
              "(aim >= 0.8)")


if __name__ == "__main__":
    main()
