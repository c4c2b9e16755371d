"""Phase 3, the Angel phase: turns, strength below a column, and the six special effects."""

from __future__ import annotations

from castellum_support import (
    ENGINE,
    angel,
    build,
    deal_angels,
    play,
    run_until,
    set_resources,
    start,
    to_angels,
)

from siege.games.castellum.actions import (
    DECLINE,
    PASS,
    PLACE_WORKER,
    PlaceAngel,
    TargetColumn,
    TargetEnemy,
    TargetResources,
    TargetTroop,
    UseAngel,
)
from siege.games.castellum.board import DINGHUIS
from siege.games.castellum.cards import GOLD, STONE, WOOD
from siege.games.castellum.events import (
    AngelEffectChosen,
    AngelPlaced,
    EnemyTargeted,
)
from siege.games.castellum.rules.combat import DEFEATED, column_strength, enemy_strength

PIKEMEN, MUSKETEERS = 20, 24
# 1579 enemies: 0 Tercio I2, 1 Tercio I3, 3 Walloon Horse C3, 4 Lancers C4 (2 points),
# 5 Culverin A4 (2 points), 6 Miners S2.
PLAN = {0: [(3, 0, 0), (4, 0, 1)], 1: [(5, 1, 0), (6, 1, 1)]}
ENEMIES = {0: [3, 4, 5, 6]}


def test_turns_go_clockwise_and_end_when_every_holder_passed_since_the_last_card() -> None:
    table = start(3, first=1)
    for seat in range(3):
        deal_angels(table, seat, [angel("boost", seat), angel("cancel", seat)])
    to_angels(table)
    asked = []

    def turn(action_for: dict[int, object]) -> None:
        seat = table.asked
        asked.append(seat)
        table.when(seat, action_for.get(seat, PASS))

    turn({})  # seat 1 passes
    turn({2: PlaceAngel(card=angel("boost", 2), column=0)})  # seat 2 plays: passes reset
    turn({})  # seat 0
    turn({})  # seat 1 again: its earlier pass did not end its phase
    turn({})  # seat 2
    assert asked == [1, 2, 0, 1, 2]
    assert table.state.phase != "angels"


def test_seats_without_angel_cards_are_not_asked() -> None:
    table = start(3, first=0)
    deal_angels(table, 2, [angel("boost")])
    to_angels(table)
    assert table.asked == 2
    table.when(2, PASS)
    assert table.state.phase != "angels"


def test_a_card_below_a_column_adds_its_strength_this_year_and_opens_no_window() -> None:
    table = start(2, first=0, enemies=ENEMIES)
    card = angel("destroy", 4)  # strength 3
    deal_angels(table, 0, [card])
    deal_angels(table, 1, [angel("cancel")])
    to_angels(table, PLAN)
    before = column_strength(table.state, 0, 1)
    out = table.when(0, PlaceAngel(card=card, column=1))
    assert out == [AngelPlaced(seat=0, card=card, column=1)]
    assert column_strength(table.state, 0, 1) == before + 3
    assert table.state.asking == "angel" and table.asked == 1  # no chance to cancel it
    run_until(table, lambda s: s.year == 1 and s.phase == "building")
    assert table.state.lines[0][1].angels == []
    assert card in table.state.angel_deck  # discarded at the year's end, reshuffled in


def test_a_special_effect_is_revealed_then_targeted_then_offered_to_the_others() -> None:
    table = start(2, first=0, enemies=ENEMIES)
    boost = angel("boost")
    deal_angels(table, 0, [boost])
    deal_angels(table, 1, [angel("cancel")])
    to_angels(table, PLAN)
    assert UseAngel(card=boost) in table.legal(0)
    assert table.when(0, UseAngel(card=boost)) == [AngelEffectChosen(seat=0, card=boost)]
    assert table.state.asking == "target" and table.asked == 0
    targets = {(a.owner, a.column) for a in table.legal(0)}
    assert targets == {(0, 0), (0, 1), (1, 0), (1, 1)}  # any enemy card in any Line
    out = table.when(0, TargetEnemy(owner=1, column=0))
    assert out == [EnemyTargeted(seat=0, owner=1, column=0)]
    assert table.state.asking == "respond" and table.asked == 1
    assert enemy_strength(table.state, 1, 0) == 4  # not yet: it resolves after the window
    table.when(1, DECLINE)
    assert enemy_strength(table.state, 1, 0) == 6
    assert table.state.angel_discard == [boost]
    assert table.state.asking == "angel" and table.asked == 1


def test_a_boost_token_stays_on_its_enemy_card_when_the_card_is_switched() -> None:
    table = start(2, first=0, enemies=ENEMIES)
    deal_angels(table, 0, [angel("boost"), angel("switch"), angel("cancel")])
    to_angels(table, PLAN)
    # Seat 1 holds no card: it is neither asked to respond nor to take a turn.
    play(table, (0, UseAngel(card=angel("boost"))), (0, TargetEnemy(owner=1, column=0)),
         (0, UseAngel(card=angel("switch"))), (0, TargetEnemy(owner=1, column=0)))
    # The second card of a switch is any other enemy card.
    assert TargetEnemy(owner=1, column=0) not in table.legal(0)
    table.when(0, TargetEnemy(owner=0, column=0))
    assert table.state.lines[0][0].enemy == 5 and table.state.lines[1][0].enemy == 3
    assert enemy_strength(table.state, 0, 0) == 6  # Culverin 4 + 2, now in seat 0's Line
    assert enemy_strength(table.state, 1, 0) == 3


def test_take_moves_an_opponents_troop_and_pays_its_cost_to_the_owner() -> None:
    table = start(2, first=0, enemies=ENEMIES)
    build(table, 1, 1, troops=[MUSKETEERS])  # W1 G2
    deal_angels(table, 0, [angel("take"), angel("boost")])  # the second keeps the phase going
    to_angels(table, PLAN)
    mine, theirs = list(table.state.resources[0]), list(table.state.resources[1])
    play(table, (0, UseAngel(card=angel("take"))))
    assert TargetTroop(owner=1, card=MUSKETEERS) in table.legal(0)
    assert all(a.owner in (1, -1) for a in table.legal(0))  # never one's own troops
    play(table, (0, TargetTroop(owner=1, card=MUSKETEERS)))
    assert {a.column for a in table.legal(0)} == {0, 1}
    play(table, (0, TargetColumn(column=1)))
    assert table.state.lines[0][1].troops == [MUSKETEERS]
    assert table.state.lines[1][1].troops == []
    assert table.state.resources[0] == [mine[0] - 1, mine[1], mine[2] - 2]
    assert table.state.resources[1] == [theirs[0] + 1, theirs[1], theirs[2] + 2]


def test_take_may_buy_an_unbought_face_up_troop_from_the_bank() -> None:
    table = start(2, first=0, enemies=ENEMIES, troops=[PIKEMEN])
    deal_angels(table, 0, [angel("take")])
    to_angels(table, PLAN)
    gold = table.state.resources[0][GOLD]
    play(table, (0, UseAngel(card=angel("take"))), (0, TargetTroop(owner=-1, card=PIKEMEN)),
         (0, TargetColumn(column=0)))
    assert PIKEMEN in table.state.lines[0][0].troops and PIKEMEN not in table.state.offer
    assert table.state.resources[0][GOLD] == gold - 1


def test_destroy_defeats_an_enemy_of_ones_own_line_for_a_stone_even_in_an_empty_column() -> None:
    table = start(2, first=0, enemies=ENEMIES)
    build(table, 0, 0, fort=0, troops=[PIKEMEN])
    build(table, 0, 1)  # column 2 holds no card at all
    deal_angels(table, 0, [angel("destroy"), angel("boost")])
    to_angels(table, PLAN)
    stone = table.state.resources[0][STONE]
    play(table, (0, UseAngel(card=angel("destroy"))))
    assert {(a.owner, a.column) for a in table.legal(0)} == {(0, 0), (0, 1)}  # own Line only
    play(table, (0, TargetEnemy(owner=0, column=1)))
    assert table.state.lines[0][1].enemy == -1
    assert table.state.defeated[0] == [4] and table.state.year_defeats[0] == 1
    assert table.state.resources[0][STONE] == stone - 1
    run_until(table, lambda s: s.phase != "angels")
    assert table.state.results[0][1] == -1  # nothing left to fight there


def test_destroy_needs_a_troop_in_the_line_and_a_stone() -> None:
    table = start(2, first=0, enemies=ENEMIES)
    deal_angels(table, 0, [angel("destroy")])
    to_angels(table, PLAN)
    assert UseAngel(card=angel("destroy")) not in table.legal(0)  # no troop yet
    build(table, 0, 1, troops=[PIKEMEN])
    assert UseAngel(card=angel("destroy")) in table.legal(0)
    table.state.resources[0][STONE] = 0
    assert UseAngel(card=angel("destroy")) not in table.legal(0)


def test_the_resources_effect_gives_two_of_choice_in_the_angel_phase() -> None:
    table = start(2, first=0, enemies=ENEMIES)
    deal_angels(table, 0, [angel("resources")])
    to_angels(table, PLAN)
    set_resources(table, 0, 0, 0, 0)
    play(table, (0, UseAngel(card=angel("resources"))),
         (0, TargetResources(resources=(WOOD, WOOD))))
    assert table.state.resources[0] == [2, 0, 0]


def test_a_cancel_card_is_never_started_on_ones_own_turn() -> None:
    table = start(2, first=0, enemies=ENEMIES)
    deal_angels(table, 0, [angel("cancel")])
    to_angels(table, PLAN)
    assert UseAngel(card=angel("cancel")) not in table.legal(0)
    assert PlaceAngel(card=angel("cancel"), column=0) in table.legal(0)


def test_a_won_column_is_counted_from_the_strength_below_it() -> None:
    table = start(2, first=0, enemies=ENEMIES)
    build(table, 0, 1, troops=[PIKEMEN])  # strength 1 against the Lancers' 4
    deal_angels(table, 0, [angel("destroy", 4)])  # strength 3
    to_angels(table, PLAN)
    play(table, (0, PlaceAngel(card=angel("destroy", 4), column=1)))
    run_until(table, lambda s: s.phase != "angels")
    assert table.state.results[0][1] == DEFEATED
    assert 4 in table.state.defeated[0]


def test_the_view_shows_a_special_effect_in_play_to_every_seat() -> None:
    table = start(2, first=0, enemies=ENEMIES)
    deal_angels(table, 0, [angel("switch")])
    deal_angels(table, 1, [angel("cancel")])
    to_angels(table, PLAN)
    play(table, (0, UseAngel(card=angel("switch"))), (0, TargetEnemy(owner=0, column=1)))
    draft = ENGINE.view(table.state, 1).draft
    assert draft is not None and (draft.seat, draft.effect, draft.targets) == (0, "switch", [0, 1])
    play(table, (0, TargetEnemy(owner=1, column=1)))
    stack = ENGINE.view(table.state, 1).stack
    assert [(p.effect, p.targets, p.responders) for p in stack] == [("switch", [0, 1, 1, 1], [1])]


def test_help_has_no_cap_two_boosts_on_one_enemy_card_both_count() -> None:
    # Given seat 0 holds three boost cards and seat 1 none (so nothing is ever cancelled)
    boosts = [angel("boost", k) for k in range(3)]
    table = start(2, first=0, enemies=ENEMIES)
    deal_angels(table, 0, boosts)
    to_angels(table, PLAN)
    printed = enemy_strength(table.state, 1, 0)  # the Culverin, 4
    # When it boosts the same enemy card twice
    play(table, (0, UseAngel(card=boosts[0])), (0, TargetEnemy(owner=1, column=0)),
         (0, UseAngel(card=boosts[1])), (0, TargetEnemy(owner=1, column=0)))
    # Then both +2 count: help is a number on the card, not a limited stock of tokens
    assert enemy_strength(table.state, 1, 0) == printed + 4
    assert table.state.angel_discard == boosts[:2]
    assert table.asked == 0 and TargetEnemy(owner=1, column=0) not in table.legal(0)


def test_help_on_a_column_adds_up_from_every_source_at_once() -> None:
    # Given seat 0 earned last year's strength reward (a given) and holds a strength-3 card
    table = start(2, first=0, enemies=ENEMIES)
    card = angel("destroy", 4)
    deal_angels(table, 0, [card, angel("cancel")])  # the second card keeps the phase going
    printed = [column_strength(table.state, 0, col) for col in (0, 1)]
    assert printed == [2, 0]  # the start fortification; an empty column
    table.state.reward_strength = [1, 0]
    # When it also takes the Dinghuis and places the card below its first column
    table.when(0, PLACE_WORKER[DINGHUIS][0])
    to_angels(table, PLAN)
    table.when(0, PlaceAngel(card=card, column=0))
    # Then reward, Dinghuis and angel strength all count on that column, and the first two
    # on every other column too
    assert column_strength(table.state, 0, 0) == 2 + 1 + 1 + 3
    assert column_strength(table.state, 0, 1) == 0 + 1 + 1
    assert table.state.phase == "angels" and table.asked == 0
