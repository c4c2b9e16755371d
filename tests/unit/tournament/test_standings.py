"""Standings, tie-breaks and pairing inputs as projections of recorded results, checked against
values computed by hand (the hand computation is written next to each tournament)."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from siege.tournament.events import EntrantRegistered
from siege.tournament.results import Bye, TableResult
from siege.tournament.standings import (
    BUCHHOLZ,
    OPPONENTS_POINTS,
    SONNEBORN_BERGER,
    PairingInput,
    StandingRow,
    pairing_inputs,
    standings,
    table_points,
)
from siege.tournament.state import TournamentState, evolve


def t(rnd: int, match_id: str, entrants: str, ranks: list[int]) -> TableResult:
    return TableResult(round=rnd, match_id=match_id, entrants=list(entrants), ranks=ranks)


def by_entrant(rows: list[StandingRow]) -> dict[str, StandingRow]:
    return {row.entrant: row for row in rows}


# --- table points ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ([1, 2], [1.0, 0.0]),  # two players: win 1, loss 0
        ([2, 1], [0.0, 1.0]),
        ([1, 1], [0.5, 0.5]),  # draw
        ([1, 2, 3], [2.0, 1.0, 0.0]),
        ([3, 1, 2], [0.0, 2.0, 1.0]),  # seats need not be in rank order
        ([1, 2, 3, 4], [3.0, 2.0, 1.0, 0.0]),
        ([1, 2, 2, 4], [3.0, 1.5, 1.5, 0.0]),  # 2nd+3rd worth 2+1, shared: 1.5 each
        ([1, 2, 2, 3], [3.0, 1.5, 1.5, 0.0]),  # dense ranks score like competition ranks
        ([1, 2, 3, 3], [3.0, 2.0, 0.5, 0.5]),  # two forfeits share last: (1+0)/2
        ([1, 1, 1], [1.0, 1.0, 1.0]),  # all tie: (2+1+0)/3
        ([2, 2, 1, 2], [1.0, 1.0, 3.0, 1.0]),  # 3 tie for 2nd of 4: (2+1+0)/3
        ([1, 2, 3, 4, 5, 6], [5.0, 4.0, 3.0, 2.0, 1.0, 0.0]),
        ([2, 2, 1, 5, 5], [2.5, 2.5, 4.0, 0.5, 0.5]),  # (3+2)/2 and (1+0)/2
    ],
)
def test_table_points(ranks: list[int], expected: list[float]) -> None:
    assert table_points(ranks) == expected


def test_table_points_rejects_rank_zero() -> None:
    with pytest.raises(ValueError):
        table_points([0, 1])


@given(st.lists(st.integers(min_value=1, max_value=6), min_size=2, max_size=6))
def test_table_points_shares_the_positions_points(ranks: list[int]) -> None:
    points = table_points(ranks)
    n = len(ranks)
    assert sum(points) == n * (n - 1) / 2  # every position's points are handed out once
    for i in range(n):
        for j in range(n):
            if ranks[i] == ranks[j]:
                assert points[i] == points[j]
            elif ranks[i] < ranks[j]:
                assert points[i] > points[j]


# --- a small two-player tournament (with byes) ---------------------------------------------

# Five entrants, three rounds; seat 0 is listed first.
#   R1: m1 A beats B          m2 C draws D          E bye
#   R2: m3 E loses to A       m4 D beats B          C bye
#   R3: m5 A loses to C       m6 B draws E          D bye
TWO_PLAYER = [
    t(1, "m1", "AB", [1, 2]),
    t(1, "m2", "CD", [1, 1]),
    Bye(round=1, entrant="E"),
    t(2, "m3", "EA", [2, 1]),
    t(2, "m4", "DB", [1, 2]),
    Bye(round=2, entrant="C"),
    t(3, "m5", "AC", [2, 1]),
    t(3, "m6", "BE", [1, 1]),
    Bye(round=3, entrant="D"),
]
ENTRANTS = ["A", "B", "C", "D", "E"]

# Points (a bye is a win, 1):
#   A = 1 + 1 + 0     = 2      B = 0 + 0 + .5   = .5     C = .5 + 1(bye) + 1 = 2.5
#   D = .5 + 1 + 1(bye) = 2.5  E = 1(bye) + 0 + .5 = 1.5        (total 9 = 6 games + 3 byes)
# Buchholz = sum of the opponents' final points; a bye is a virtual opponent with 0 points:
#   A: B + E + C = .5 + 1.5 + 2.5 = 4.5     B: A + D + E = 2 + 2.5 + 1.5 = 6
#   C: D + A (+0 bye) = 2.5 + 2 = 4.5       D: C + B (+0 bye) = 2.5 + .5 = 3
#   E: A + B (+0 bye) = 2 + .5 = 2.5
# Sonneborn-Berger = sum of own game score x opponent's final points:
#   A: 1*.5 (B) + 1*1.5 (E) + 0*2.5 (C) = 2       B: 0*2 + 0*2.5 + .5*1.5 (E) = .75
#   C: .5*2.5 (D) + 1*2 (A) = 3.25                D: .5*2.5 (C) + 1*.5 (B) = 1.75
#   E: 0*2 (A) + .5*.5 (B) = .25
# Order: C and D both 2.5, C ahead on Buchholz (4.5 > 3); then A 2, E 1.5, B .5.
EXPECTED_TWO_PLAYER = [
    # rank, entrant, points, buchholz, sonneborn-berger, played, byes
    (1, "C", 2.5, 4.5, 3.25, 2, 1),
    (2, "D", 2.5, 3.0, 1.75, 2, 1),
    (3, "A", 2.0, 4.5, 2.0, 3, 0),
    (4, "E", 1.5, 2.5, 0.25, 2, 1),
    (5, "B", 0.5, 6.0, 0.75, 3, 0),
]


def test_two_player_points_buchholz_and_sonneborn_berger_by_hand() -> None:
    rows = standings(ENTRANTS, TWO_PLAYER, two_player=True)
    got = [
        (
            r.rank,
            r.entrant,
            r.points,
            r.tiebreaks[BUCHHOLZ],
            r.tiebreaks[SONNEBORN_BERGER],
            r.played,
            r.byes,
        )
        for r in rows
    ]
    assert got == EXPECTED_TWO_PLAYER
    assert all(set(r.tiebreaks) == {BUCHHOLZ, SONNEBORN_BERGER} for r in rows)
    assert not any(r.withdrawn for r in rows)


def test_bye_scores_a_win_and_adds_nothing_to_tiebreaks() -> None:
    rows = by_entrant(
        standings(["A", "B", "C"], [t(1, "m1", "AB", [2, 1]), Bye(round=1, entrant="C")], True)
    )
    # C: bye = 1 point, no game played; Buchholz 0 and SB 0 (virtual opponent with 0 points).
    assert rows["C"] == StandingRow(
        rank=1,
        entrant="C",
        points=1.0,
        tiebreaks={BUCHHOLZ: 0.0, SONNEBORN_BERGER: 0.0},
        played=0,
        byes=1,
        withdrawn=False,
    )
    # B beat A: 1 point, Buchholz = A's 0, SB = 1 * 0. B and C are equal on every key.
    assert rows["B"].rank == 1 and rows["B"].points == 1.0
    assert rows["A"].rank == 3


def test_sonneborn_berger_breaks_a_buchholz_tie() -> None:
    # R1: A beats B, C draws D.   R2: A draws C, B beats D.
    # Points: A 1.5, B 1, C 1, D .5.
    # Buchholz: B = A + D = 1.5 + .5 = 2; C = D + A = .5 + 1.5 = 2 (tied).
    # SB: B = 0*1.5 + 1*.5 = .5; C = .5*.5 + .5*1.5 = 1  ->  C above B.
    results = [
        t(1, "m1", "AB", [1, 2]),
        t(1, "m2", "CD", [1, 1]),
        t(2, "m3", "AC", [1, 1]),
        t(2, "m4", "BD", [1, 2]),
    ]
    rows = standings(["A", "B", "C", "D"], results, two_player=True)
    assert [(r.rank, r.entrant) for r in rows] == [(1, "A"), (2, "C"), (3, "B"), (4, "D")]
    assert rows[1].tiebreaks == {BUCHHOLZ: 2.0, SONNEBORN_BERGER: 1.0}
    assert rows[2].tiebreaks == {BUCHHOLZ: 2.0, SONNEBORN_BERGER: 0.5}


def test_rows_equal_on_every_key_share_a_rank() -> None:
    # A beats B, C beats D: A and C have 1 point, Buchholz 0, SB 0; B and D have all zeros.
    results = [t(1, "m1", "CD", [1, 2]), t(1, "m2", "AB", [1, 2])]
    rows = standings(["D", "C", "B", "A"], results, two_player=True)
    # competition ranking (1, 1, 3, 3); the entrant id only orders equal rows for display
    assert [(r.rank, r.entrant) for r in rows] == [(1, "A"), (1, "C"), (3, "B"), (3, "D")]


def test_no_results_everyone_ranks_first() -> None:
    rows = standings(["b", "a"], [], two_player=True)
    assert [(r.rank, r.entrant, r.points, r.played) for r in rows] == [
        (1, "a", 0.0, 0),
        (1, "b", 0.0, 0),
    ]


def test_withdrawn_entrants_stay_flagged_and_are_not_paired() -> None:
    plain = standings(ENTRANTS, TWO_PLAYER, two_player=True)
    flagged = standings(ENTRANTS, TWO_PLAYER, two_player=True, withdrawn=frozenset({"B"}))
    assert [r.entrant for r in flagged] == [r.entrant for r in plain]
    for before, after in zip(plain, flagged, strict=True):
        assert after.withdrawn == (after.entrant == "B")
        # withdrawing changes nothing but the flag: B still counts as an opponent with .5
        assert msgspec_fields(before) == msgspec_fields(after)
    inputs = pairing_inputs(ENTRANTS, TWO_PLAYER, two_player=True, withdrawn=frozenset({"B"}))
    assert list(inputs) == ["A", "C", "D", "E"]
    assert "B" in inputs["A"].opponents


def msgspec_fields(row: StandingRow) -> tuple[object, ...]:
    return (row.rank, row.entrant, row.points, row.tiebreaks, row.played, row.byes)


def test_pairing_inputs_from_the_same_results() -> None:
    inputs = pairing_inputs(ENTRANTS, TWO_PLAYER, two_player=True)
    # Seat 0: m1 A, m2 C, m3 E, m4 D, m5 A, m6 B.
    assert inputs["A"] == PairingInput(
        entrant="A", points=2.0, opponents=frozenset("BEC"), byes=0, first_seats=2, games=3
    )
    assert inputs["E"] == PairingInput(
        entrant="E", points=1.5, opponents=frozenset("AB"), byes=1, first_seats=1, games=2
    )
    assert inputs["C"] == PairingInput(
        entrant="C", points=2.5, opponents=frozenset("DA"), byes=1, first_seats=1, games=2
    )
    rows = by_entrant(standings(ENTRANTS, TWO_PLAYER, two_player=True))
    for entrant, given_input in inputs.items():
        assert given_input.points == rows[entrant].points
        assert given_input.games == rows[entrant].played
        assert given_input.byes == rows[entrant].byes


# --- a small multiplayer tournament ---------------------------------------------------------

# Seven entrants, two rounds.
#   R1: m1 P Q R S ranks 1 2 3 4  -> 3, 2, 1, 0
#       m2 T U V   ranks 2 1 2    -> T, V share 2nd+3rd (1+0)/2 = .5 each; U 2
#   R2: m3 P T U   ranks 1 1 3    -> P, T share 1st+2nd (2+1)/2 = 1.5 each; U 0
#       m4 Q R S V ranks 2 4 1 2  -> S 3; Q, V share (2+1)/2 = 1.5; R forfeits: last, 0
# Points: P 4.5, Q 3.5, R 1, S 3, T 2, U 2, V 2 (total 18 = 6 + 3 + 3 + 6).
# Opponents' points (sum over tables of the others' final points):
#   P: Q+R+S = 3.5+1+3 = 7.5;  T+U = 2+2 = 4       -> 11.5
#   Q: P+R+S = 4.5+1+3 = 8.5;  R+S+V = 1+3+2 = 6   -> 14.5
#   R: P+Q+S = 4.5+3.5+3 = 11; Q+S+V = 3.5+3+2 = 8.5 -> 19.5
#   S: P+Q+R = 4.5+3.5+1 = 9;  Q+R+V = 3.5+1+2 = 6.5 -> 15.5
#   T: U+V = 4;  P+U = 4.5+2 = 6.5 -> 10.5
#   U: T+V = 4;  P+T = 4.5+2 = 6.5 -> 10.5
#   V: T+U = 4;  Q+R+S = 3.5+1+3 = 7.5 -> 11.5
# Order: P, Q, S, then T/U/V on 2 points: V (11.5), then T and U tied (10.5) at rank 5; R.
MULTIPLAYER = [
    t(1, "m1", "PQRS", [1, 2, 3, 4]),
    t(1, "m2", "TUV", [2, 1, 2]),
    t(2, "m3", "PTU", [1, 1, 3]),
    t(2, "m4", "QRSV", [2, 4, 1, 2]),
]


def test_multiplayer_points_and_opponents_points_by_hand() -> None:
    rows = standings(list("PQRSTUV"), MULTIPLAYER, two_player=False)
    got = [(r.rank, r.entrant, r.points, r.tiebreaks, r.played) for r in rows]
    assert got == [
        (1, "P", 4.5, {OPPONENTS_POINTS: 11.5}, 2),
        (2, "Q", 3.5, {OPPONENTS_POINTS: 14.5}, 2),
        (3, "S", 3.0, {OPPONENTS_POINTS: 15.5}, 2),
        (4, "V", 2.0, {OPPONENTS_POINTS: 11.5}, 2),
        (5, "T", 2.0, {OPPONENTS_POINTS: 10.5}, 2),
        (5, "U", 2.0, {OPPONENTS_POINTS: 10.5}, 2),
        (7, "R", 1.0, {OPPONENTS_POINTS: 19.5}, 2),
    ]


def test_multiplayer_bye_is_a_win_at_the_rounds_largest_table() -> None:
    results = [
        t(1, "m1", "ABC", [1, 2, 3]),
        t(1, "m2", "DEFG", [1, 2, 3, 4]),
        Bye(round=1, entrant="H"),  # largest table in round 1 has 4 seats: 3 points
        t(2, "m3", "ABCD", [4, 3, 2, 1]),
        Bye(round=3, entrant="E"),  # no table in round 3 yet: largest overall (4): 3 points
    ]
    rows = by_entrant(standings(list("ABCDEFGH"), results, two_player=False))
    assert rows["H"].points == 3.0 and rows["H"].byes == 1 and rows["H"].played == 0
    assert rows["H"].tiebreaks == {OPPONENTS_POINTS: 0.0}
    assert rows["E"].points == 2.0 + 3.0
    assert by_entrant(standings(["X"], [Bye(round=1, entrant="X")], False))["X"].points == 1.0
    # bye_points overrides the default
    rows = by_entrant(standings(list("ABCDEFGH"), results, two_player=False, bye_points=2.0))
    assert rows["H"].points == 2.0


def test_rebuilding_gives_the_same_standings() -> None:
    first = standings(list("PQRSTUV"), MULTIPLAYER, two_player=False)
    again = standings(list("VUTSRQP"), list(MULTIPLAYER), two_player=False)
    assert first == again


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entrants", "recorded", "two_player", "withdrawn"),
    [
        (["A", "B"], [t(1, "m1", "AZ", [1, 2])], True, frozenset()),  # unregistered entrant
        (["A", "B"], [Bye(round=1, entrant="Z")], True, frozenset()),  # unregistered bye
        (["A", "B"], [t(1, "m1", "AB", [1, 2]), t(2, "m1", "AB", [2, 1])], True, frozenset()),
        (["A", "B", "C"], [t(1, "m1", "ABC", [1, 2, 3])], True, frozenset()),  # 3 seats
        (["A", "B"], [t(1, "m1", "AB", [1])], True, frozenset()),  # ranks don't match
        (["A", "B"], [t(1, "m1", "AA", [1, 2])], True, frozenset()),  # sits twice
        (["A", "A"], [], True, frozenset()),  # duplicate registration
        (["A", "B"], [], True, frozenset({"Z"})),  # withdrawn but never registered
    ],
)
def test_bad_results_are_rejected(
    entrants: list[str],
    recorded: list[TableResult | Bye],
    two_player: bool,
    withdrawn: frozenset[str],
) -> None:
    with pytest.raises(ValueError):
        standings(entrants, recorded, two_player, withdrawn)
    with pytest.raises(ValueError):
        pairing_inputs(entrants, recorded, two_player, withdrawn)


def test_an_entrant_is_read_by_the_name_it_registered_under() -> None:
    state = TournamentState()
    for event in (EntrantRegistered(entrant="c-web.0123456789abcdef", bot="",
                                    client="web.0123456789abcdef", name="Ada"),
                  EntrantRegistered(entrant="b-1", bot="random")):
        state = evolve(state, event)
    assert state.name_of("c-web.0123456789abcdef") == "Ada"
    assert state.name_of("b-1") == "b-1"  # no name given: its id
    # A log written before names were recorded decodes as before, with none.
    old = msgspec.msgpack.encode({"t": "tm.entrant_registered", "entrant": "b-2", "bot": "x"})
    assert msgspec.msgpack.decode(old, type=EntrantRegistered).name == ""
