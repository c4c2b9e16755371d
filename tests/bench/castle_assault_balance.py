"""``make bench``: Castle Assault's balance, measured in one run (seeded, so reproducible).

Greedy against random for each warband from both seats, the greedy-against-greedy matrix of all
16 pairings and the head-to-head table, with Wilson intervals; the games run on two processes.
``python tests/bench/castle_assault_balance.py [GAMES]`` (200 a series by default).
"""

from __future__ import annotations

import sys
import time

from siege.games.castle_assault.balance import report


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    start = time.perf_counter()
    print(f"castle-assault balance, {games} games a series")
    print(report(games))
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
