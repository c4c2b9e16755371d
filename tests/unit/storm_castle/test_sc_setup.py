"""Set-up: tokens, armies, battlefields, shuffles, the deal, the first defenders, the intro."""

from __future__ import annotations

from storm_support import ENGINE, Table, created, start

from siege.contracts.events import SeedCommitted
from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import DEFENDER_TOKENS, INTRO_TOKENS, PEASANT
from siege.games.storm_castle.board import LOCATIONS, RAMPARTS, TOWERS, WALLS
from siege.games.storm_castle.rules.battle import structure_health
from siege.games.storm_castle.rules.terrain import unit_range
from siege.games.storm_castle.state import DEFENDER_SIDE


def test_setup_draws_tokens_then_asks_armies_and_battlefields_in_token_order() -> None:
    table = Table(3)
    assert table.need().purpose == "setup_tokens" and table.need().count == 3
    table.shuffle([2, 0, 1])  # seat 0 gets token 3, seat 1 token 1, seat 2 token 2
    assert table.state.setup_tokens == [3, 1, 2]
    assert table.asked == 1 and table.state.asking == "army"
    table.when(1, a.ChooseArmy(army=3))
    assert table.asked == 2 and a.ChooseArmy(army=3) not in table.legal(2)
    table.when(2, a.ChooseArmy(army=0))
    table.when(0, a.ChooseArmy(army=1))
    assert table.asked == 1 and table.state.asking == "battlefield"
    for seat in (1, 2, 0):
        table.when(seat, table.legal(seat)[0])
    purposes = []
    while table.state.chance is not None:
        purposes.append(table.need().purpose)
        table.shuffle()
    assert purposes == ["power_0", "power_1", "power_2", "defender_pool", "events", "boss",
                        "magic"]


def test_the_deal_gives_cards_gold_magic_and_the_reference_card_left_of_the_first() -> None:
    table = start(4, armies=(0, 1, 2, 3))
    state = table.state
    assert [len(h) for h in state.hands] == [3, 3, 3, 3]
    assert state.gold == [5, 5, 5, 5]
    assert state.magic == [3, 0, 0, 3]  # Arcanists and Undead Horde only
    assert state.ref_holder == 1  # left of seat 0, which drew token 1
    peasants = [u for u in state.units.values() if u.kind == PEASANT]
    assert sorted(u.space for u in peasants) == sorted(LOCATIONS)


def test_each_player_in_token_order_places_one_drawn_defender_on_a_tower_or_rampart() -> None:
    table = start(4)
    placed = [u for u in table.state.units.values()
              if u.owner == DEFENDER_SIDE and u.kind != PEASANT]
    assert len(placed) == 4
    assert all(u.space in TOWERS + RAMPARTS for u in placed)
    assert sorted(u.token for u in placed) == [0, 1, 2, 3]  # the top of the pool, in order


def test_with_two_players_each_places_one_first_defender_in_token_order() -> None:
    table = Table(2)
    table.shuffle()
    for seat in (0, 1):
        table.when(seat, a.ChooseArmy(army=seat))
    for seat in (0, 1):
        table.when(seat, a.ChooseBattlefield(battlefield=seat))
    while table.state.chance is not None:
        table.shuffle()
    askers = []
    while table.state.phase == "setup":
        askers.append(table.asked)
        table.when(table.asked, table.legal(table.asked)[0])
    assert askers == [0, 1]


def test_in_the_solo_game_the_rules_place_the_first_defenders() -> None:
    table = start(1)
    placed = [u for u in table.state.units.values() if u.owner == DEFENDER_SIDE
              and u.kind != PEASANT]
    assert len(placed) == 1 and table.state.ref_holder == -1
    assert placed[0].space == TOWERS[0]  # the policy takes a tower first


def test_the_introductory_game_sets_the_towers_and_weaker_walls_without_peasants() -> None:
    table = start(2, intro=True)
    state = table.state
    on_towers = sorted((u.space, DEFENDER_TOKENS[u.token]) for u in state.units.values())
    assert on_towers == sorted(zip(TOWERS, (DEFENDER_TOKENS[t] for t in INTRO_TOKENS),
                                   strict=True))
    assert not any(u.kind == PEASANT for u in state.units.values())
    assert len(state.defender_pool) == 22 - 4
    assert all(structure_health(state, w) == 2 for w in WALLS)
    musketman = next(u for u in state.units.values() if u.space == TOWERS[0])
    assert unit_range(state, musketman) == 3  # no tower bonus in the intro
    normal = start(2)
    assert structure_health(normal.state, WALLS[0]) == 3


def test_a_normal_tower_gives_defender_shooters_one_more_range() -> None:
    table = start(2)
    shooter = next((u for u in table.state.units.values() if u.space in TOWERS), None)
    assert shooter is not None
    from siege.games.storm_castle.armies import UNIT_KINDS

    base = UNIT_KINDS[shooter.kind].range
    assert unit_range(table.state, shooter) == (base + 1 if base else 0)


def test_evolve_ignores_core_events_the_game_does_not_need() -> None:
    table = Table(2)
    before = table.state
    assert ENGINE.evolve(table.state, SeedCommitted(commitment="ab")) is before
    assert ENGINE.initial_state(created(4)).phase == "setup"
