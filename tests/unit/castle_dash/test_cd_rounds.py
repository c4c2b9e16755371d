"""Round end, reshuffling the Armory deck, and the end of the game."""

from __future__ import annotations

import pytest
from castle_dash_support import ENGINE, duel, place_all, playout, replay, run_until, start

from siege.games.castle_dash import cards
from siege.games.castle_dash.actions import ChooseCannonballs, ResolveFlagCard
from siege.games.castle_dash.state import new_state


def test_round_end_clears_the_table_and_passes_the_first_player_marker_left() -> None:
    table = duel(3, 4, claims={0: [13]})
    face_up = list(table.state.face_up)
    run_until(table, lambda s: s.round == 2)
    state = table.state
    assert state.first == 1
    assert state.discard == face_up  # claimed or not, every card of round 1
    assert all(holder == -1 for holder in state.holder)
    assert state.spent == [] and state.claim_order == []
    assert state.troops == [[0] * 3 for _ in range(3)]
    assert state.placed == [0, 0, 0] and state.resolved == [0, 0, 0]
    assert state.cannonballs == [2, 2, 2]
    # Everyone's soldiers come home except those on walls (a rescued captive joins its owner).
    for seat in range(3):
        on_walls = sum(row[seat] for row in state.walls)
        assert state.supply[seat] == 8 + state.rescued[seat] - on_walls
    assert state.phase == "place"
    assert table.waiting == frozenset({1})


def test_the_first_player_marker_keeps_moving_left_every_round() -> None:
    table = start(4, first=3)
    firsts = [table.state.first]
    for round_number in (2, 3, 4):
        run_until(table, lambda s, r=round_number: s.round == r)
        if ENGINE.is_terminal(table.state):
            break
        firsts.append(table.state.first)
    assert firsts == [3, 0, 1, 2][: len(firsts)] and len(firsts) >= 3


def test_the_discard_pile_is_reshuffled_when_the_deck_cannot_supply_the_reveal() -> None:
    table = start(6, first=0)  # round 1 reveals 12 of 18 cards
    first_face_up = list(table.state.face_up)
    remaining = list(table.state.deck)
    assert len(remaining) == 6
    place_all(table)
    run_until(table, lambda s: s.chance is not None and s.chance.kind == "shuffle")
    need = table.need()
    assert (need.count, need.purpose) == (12, "armory_reshuffle")
    # The 6 cards left were drawn first; the 12 discards get shuffled for the other 6.
    assert table.state.face_up == remaining
    assert table.state.deck == []
    order = list(reversed(range(12)))
    table.shuffle(order)
    discards = sorted(first_face_up)
    assert table.state.face_up == remaining + [discards[i] for i in order[:6]]
    assert table.state.deck == [discards[i] for i in order[6:]]
    assert table.state.discard == []


def test_no_reshuffle_while_the_deck_suffices() -> None:
    table = start(3, first=0)  # 6 a round: rounds 1-3 use the 18 cards exactly
    shuffles = []
    for round_number in (2, 3, 4):
        run_until(table, lambda s, r=round_number: s.round == r
                  or (s.chance is not None and s.chance.kind == "shuffle"))
        if table.state.chance is not None and table.state.chance.kind == "shuffle":
            shuffles.append(table.state.round)
            break
    assert shuffles in ([4], [])  # never before round 4's reveal


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_game_ends_after_the_loot_step_in_which_someone_reaches_three_coins(
        players: int) -> None:
    final, events = playout(players, f"end{players}".encode())
    assert ENGINE.is_terminal(final)
    assert max(final.stolen) >= 3
    # The whole loot step ran before the game stopped: no wall is left ready to break.
    assert all(count < 3 for row in final.walls for count in row)
    assert ENGINE.pending(final).seats == frozenset() and ENGINE.pending(final).chance is None
    # Folding again: every earlier round ended with nobody at 3 coins.
    state = ENGINE.initial_state(events[0])
    for event in events[1:]:
        round_before = state.round
        stolen_before = list(state.stolen)
        state = ENGINE.evolve(state, event)
        if state.round != round_before and round_before >= 1:
            assert max(stolen_before) < 3
    assert state == replay(events)


def ranked(stolen: list[int], rescued: list[int], coins: list[int]) -> list[int]:
    state = new_state(len(stolen))
    state.stolen, state.rescued, state.coins = stolen, rescued, coins
    return ENGINE.ranks(state)


def test_most_coins_stolen_wins() -> None:
    assert ranked([3, 1, 2, 0], [0, 1, 1, 1], [5, 5, 5, 5]) == [1, 3, 2, 4]


def test_a_tie_on_stolen_coins_goes_to_most_soldiers_rescued() -> None:
    assert ranked([3, 3, 0], [0, 2, 1], [5, 1, 5]) == [2, 1, 3]


def test_then_to_most_coins_in_all_counting_home_coins_and_stolen_ones() -> None:
    # 3 stolen each, 1 rescued each: seat 1 kept 4 at home (7 in all), seat 0 kept 2 (5).
    assert ranked([3, 3, 1], [1, 1, 0], [2, 4, 5]) == [2, 1, 3]


def test_a_tie_on_every_count_is_a_shared_place() -> None:
    assert ranked([3, 3, 1, 1], [1, 1, 0, 0], [4, 4, 5, 5]) == [1, 1, 3, 3]


def test_round_end_sets_cannonballs_back_to_two_after_some_were_gained_and_spent() -> None:
    # Given seat 0 gained 2 (Powder Cache) and seat 2 lost 1 (seat 1's Sabotage)
    table = duel(3, 4, claims={0: [cards.POWDER_CACHE], 1: [cards.SABOTAGE]})
    table.when(1, ResolveFlagCard(card=cards.SABOTAGE, target=2))
    assert table.state.cannonballs == [4, 2, 1]
    # and in battle (0, 1) seat 0 fires 1 and seat 1 fires both of its own
    table.when(0, ChooseCannonballs(count=1))
    table.when(1, ChooseCannonballs(count=2))
    table.roll(6, 6, 6)  # three misses
    assert table.state.cannonballs == [3, 0, 1]
    # When the round ends
    run_until(table, lambda s: s.round == 2, battle_dice=(1, 4))  # (4, 1) would tie (1, 2)
    # Then every seat holds exactly 2 again: the extra is lost, the spent and sabotaged restored
    assert table.state.cannonballs == [2, 2, 2]
    assert table.state.phase == "place"


def test_there_is_no_round_limit_a_game_at_round_500_plays_on() -> None:
    # Given a three-player game whose round counter says 500 (a state play would take long to
    # reach; in three-player games nobody can steal more than two coins in one round)
    table = start(3, first=0)
    table.state.round = 500
    # When that round is played out
    run_until(table, lambda s: s.round == 501)
    # Then the next round begins like any other: nothing but three stolen coins ends the game
    state = table.state
    assert max(state.stolen) < 3
    assert not ENGINE.is_terminal(state)
    assert state.phase == "place" and state.first == 1
    assert table.waiting == frozenset({1}) and table.legal(1)
