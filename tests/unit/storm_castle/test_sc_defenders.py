"""The defenders: reinforcements and the keep, the reference card, the event schedule, the
Onward March and its priorities, and the rules' own choices in the solo game."""

from __future__ import annotations

from storm_support import BLANK, HIT, act_table, defender, end_buying, put, start, to_buy

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import DEFENDER_TOKENS, UNIT_KINDS
from siege.games.storm_castle.board import (
    CASTLE,
    KEEP,
    LOCATIONS,
    NOBODY,
    WALLS,
    battlefield_space,
    ground,
    keep_ground,
    rampart,
)
from siege.games.storm_castle.decks import EVENT_CARDS
from siege.games.storm_castle.rules import defenders, turns
from siege.games.storm_castle.rules.flow import advance
from siege.games.storm_castle.state import March


def test_one_defender_arrives_each_turn_and_two_on_turns_four_and_seven() -> None:
    for turn, expected in ((1, 1), (4, 2), (7, 2), (8, 1)):
        table = start(2)
        table.state.turn = turn
        to_buy(table, token=1)
        end_buying(table)
        asked = 0
        while table.state.phase == "reinforce":
            assert table.state.asking == "place"
            table.when(table.asked, table.legal(table.asked)[0])
            asked += 1
        assert asked == expected, turn


def test_a_reinforcement_must_go_into_the_keep_while_a_dark_force_unit_is_near_it() -> None:
    table = start(2)
    to_buy(table, token=1)
    end_buying(table)
    state = table.state
    assert len(table.legal(table.asked)) == len(CASTLE) - sum(
        1 for u in state.units.values() if u.space in CASTLE)
    table.state.standing[WALLS[0]] = False
    put(table, 0, "Goblin", rampart(0, 0))
    assert table.legal(table.asked) == [a.PlaceDefender(space=KEEP)]
    defender(table, "Knight", KEEP)
    assert a.PlaceDefender(space=KEEP) not in table.legal(table.asked)
    assert len(table.legal(table.asked)) > 1


def test_the_reference_card_passes_clockwise_and_skips_the_current_player() -> None:
    table = start(4)
    state = table.state
    state.ref_holder = 1
    defenders.pass_reference(state, current=2)
    assert state.ref_holder == 3
    defenders.pass_reference(state, current=0)
    assert state.ref_holder == 1  # 3 -> 0 is the current player -> 1
    state.ref_holder = 2
    defenders.ready_reference(state, current=2)
    assert state.ref_holder == 3
    two = start(2).state
    two.ref_holder = 1
    defenders.pass_reference(two, current=0)
    assert two.ref_holder == 1  # with two players it stays with the other player


def test_reinforcements_are_placed_by_the_holder_who_is_not_the_first_player() -> None:
    table = start(2)
    to_buy(table, token=1)  # seat 0 is first this turn
    assert table.state.order[0] == 0
    table.state.ref_holder = 0
    end_buying(table)
    assert table.state.asking == "place" and table.asked == 1


def test_the_event_count_is_sides_with_a_wall_plus_one() -> None:
    table = start(4)
    state = table.state
    assert turns.event_count(state) == 5
    for w in WALLS[:3]:
        state.standing[w] = False
    assert turns.event_count(state) == 4
    state.standing[WALLS[3]] = False  # one wall of a side down: the side still counts
    assert turns.event_count(state) == 4
    two = start(2).state
    assert turns.event_count(two) == 4  # our design: at most two cards per player
    solo = start(1).state
    assert turns.event_count(solo) == 2


def test_the_schedule_follows_the_rulebook_examples() -> None:
    # Codes: 2i is the start of the i-th player's turn, 2i + 1 its end.
    assert turns.plan(4, 5) == [0, 1, 3, 5, 7]
    assert turns.plan(4, 4) == [0, 1, 3, 5]  # player 3 resolves the last; player 4 none
    assert turns.plan(4, 3) == [0, 1, 3]
    assert turns.plan(4, 2) == [0, 1]
    assert turns.plan(4, 1) == [0]  # at the start of player 1's turn
    assert turns.plan(4, 6) == [0, 1, 2, 3, 5, 7]  # start and end for players 1 and 2
    assert turns.plan(4, 8) == list(range(8))
    assert turns.plan(1, 2) == [0, 1] and turns.plan(3, 6) == [0, 1, 2, 3, 4, 5]


def _march_table(cards: int = 2):
    table = act_table()
    state = table.state
    state.march = March(card=next(c.id for c in EVENT_CARDS if c.march == cards),
                        left=cards)
    return table, state


def test_defenders_with_an_eligible_target_must_be_activated_first() -> None:
    table, state = _march_table()
    state.standing[WALLS[0]] = False
    idle = defender(table, "Knight", ground(2, 1))
    busy = defender(table, "Knight", ground(0, 0))
    victim = put(table, 1, "Shadow Blade", rampart(0, 0))
    orders = defenders.orders(state)
    assert orders and all(o.unit == busy and o.target == victim for o in orders)
    assert all(o.unit != idle for o in orders)


def test_the_controller_may_have_to_attack_his_own_units() -> None:
    table, state = _march_table()
    state.standing[WALLS[0]] = False
    defender(table, "Knight", ground(0, 0))
    own = put(table, 1, "Shadow Blade", rampart(0, 0))  # seat 1 holds the card
    state.ref_holder = 1
    assert {o.target for o in defenders.orders(state)} == {own}


def test_a_defender_must_guard_an_empty_keep_while_the_dark_forces_are_near() -> None:
    table, state = _march_table()
    state.standing[WALLS[1]] = False
    put(table, 1, "Shadow Blade", rampart(0, 1))
    near = defender(table, "Knight", keep_ground(2))
    defender(table, "Knight", ground(0, 2))
    orders = defenders.orders(state)
    assert orders and all(o.to == KEEP and o.unit == near for o in orders)


def test_a_defender_in_the_keep_never_leaves_it_and_only_shoots_safely_from_it() -> None:
    table, state = _march_table()
    for w in (WALLS[1], 12):
        state.standing[w] = False
    guard = defender(table, "Musketman", KEEP)
    rival = put(table, 1, "Shadow Blade", ground(0, 1))
    assert {o.to for o in defenders.unit_orders(state, state.units[guard])} == {KEEP}
    assert a.OrderDefender(unit=guard, to=KEEP, target=rival) in defenders.orders(state)
    archer = put(table, 1, "Crossbow Sister", ground(0, 0))  # range 3: it could shoot back
    assert a.OrderDefender(unit=guard, to=KEEP, target=archer) not in defenders.orders(state)


def test_an_onward_march_activates_different_defenders_and_lost_activations_vanish() -> None:
    table = act_table()
    state = table.state
    defender(table, "Knight", ground(2, 1))
    state.waiting = []
    state.step = "end"
    state.event_plan = [1]
    state.event_next = 0
    state.event_row = [next(c.id for c in EVENT_CARDS if c.march == 3)]
    state.ref_holder = 1
    advance(state)
    assert state.asking == "order" and table.asked == 1
    table.when(1, table.legal(1)[-1])
    assert state.march is None and state.event_next == 1  # one defender: two activations lost


def test_a_defender_battle_march_may_not_open_the_keep() -> None:
    table, state = _march_table(1)
    for w in (WALLS[1], 12):
        state.standing[w] = False
    piker = defender(table, "Dwarven Piker", keep_ground(0))
    victim = put(table, 1, "Skeleton", ground(0, 1))
    put(table, 1, "Goblin", rampart(0, 1))
    keep_guard = defender(table, "Knight", KEEP)
    state.waiting = []
    state.ref_holder = 1
    defenders.apply_order(state, a.OrderDefender(unit=piker, to=keep_ground(0), target=victim))
    advance(state)
    table.roll(HIT, BLANK, purpose=f"attack:{piker}")  # first strike kills the Skeleton
    assert victim not in state.units
    assert state.asking == "march"  # the keep is held: marching is allowed
    table.when(1, a.HOLD)
    assert not defenders.terrain.keep_reachable(state, piker, ground(0, 1))
    del state.units[keep_guard]  # with the keep empty, the same march would open it
    assert defenders.terrain.keep_reachable(state, piker, ground(0, 1))


def test_the_solo_game_plays_the_defenders_by_the_default_policy() -> None:
    table = start(1)
    to_buy(table)
    end_buying(table)
    # No seat is asked to place or order: the rules did it.
    assert table.state.phase == "turns" and table.state.asking == "act"
    assert table.state.ref_holder == -1
    assert table.state.boss == 0 and table.state.last_bids == []  # Boss without a vote


def test_wrapup_returns_the_highest_onward_march_to_the_deck() -> None:
    table = start(2)
    state = table.state
    om1 = next(c.id for c in EVENT_CARDS if c.march == 1)
    om3 = next(c.id for c in EVENT_CARDS if c.march == 3)
    other = next(c.id for c in EVENT_CARDS if c.march == 0)
    state.waiting = []
    state.phase = "wrapup"
    state.sub = ""
    state.order = [0, 1]
    state.revealed = [om1, om3, other]
    state.event_row = list(state.revealed)
    deck = len(state.event_deck)
    advance(state)
    assert table.need().purpose == "return_event" and table.need().count == deck + 1
    table.shuffle()
    assert om3 in state.event_deck and {om1, other} <= set(state.event_discard)
    assert state.turn == 2


def test_defenders_attack_into_the_battlefield_but_never_move_out_of_the_castle() -> None:
    table, state = _march_table()
    state.standing[WALLS[1]] = False
    knight = defender(table, "Knight", rampart(0, 1))
    outside = put(table, 1, "Goblin", battlefield_space(0, 0, 1))
    orders = defenders.unit_orders(state, state.units[knight])
    assert a.OrderDefender(unit=knight, to=rampart(0, 1), target=outside) in orders
    assert all(o.to in CASTLE for o in orders)


def test_peasants_are_never_activated() -> None:
    table, state = _march_table()
    defender(table, "Peasant", LOCATIONS[0])
    assert defenders.orders(state) == []


def test_wrapup_unflips_the_defenders_only() -> None:
    table = start(2)
    state = table.state
    guard = defender(table, "Knight", KEEP)
    raider = put(table, 0, "Goblin", battlefield_space(0, 2, 0))
    state.units[guard].flipped = state.units[raider].flipped = True
    state.waiting = []
    state.phase = "wrapup"
    state.sub = ""
    state.order = [0, 1]
    advance(state)
    assert not state.units[guard].flipped and state.units[raider].flipped


def _near_keep_with_guard(table, damage: int) -> int:
    """A Dark Force unit near the keep and a guard in it of the drawn reinforcement's kind."""
    table.state.standing[WALLS[0]] = False
    put(table, 0, "Goblin", rampart(0, 0))
    kind = DEFENDER_TOKENS[table.state.to_place[0]]
    return defender(table, UNIT_KINDS[kind].name, KEEP, damage=damage)


def test_the_controller_may_swap_a_weaker_keep_guard_for_the_reinforcement() -> None:
    # given a reinforcement to place and a damaged guard of its kind in the keep
    table = start(2)
    to_buy(table, token=1)
    end_buying(table)
    seat = table.asked
    guard = _near_keep_with_guard(table, damage=1)
    token = table.state.to_place[0]
    swaps = [x for x in table.legal(seat) if x.keep]
    # then the holder of the reference card may swap, the guard going to a free keep ground
    assert swaps and table.state.units[guard].space == KEEP
    assert {x.space for x in swaps} <= {keep_ground(s) for s in range(4)}
    assert a.PlaceDefender(space=swaps[0].space) in table.legal(seat)  # not swapping is legal
    # when he swaps
    newcomer = table.state.next_uid
    table.when(seat, swaps[0])
    # then the reinforcement guards the keep and the old guard stands where he chose
    assert table.state.units[newcomer].space == KEEP
    assert table.state.units[newcomer].token == token
    assert table.state.units[guard].space == swaps[0].space


def test_no_swap_is_offered_for_a_guard_as_strong_as_the_reinforcement() -> None:
    # given an unhurt guard of the drawn reinforcement's kind in the keep
    table = start(2)
    to_buy(table, token=1)
    end_buying(table)
    _near_keep_with_guard(table, damage=0)
    # then placing never offers a swap
    assert not [x for x in table.legal(table.asked) if x.keep]
    assert defenders.keep_swaps(table.state) == []


def test_the_rules_always_swap_in_the_stronger_reinforcement_in_the_solo_game() -> None:
    # given the solo game (the rules place) with a damaged guard in the keep
    table = start(1)
    to_buy(table)
    state = table.state
    assert state.ref_holder == NOBODY
    state.standing[WALLS[0]] = False
    put(table, 0, "Goblin", rampart(0, 0))
    kind = DEFENDER_TOKENS[state.defender_pool[0]]
    guard = defender(table, UNIT_KINDS[kind].name, KEEP, damage=1)
    newcomer = state.next_uid
    # when the reinforcement phase runs
    end_buying(table)
    # then the reinforcement took the keep and the guard moved out to the keep grounds
    assert table.state.units[newcomer].space == KEEP
    assert table.state.units[guard].space in {keep_ground(s) for s in range(4)}
