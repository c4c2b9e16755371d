"""``make bench``: throughput figures measured side by side in one run (medians of repeats).

Not a test: it prints figures and ratios. Machines here are noisy, so each figure is the median
of several repeats and the replay figure is a ratio against a baseline measured in the same run.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from collections.abc import Callable

from redis.asyncio import Redis

from siege.bots.registry import make_bot
from siege.contracts.events import DeckShuffled, DiceRolled, MatchCreated
from siege.dice import fair
from siege.engine.local import play_local
from siege.engine.protocol import ChanceNeeded
from siege.engine.registry import get_engine
from siege.eventlog.embedded import EmbeddedRedis
from siege.eventlog.log import RedisEventLog
from siege.hosting.loader import decode_entries
from siege.hosting.match_state import MatchState, codec_for
from siegeworks.runner import RunConfig, play_matches

REPEATS = 5


def median_of(fn: Callable[[], float], repeats: int = REPEATS) -> float:
    return statistics.median(fn() for _ in range(repeats))


def engine_figures(game: str, players: int, games: int) -> tuple[float, float]:
    """Actions/s and games/s of the bare engine, random bots, chance answered in memory."""
    engine = get_engine(game)
    bot = make_bot(game, "random")
    key = fair.derive_seed(b"bench", game)

    def one_run() -> tuple[float, int]:
        actions = 0
        rng = fair.BotRng(key, "bots")
        start = time.perf_counter()
        for g in range(games):
            index = 0

            def answer(
                need: ChanceNeeded, request: int, label: str = f"g{g}"
            ) -> DiceRolled | DeckShuffled:
                nonlocal index
                if need.kind == "shuffle":
                    order = fair.shuffle(key, label, index, need.count)
                    index += fair.shuffle_cost(need.count)
                    return DeckShuffled(request=request, first_index=0, order=order)
                values = fair.rolls(key, label, index, need.count, need.sides)
                index += need.count
                return DiceRolled(request=request, first_index=0, values=values)

            def choose(state: object, seat: int, legal: list) -> object:
                nonlocal actions
                actions += 1
                return bot.choose(engine.view(state, seat), legal, rng)

            created = MatchCreated(game=game, players=players,
                                   seat_names=[str(s) for s in range(players)])
            play_local(engine, created, choose, answer)
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


def main() -> None:
    game = sys.argv[1] if len(sys.argv) > 1 else "castle-dash"
    print(f"siegeworks bench ({game}); medians of {REPEATS} repeats")
    actions_s, games_s = engine_figures(game, players=4, games=40)
    print(f"engine {game} 4p: {actions_s:,.0f} actions/s, {games_s:,.1f} games/s (one core)")
    replay_s, bare_s, events = asyncio.run(replay_figures(game, players=4, matches=40))
    print(f"replay from redis: {replay_s:,.0f} events/s vs bare XRANGE+decode {bare_s:,.0f} "
          f"events/s ({events} events): replay ratio {replay_s / bare_s:.2f} (aim >= 0.8)")


if __name__ == "__main__":
    main()
