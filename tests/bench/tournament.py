"""Tournament throughput through the four services: matches/s over a Swiss tournament of bot
entrants (the late rounds pair with the full history)."""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from redis.asyncio import Redis

from siege.eventlog.embedded import EmbeddedRedis
from siege.hosting.clock import SystemClock
from siegeworks.supervisor import ServiceProcesses
from siegeworks.tournament_run import TournamentSpec, run_tournament


async def main(entrants: int, rounds: int) -> None:
    spec = TournamentSpec(game="castle-dash", format="swiss", entrants=entrants, rounds=rounds,
                          table_size=4, bots=["random", "greedy"], seed=1)
    with EmbeddedRedis() as server, tempfile.TemporaryDirectory() as logs:
        redis = Redis.from_url(server.url)
        try:
            async with ServiceProcesses(server.url, Path(logs)).running(redis):
                start = time.perf_counter()
                state = await run_tournament(spec, redis, SystemClock())
                seconds = time.perf_counter() - start
        finally:
            await redis.aclose()
    matches = len(state.recorded)
    print(f"tournament castle-dash swiss, {entrants} entrants, tables of 4, {rounds} rounds: "
          f"{matches} matches in {seconds:.1f} s = {matches / seconds:.1f} matches/s")


if __name__ == "__main__":
    entrants = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    asyncio.run(main(entrants, rounds))
