"""What a tournament's next round is, from its state alone (pure): the format's pairing applied
to the standings so far. Re-deriving it on a resume gives the same round."""

from __future__ import annotations

import math

from siege.tournament import pairing
from siege.tournament.events import RoundPaired, match_id_for
from siege.tournament.results import DAMAGED
from siege.tournament.standings import pairing_inputs
from siege.tournament.state import TournamentState


def active(state: TournamentState) -> list[str]:
    withdrawn = set(state.withdrawn)
    return [e for e in state.entrants if e not in withdrawn]


def advancing(state: TournamentState) -> int:
    """How many of each elimination table go on: the winner of a duel, else the top k."""
    created = state.created
    assert created is not None
    if created.table_size == 2:
        return 1
    return created.advance or max(1, created.table_size // 2)


def total_rounds(state: TournamentState) -> int:
    created = state.created
    assert created is not None
    n, size = len(state.entrants), created.table_size
    if created.format == "round-robin":
        if size == 2:
            return len(pairing.round_robin(state.entrants))
        return len(pairing.round_robin_tables(state.entrants, size))
    if created.format == "elimination":
        # Each round keeps the winner of every table (two-player) or its top k.
        keep = advancing(state)
        rounds, left = 0, n
        while left > 1:
            left = math.ceil(left / size) * keep if size > 2 else math.ceil(left / 2)
            rounds += 1
        return max(rounds, 1)
    return created.rounds


def pair_next(state: TournamentState) -> RoundPaired:
    created = state.created
    assert created is not None
    round_ = state.current_round + 1
    size = created.table_size
    if created.format == "round-robin":
        return _round_robin(state, round_, size)
    if created.format == "elimination":
        return _elimination(state, round_, size)
    inputs = pairing_inputs(state.entrants, state.order, two_player=size == 2,
                            withdrawn=frozenset(state.withdrawn))
    standings = [pairing.Standing(entrant=i.entrant, points=i.points, opponents=i.opponents,
                                  byes=i.byes, first_seats=i.first_seats, games=i.games)
                 for i in inputs.values()]
    if size == 2:
        pairs, bye = pairing.swiss_pairs(standings)
        return RoundPaired(round=round_, tables=[list(p) for p in pairs],
                           byes=[bye] if bye else [])
    tables, byes = pairing.swiss_tables(standings, size)
    return RoundPaired(round=round_, tables=tables, byes=byes)


def _round_robin(state: TournamentState, round_: int, size: int) -> RoundPaired:
    if size == 2:
        schedule = pairing.round_robin(state.entrants)[round_ - 1]
        tables = [list(p) for p in schedule if not isinstance(p, str)]
        byes = [p for p in schedule if isinstance(p, str)]
        return RoundPaired(round=round_, tables=tables, byes=byes)
    tables = pairing.round_robin_tables(state.entrants, size)[round_ - 1]
    seated = {e for t in tables for e in t}
    return RoundPaired(round=round_, tables=tables,
                       byes=[e for e in state.entrants if e not in seated])


def _elimination(state: TournamentState, round_: int, size: int) -> RoundPaired:
    if round_ == 1:
        field = active(state)
    else:
        previous = state.rounds[round_ - 1]
        keep = advancing(state)
        field = list(previous.byes)
        for t, table in enumerate(previous.tables):
            result = state.table_result(match_id_for(state.tid, round_ - 1, t))
            assert result is not None
            if result.reason == DAMAGED:  # no result (not replayed): nobody is knocked out
                field += table
                continue
            best = sorted(zip(result.ranks, range(len(table)), strict=True))[:keep]
            field += [table[seat] for _, seat in best]
        # Survivors are re-seeded every round by their original seed (registration order).
        seed_of = {e: i for i, e in enumerate(state.entrants)}
        field.sort(key=seed_of.__getitem__)
    if size == 2:
        bracket = pairing.elimination_bracket(field)
        tables = [[a, b] for a, b in bracket if b is not None]
        byes = [a for a, b in bracket if b is None]
        return RoundPaired(round=round_, tables=tables, byes=byes)
    tables = [field[i:i + size] for i in range(0, len(field), size)]
    byes = [t[0] for t in tables if len(t) == 1]
    return RoundPaired(round=round_, tables=[t for t in tables if len(t) > 1], byes=byes)


