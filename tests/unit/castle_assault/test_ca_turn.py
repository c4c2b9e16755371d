"""Set-up and the turn: mulligan, roll-off, momentum, resources, Unit Actions, the global
commands, the hand limit, the Environment Meter and deck, running out of cards, the end."""

from __future__ import annotations

import pytest
from ca_support import PETE, YOU, Table, put, start

from siege.contracts.events import DeckShuffled, DiceRolled
from siege.engine.protocol import ChanceMismatchError
from siege.games.castle_assault import actions as a
from siege.games.castle_assault.cards import BY_NAME, ENVIRONMENT_CARDS, stock_deck
from siege.games.castle_assault.rules.ending import TURN_LIMIT


def _resources(t: Table, seat: int, count: int) -> None:
    t.s.resources[seat] = [t.s.decks[seat].pop() for _ in range(count)]


def _end(t: Table, seat: int) -> None:
    """Ends the seat's turn, discarding down to the hand limit when asked."""
    t.end_turn(seat)
    while t.s.asking == "discard":
        t.when(seat, a.DiscardCard(card=t.s.hands[seat][0]))


def test_a_mulligan_puts_the_five_under_the_deck_and_draws_five_new() -> None:
    t = Table()
    t.shuffle()
    t.shuffle()
    t.shuffle()
    first_five = list(t.s.hands[YOU])
    t.when(YOU, a.MULLIGAN)
    assert t.s.hands[YOU] == list(range(5, 10)) and t.s.decks[YOU][-5:] == first_five
    assert a.MULLIGAN not in t.legal(YOU)  # one mulligan, then the seat waits
    t.when(PETE, a.KEEP_HAND)
    assert t.s.phase == "rolloff"


def test_the_rolloff_rerolls_ties_and_its_winner_chooses_who_starts() -> None:
    t = Table()
    for _ in range(3):
        t.shuffle()
    t.when(YOU, a.KEEP_HAND)
    t.when(PETE, a.KEEP_HAND)
    t.roll(4, 4, purpose="rolloff")
    t.roll(6, 3, purpose="rolloff")
    assert t.waiting == {YOU} and t.legal(YOU) == [a.ChooseFirst(first=0),
                                                  a.ChooseFirst(first=1)]
    t.when(YOU, a.ChooseFirst(first=PETE))
    assert t.s.active == PETE and t.need().purpose == "momentum"


def test_a_chance_answer_that_does_not_fit_is_refused_before_any_change() -> None:
    t = Table()
    before = t.engine.pending(t.state)
    size = len(stock_deck("dragons"))
    for bad in (DeckShuffled(request=1, first_index=0, order=[0] * size),
                DiceRolled(request=1, first_index=0, values=list(range(size)))):
        with pytest.raises(ChanceMismatchError):
            t.engine.evolve(t.state, bad)
        assert t.engine.pending(t.state) == before
    t2 = start()
    with pytest.raises(ChanceMismatchError):
        t2.engine.evolve(t2.state, DiceRolled(request=1, first_index=0, values=[7]))
    assert t2.need().purpose == "momentum"


def test_momentum_moves_toward_the_roller_and_stops_at_max() -> None:
    t = start()
    t.start_turn(6)
    assert t.s.momentum == 4
    _end(t, YOU)
    t.start_turn(6)
    assert t.s.momentum == -2


def test_one_resource_a_turn_but_two_on_the_second_players_first_turn() -> None:
    t = start()
    t.start_turn(1)
    t.when(YOU, a.PlaceResource(card=t.s.hands[YOU][0]))
    assert not any(isinstance(x, a.PlaceResource) for x in t.legal(YOU))
    _end(t, YOU)
    t.start_turn(1)
    t.when(PETE, a.PlaceResource(card=t.s.hands[PETE][0]))
    t.when(PETE, a.PlaceResource(card=t.s.hands[PETE][0]))
    assert not any(isinstance(x, a.PlaceResource) for x in t.legal(PETE))
    _end(t, PETE)
    t.start_turn(1)
    _end(t, YOU)
    t.start_turn(1)
    t.when(PETE, a.PlaceResource(card=t.s.hands[PETE][0]))
    assert not any(isinstance(x, a.PlaceResource) for x in t.legal(PETE))


def test_global_commands_cost_one_for_momentum_and_three_for_a_card() -> None:
    t = start()
    t.start_turn(1)
    _resources(t, YOU, 4)
    t.when(YOU, a.ShiftMomentum(toward=PETE))
    assert t.s.momentum == 1 - 2 and t.s.exhausted[YOU] == 1
    hand, deck = len(t.s.hands[YOU]), len(t.s.decks[YOU])
    t.when(YOU, a.BUY_DRAW)
    assert (len(t.s.hands[YOU]), len(t.s.decks[YOU]), t.s.exhausted[YOU]) == (hand + 1,
                                                                          deck - 1, 4)
    assert a.BUY_DRAW not in t.legal(YOU) and a.ShiftMomentum(toward=YOU) not in t.legal(YOU)


def test_the_hand_limit_is_checked_only_at_your_own_end_of_turn() -> None:
    t = start()
    t.start_turn(1)
    t.s.hands[PETE] += [t.s.decks[PETE].pop() for _ in range(4)]  # Pete holds 9
    t.end_turn(YOU)  # you hold 6
    assert t.s.asking == "discard" and t.waiting == {YOU}
    t.when(YOU, a.DiscardCard(card=t.s.hands[YOU][0]))
    assert len(t.s.hands[YOU]) == 5 and len(t.s.hands[PETE]) == 9
    t.start_turn(1)
    t.end_turn(PETE)
    for _ in range(5):
        t.when(PETE, a.DiscardCard(card=t.s.hands[PETE][0]))
    assert len(t.s.hands[PETE]) == 5 and t.s.active == YOU
    assert t.need().purpose == "momentum"


def test_a_unit_takes_one_unit_action_and_none_on_the_turn_it_arrives_unless_haste() -> None:
    t = start(top0=["Dracomancer", "Ember Hatchling"])
    raider = put(t, YOU, "Ash Raider", 1, 1)
    t.start_turn(1)
    _resources(t, YOU, 2)
    t.play(YOU, "Dracomancer", 0)
    t.play(YOU, "Ember Hatchling", 2)  # Haste: it may act at once
    draco, hatchling = t.unit(YOU, "Dracomancer"), t.unit(YOU, "Ember Hatchling")
    units = {x.unit for x in t.legal(YOU) if isinstance(x, a.Charge)}
    assert units == {raider.uid, hatchling.uid} and draco.uid not in units
    t.charge(YOU, "Ash Raider", 2)
    assert {x.unit for x in t.legal(YOU) if isinstance(x, a.Charge)} == {hatchling.uid}


def _turns(t: Table, count: int) -> None:
    for _ in range(count):
        seat = t.s.active
        t.start_turn(1)
        _end(t, seat)


def test_a_new_environment_card_every_fifth_turn_boundary_ongoing_replacing_ongoing() -> None:
    t = start(env=["Local Support", "Tailwind", "Fallen Colossus", "Deep Mud"])
    _turns(t, 5)
    t.roll(1, purpose="momentum")
    assert t.s.turn == 6 and t.s.ongoing == BY_NAME["Tailwind"].id
    _end(t, t.s.active)
    _turns(t, 4)
    # The card that enters the battlefield leaves Tailwind in effect.
    assert t.s.field == BY_NAME["Fallen Colossus"].id and t.s.ongoing == BY_NAME["Tailwind"].id
    assert sorted(map(tuple, t.s.rubble)) == [(1, 4), (1, 5)]
    _turns(t, 5)
    assert t.s.ongoing == BY_NAME["Deep Mud"].id
    assert BY_NAME["Tailwind"].id in t.s.env_discard


def test_rubble_blocks_like_a_friendly_unit() -> None:
    t = start()
    t.s.rubble = [[1, 4], [1, 5]]
    raider = put(t, YOU, "Ash Raider", 1, 2)
    t.start_turn(1)
    assert raider.row == 3 and t.s.clashes == []


def test_an_empty_deck_loses_nothing_draws_nothing_and_must_play_a_unit_if_able() -> None:
    t = start(top0=["Ember Hatchling"])
    t.s.decks[YOU] = []
    t.start_turn(1)
    assert len(t.s.hands[YOU]) == 5 and t.s.phase == "turn"
    _resources(t, PETE, 0)
    t.s.resources[YOU] = [t.s.hands[YOU].pop()]
    assert any(isinstance(x, a.PlayUnit) for x in t.legal(YOU))
    assert a.END_TURN not in t.legal(YOU)
    t.play(YOU, "Ember Hatchling", 0)
    assert a.END_TURN in t.legal(YOU)


def test_out_of_cards_the_higher_castle_wins_and_equal_castles_roll_off() -> None:
    t = start()
    t.start_turn(1)
    t.s.decks = [[], []]
    t.s.hands = [[], []]
    t.s.castle_damage = [3, 5]
    t.end_turn(YOU)
    assert t.s.phase == "over" and t.s.ended == "cards" and t.s.ranks == [1, 2]
    tie = start()
    tie.start_turn(1)
    tie.s.decks = [[], []]
    tie.s.hands = [[], []]
    tie.end_turn(YOU)
    assert tie.s.phase == "final"
    tie.roll(3, 3, purpose="final_rolloff")
    tie.roll(2, 5, purpose="final_rolloff")
    assert tie.s.ranks == [2, 1] and tie.engine.is_terminal(tie.state)


def test_a_castle_at_zero_loses_at_once_and_both_at_once_go_to_the_comparison() -> None:
    t = start()
    put(t, YOU, "Soot", 2, 7)
    t.s.castle_damage[PETE] = 5
    t.start_turn(1)
    assert t.s.phase == "over" and t.s.ended == "castle" and t.s.ranks == [1, 2]
    both = start(env=["Local Support", "Meteor Shower"])
    both.s.castle_damage = [9, 9]
    _turns(both, 5)
    assert both.s.phase == "final" and both.s.ended == "castles"


def test_the_turn_limit_ends_a_game_that_never_ends() -> None:
    t = start()
    t.s.turn = TURN_LIMIT  # the turn under way is the last one
    t.s.castle_damage = [0, 1]
    t.start_turn(1)
    _end(t, YOU)
    assert t.s.ended == "turn_limit" and t.s.ranks == [1, 2]


def test_the_environment_deck_reshuffles_its_discard_pile_when_empty() -> None:
    t = start()
    t.s.env_discard = list(t.s.env_deck)
    t.s.env_deck = []
    _turns(t, 5)
    need = t.need()
    assert need.kind == "shuffle" and need.purpose == "environment_reshuffle"
    t.shuffle()
    assert t.s.revealed != -1 and len(t.s.env_deck) == len(ENVIRONMENT_CARDS) - 1 - 1

