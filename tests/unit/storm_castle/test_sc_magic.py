"""Magic: collecting it, spells with magic costs, exhausting and refreshing, fizzles, casters,
attack spells as attacks and as the way a target strikes back (in battles and battle rounds),
wards, and the spells defender casters draw."""

from __future__ import annotations

from storm_support import BLANK, HIT, act_table, defender, play_on, put

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.armies import ARCANISTS, GREEN_TIDE, UNDEAD
from siege.games.storm_castle.board import LOCATIONS, WALLS, battlefield_space, rampart
from siege.games.storm_castle.rules import economy

SIDE = 0
BOLT, CHAIN, WARD = 18, 19, 20  # our spells (cards.py): exhausting, fizzling, a ward


def magic_table(army: int = ARCANISTS, rival: int = GREEN_TIDE):
    return act_table(armies=(army, rival), hands=((BOLT, CHAIN, WARD), (BOLT, CHAIN, WARD)))


def casts(table, seat: int = 0) -> list[a.CastSpell]:
    return [x for x in table.legal(seat) if isinstance(x, a.CastSpell)]


def test_arcanists_collect_by_caster_and_undead_by_unflipped_unit() -> None:
    table = act_table(armies=(ARCANISTS, UNDEAD))
    put(table, 0, "Apprentice", battlefield_space(0, 2, 0))
    put(table, 0, "Clay Golem", battlefield_space(0, 2, 1))  # no caster: no magic
    put(table, 1, "Skeleton", battlefield_space(1, 2, 0))
    flipped = put(table, 1, "Ghoul", battlefield_space(1, 2, 1))
    table.state.units[flipped].flipped = True
    table.state.magic = [0, 0]
    play_on(table, lambda s: s.turn == 2 and s.phase == "vote")
    assert table.state.magic == [1, 1]


def test_only_arcanist_casters_cast_but_every_undead_unit_does() -> None:
    table = magic_table()
    apprentice = put(table, 0, "Apprentice", battlefield_space(SIDE, 0, 1))
    put(table, 0, "Clay Golem", battlefield_space(SIDE, 0, 0))
    knight = defender(table, "Knight", rampart(SIDE, 1))
    assert {x.unit for x in casts(table)} == {apprentice}
    assert a.CastSpell(card=BOLT, unit=apprentice, target=knight) in casts(table)
    undead = magic_table(army=UNDEAD)
    skeleton = put(undead, 0, "Skeleton", battlefield_space(SIDE, 0, 0))
    knight = defender(undead, "Knight", rampart(SIDE, 0))
    assert a.CastSpell(card=BOLT, unit=skeleton, target=knight) in casts(undead)


def test_an_attack_spell_costs_magic_exhausts_and_comes_back_at_collect() -> None:
    table = magic_table()
    apprentice = put(table, 0, "Apprentice", battlefield_space(SIDE, 0, 1))
    slinger = defender(table, "Halfling Slinger", rampart(SIDE, 1), damage=0)
    table.when(0, a.CastSpell(card=BOLT, unit=apprentice, target=slinger))
    assert table.state.magic[0] == 1 and table.state.exhausted[0] == [BOLT]
    assert table.need().count == 2  # the spell's Attack 2, not the apprentice's Attack 1
    table.roll(HIT, BLANK, purpose=f"attack:{apprentice}")
    table.roll(BLANK, purpose=f"defense:{apprentice}")  # the rampart's cover fails
    table.roll(BLANK, purpose=f"attack:{slinger}")  # both ranged: simultaneous, it replies
    assert slinger not in table.state.units
    assert not any(x.card == BOLT for x in casts(table))  # exhausted: once a turn
    assert table.state.units[apprentice].done  # casting ended its movement
    play_on(table, lambda s: s.turn == 2 and s.phase == "vote")
    assert BOLT in table.state.hands[0] and table.state.exhausted[0] == []


def test_a_spell_that_destroys_an_adjacent_unit_gives_no_battle_march() -> None:
    table = magic_table(army=UNDEAD)
    table.state.magic[0] = 3
    skeleton = put(table, 0, "Skeleton", battlefield_space(SIDE, 1, 1))
    rival = put(table, 1, "Goblin", battlefield_space(SIDE, 1, 2))
    table.when(0, a.CastSpell(card=CHAIN, unit=skeleton, target=rival))  # Soul Rend, melee
    table.roll(HIT, HIT, BLANK, BLANK, purpose=f"attack:{skeleton}")
    table.roll(BLANK, purpose=f"attack:{rival}")
    assert rival not in table.state.units and table.state.offer is None
    assert table.state.asking == "act"


def test_a_fizzle_spell_is_discarded_when_cast() -> None:
    table = magic_table()
    table.state.magic[0] = 5
    magus = put(table, 0, "Battle Magus", battlefield_space(SIDE, 1, 1))
    knight = defender(table, "Knight", rampart(SIDE, 1))
    table.when(0, a.CastSpell(card=CHAIN, unit=magus, target=knight))
    assert CHAIN in table.state.discards[0] and CHAIN not in table.state.hands[0]
    assert table.state.exhausted[0] == [] and table.state.magic[0] == 2


def test_a_ward_adds_armor_until_the_end_of_the_turn() -> None:
    table = magic_table()
    apprentice = put(table, 0, "Apprentice", battlefield_space(SIDE, 2, 1))
    golem = put(table, 0, "Clay Golem", battlefield_space(SIDE, 1, 1))
    table.when(0, a.CastSpell(card=WARD, unit=apprentice, target=golem))
    assert table.state.units[golem].ward == 1 and table.state.magic[0] == 2
    play_on(table, lambda s: s.turn == 2 and s.phase == "vote")
    assert table.state.units[golem].ward == 0


def test_a_target_may_strike_back_with_an_attack_spell_which_shoots_first() -> None:
    table = magic_table(army=GREEN_TIDE, rival=UNDEAD)
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 1, 1))
    skeleton = put(table, 1, "Skeleton", battlefield_space(SIDE, 1, 2))
    table.when(0, a.AttackTarget(unit=orc, target=skeleton))
    assert table.waiting == {1} and table.state.asking == "counter"
    assert a.CounterWithSpell(card=-1) in table.legal(1)
    assert a.CounterWithSpell(card=BOLT) in table.legal(1)
    table.when(1, a.CounterWithSpell(card=BOLT))
    assert table.state.magic[1] == 1 and table.state.exhausted[1] == [BOLT]
    # a ranged spell deals its damage before the melee attacker (two dice: the spell's)
    table.roll(HIT, HIT, purpose=f"attack:{skeleton}")
    assert table.state.units[orc].damage == 2
    table.roll(BLANK, BLANK, purpose=f"attack:{orc}")


def test_an_attack_spell_may_be_answered_by_an_attack_spell() -> None:
    table = magic_table(army=ARCANISTS, rival=UNDEAD)
    magus = put(table, 0, "Battle Magus", battlefield_space(SIDE, 1, 0))
    skeleton = put(table, 1, "Skeleton", battlefield_space(SIDE, 1, 2))  # 2 spaces away
    table.when(0, a.CastSpell(card=BOLT, unit=magus, target=skeleton))
    assert table.legal(1) == [a.CounterWithSpell(card=BOLT)]  # its own attack cannot reach
    table.when(1, a.CounterWithSpell(card=BOLT))
    table.roll(BLANK, BLANK, purpose=f"attack:{magus}")  # two ranged spells: simultaneous
    table.roll(HIT, BLANK, purpose=f"attack:{skeleton}")
    assert table.state.units[magus].damage == 1 and table.state.exhausted == [[BOLT], [BOLT]]


def test_in_battle_rounds_the_spell_is_chosen_once_and_strikes_every_round() -> None:
    table = magic_table(army=GREEN_TIDE, rival=UNDEAD)
    orc = put(table, 0, "Orc Warrior", battlefield_space(SIDE, 1, 1))
    skeleton = put(table, 1, "Skeleton", LOCATIONS[0])
    table.when(0, a.MoveUnit(unit=orc, to=LOCATIONS[0]))
    table.when(1, a.CounterWithSpell(card=CHAIN))  # Attack 4, melee, fizzles
    assert CHAIN in table.state.discards[1]
    for _ in range(2):  # round after round, the skeleton strikes with the spell's four dice
        table.roll(BLANK, BLANK, purpose=f"attack:{orc}")
        table.roll(BLANK, BLANK, BLANK, BLANK, purpose=f"attack:{skeleton}")
    assert table.state.battle is not None and table.state.battle.round == 2
    assert table.state.asking != "counter"  # no new spell after the first round


def test_a_defender_caster_draws_its_spells_first_and_may_cast_one() -> None:
    table = magic_table()
    mage = defender(table, "Battle Mage", rampart(SIDE, 1))
    golem = put(table, 0, "Clay Golem", battlefield_space(SIDE, 0, 1))
    table.when(0, a.END_TURN)  # the event at the end of seat 0's turn: an Onward March
    assert table.state.asking == "order" and table.legal(1) == [a.DrawSpells(unit=mage)]
    top = table.state.magic_deck[0]
    table.when(1, a.DrawSpells(unit=mage))
    assert table.state.drawn_spells == [top]
    spell_orders = [x for x in table.legal(1) if x.spell == top]
    assert spell_orders and all(x.unit == mage for x in table.legal(1))
    table.when(1, a.OrderDefender(unit=mage, to=rampart(SIDE, 1), target=golem, spell=top))
    assert table.need().count == 3  # Fireball: Attack 3
    assert top in table.state.magic_discard and table.state.drawn_spells == []


def test_exhausted_cards_count_for_the_hand_limit_and_may_be_discarded() -> None:
    table = magic_table()
    table.state.hands[0] = [2, 3, WARD]
    table.state.exhausted[0] = [BOLT]
    assert economy.over_limit(table.state, 0) == "discard"
    play_on(table, lambda s: s.asking == "discard")
    assert a.DiscardPowerCard(card=BOLT) in table.legal(0)
    table.when(0, a.DiscardPowerCard(card=BOLT))
    assert table.state.exhausted[0] == [] and BOLT in table.state.discards[0]


def test_an_attack_spell_may_strike_a_wall_in_its_range() -> None:
    # given an apprentice in range of a castle wall with Arcane Bolt in hand
    table = magic_table()
    apprentice = put(table, 0, "Apprentice", battlefield_space(SIDE, 0, 1))
    spell_at_wall = a.CastSpell(card=BOLT, unit=apprentice, target=-1, structure=WALLS[0])
    assert spell_at_wall in casts(table)
    assert not any(x.structure >= 0 for x in casts(table) if x.card == WARD)  # wards never
    # when it casts the bolt at the wall and both dice hit
    table.when(0, spell_at_wall)
    assert table.need().count == 2  # the spell's Attack 2
    table.roll(HIT, HIT, purpose=f"attack:{apprentice}")
    # then the wall takes the damage (no strike back), the spell is paid and exhausted
    assert table.state.structure_damage[WALLS[0]] == 2 and table.state.standing[WALLS[0]]
    assert table.state.magic[0] == 1 and table.state.exhausted[0] == [BOLT]
    assert table.state.battle is None and table.state.asking == "act"
    assert table.state.units[apprentice].done


def test_a_melee_attack_spell_strikes_a_wall_only_from_its_front() -> None:
    # given Undead skeletons in front of a wall and inside the castle behind it
    table = magic_table(army=UNDEAD)
    table.state.magic[0] = 3
    front = put(table, 0, "Skeleton", battlefield_space(SIDE, 0, 0))
    inside = put(table, 0, "Skeleton", rampart(SIDE, 1))
    table.state.standing[WALLS[1]] = False
    walls = {(x.unit, x.structure) for x in casts(table) if x.card == CHAIN and x.structure >= 0}
    # then Soul Rend (range 0) reaches the wall from the front, never from inside the castle
    assert (front, WALLS[0]) in walls
    assert not any(unit == inside and sid in WALLS for unit, sid in walls)
    table.when(0, a.CastSpell(card=CHAIN, unit=front, target=-1, structure=WALLS[0]))
    table.roll(HIT, HIT, HIT, BLANK, purpose=f"attack:{front}")
    assert not table.state.standing[WALLS[0]] and table.state.walls_taken[0] == 1


def test_the_unit_that_starts_battle_rounds_may_cast_an_attack_spell_in_them() -> None:
    # given an Undead skeleton with magic for Soul Rend and an orc on a location
    table = magic_table(army=UNDEAD, rival=GREEN_TIDE)
    table.state.magic[0] = 3
    skeleton = put(table, 0, "Skeleton", battlefield_space(SIDE, 1, 1))
    orc = put(table, 1, "Orc Warrior", LOCATIONS[0])
    # when the skeleton moves in and starts battle rounds
    table.when(0, a.MoveUnit(unit=skeleton, to=LOCATIONS[0]))
    # then its owner chooses how it strikes: its own attack or an attack spell
    assert table.state.asking == "counter" and table.waiting == {0}
    assert {x.card for x in table.legal(0)} == {-1, BOLT, CHAIN}
    table.when(0, a.CounterWithSpell(card=CHAIN))  # Attack 4, melee, fizzles
    assert CHAIN in table.state.discards[0] and table.state.magic[0] == 0
    for _ in range(2):  # the spell's four dice strike round after round
        table.roll(BLANK, BLANK, BLANK, BLANK, purpose=f"attack:{skeleton}")
        table.roll(BLANK, BLANK, purpose=f"attack:{orc}")
    assert table.state.battle is not None and table.state.battle.round == 2
    assert table.state.asking != "counter"  # chosen once, in the first round


def test_in_battle_rounds_the_target_chooses_first_then_the_starter() -> None:
    # given two casting armies: an apprentice moving onto a skeleton's location
    table = magic_table(army=ARCANISTS, rival=UNDEAD)
    apprentice = put(table, 0, "Apprentice", battlefield_space(SIDE, 1, 1))
    put(table, 1, "Skeleton", LOCATIONS[0])
    table.state.magic[1] = 3
    table.when(0, a.MoveUnit(unit=apprentice, to=LOCATIONS[0]))
    # then the target's owner is asked first, and the starter's owner after him
    assert table.state.asking == "counter" and table.waiting == {1}
    table.when(1, a.CounterWithSpell(card=-1))
    assert table.state.asking == "counter" and table.waiting == {0}
    table.when(0, a.CounterWithSpell(card=BOLT))
    assert table.state.battle is not None and table.state.battle.spell == BOLT
    assert table.state.exhausted[0] == [BOLT]
