"""The command effects added with the full card pool: one given/when/then test each."""

from __future__ import annotations

from ca_support import PETE, YOU, Table, put, start

from siege.games.castle_assault import actions as a
from siege.games.castle_assault.cards import BY_NAME, CARDS
from siege.games.castle_assault.rules.combat import castle_code
from siege.games.castle_assault.rules.stats import armor_of, attack_of, movement_of
from siege.games.castle_assault.state import HERO_INSTANCE, NOBODY, Unit, uid_of


def give(t: Table, seat: int, name: str) -> int:
    """Adds a copy of the named card to the seat's card list and hand; returns its instance."""
    t.s.cards[seat].append(BY_NAME[name].id)
    t.s.hands[seat].append(len(t.s.cards[seat]) - 1)
    return len(t.s.cards[seat]) - 1


def ready(t: Table, seat: int, count: int) -> None:
    t.s.resources[seat] = [t.s.decks[seat].pop() for _ in range(count)]
    t.s.exhausted[seat] = 0


def open_phase(warbands: str = "fae,war-engine") -> Table:
    t = start(warbands=warbands)
    t.start_turn(1)
    ready(t, YOU, 6)
    return t


def play(t: Table, card: int, unit: int = -1, lane: int = -1) -> None:
    t.when(YOU, a.PlayCommand(card=card, unit=unit, lane=lane))


def targets(t: Table, card: int) -> set[int]:
    return {x.unit for x in t.legal(YOU) if isinstance(x, a.PlayCommand) and x.card == card}


def _end_turn(t: Table, seat: int) -> None:
    t.end_turn(seat)
    while t.s.asking == "discard":
        t.when(seat, a.DiscardCard(card=t.s.hands[seat][0]))


def test_wither_takes_two_attack_this_turn_only() -> None:
    t = open_phase()
    foe = put(t, PETE, "Armored Knights", 1, 5)  # Attack 3
    play(t, give(t, YOU, "Wither"), foe.uid)
    assert attack_of(t.s, foe) == 1
    _end_turn(t, YOU)
    assert attack_of(t.s, foe) == 3


def test_hex_bolt_deals_one_or_three_to_the_cursed_unit() -> None:
    t = open_phase()
    plain = put(t, PETE, "Siege Tower", 0, 5)
    cursed = put(t, PETE, "Armored Knights", 2, 5)
    t.s.curse, t.s.curse_by = cursed.uid, YOU
    play(t, give(t, YOU, "Hex Bolt"), plain.uid)
    play(t, give(t, YOU, "Hex Bolt"), cursed.uid)
    assert (plain.damage, cursed.damage) == (1, 3)


def test_vanish_returns_an_enemy_unit_to_its_hand_and_discards_its_attachments() -> None:
    t = open_phase("fae,dwarves")
    foe = put(t, PETE, "Goldguard Garrison", 1, 5)
    hammer = next(i for i in t.s.decks[PETE] if CARDS[t.s.cards[PETE][i]].name == "Forge Hammer")
    t.s.decks[PETE].remove(hammer)
    foe.attachments.append(hammer)
    t.s.units.append(pete_hero(t))
    decks = [len(d) for d in t.s.decks]
    vanish = give(t, YOU, "Vanish")
    assert uid_of(PETE, HERO_INSTANCE) not in targets(t, vanish)  # never a hero
    play(t, vanish, foe.uid)
    assert foe not in t.s.units and foe.uid % 100 in t.s.hands[PETE]
    assert hammer in t.s.discards[PETE] and [len(d) for d in t.s.decks] == decks


def pete_hero(t: Table) -> Unit:
    """Pete's hero, on the battlefield (as if summoned earlier)."""
    t.s.heroes[PETE] = 1
    return Unit(uid=uid_of(PETE, HERO_INSTANCE), seat=PETE, card=BY_NAME["Oren Iron-Veins"].id,
                lane=2, row=9, entered=0)


def test_retreat_saves_your_unit_to_hand_and_frees_the_captain_token() -> None:
    t = open_phase()
    knight = put(t, YOU, "Bramble Knight", 1, 3)
    t.s.captain[YOU] = knight.uid
    play(t, give(t, YOU, "Retreat"), knight.uid)
    assert knight not in t.s.units and knight.uid % 100 in t.s.hands[YOU]
    assert t.s.captain[YOU] == NOBODY


def test_mirror_step_jumps_over_an_occupied_square_and_may_engage() -> None:
    t = open_phase()
    sprite = put(t, YOU, "Thornling Sprite", 0, 4)
    put(t, PETE, "Pikemen", 1, 4)  # blocks a Shift, not a Mirror Step
    foe = put(t, PETE, "Siege Tower", 2, 5)
    step = give(t, YOU, "Mirror Step")
    assert {x.lane for x in t.legal(YOU) if isinstance(x, a.PlayCommand) and x.card == step
            and x.unit == sprite.uid} == {2}
    play(t, step, sprite.uid, 2)
    assert sprite.lane == 2 and any(c.source == sprite.uid and c.target == foe.uid
                                    for c in t.s.clashes)


def test_mischief_moves_an_opposing_unit_one_lane_into_a_free_square() -> None:
    t = open_phase()
    foe = put(t, PETE, "Siege Tower", 1, 5)
    put(t, PETE, "Pikemen", 0, 5)
    mischief = give(t, YOU, "Mischief")
    lanes = {x.lane for x in t.legal(YOU) if isinstance(x, a.PlayCommand) and x.card == mischief
             and x.unit == foe.uid}
    assert lanes == {2}
    play(t, mischief, foe.uid, 2)
    assert foe.lane == 2


def test_evil_eye_places_the_curse_token_only_when_it_is_free() -> None:
    t = open_phase()
    foe = put(t, PETE, "Armored Knights", 1, 5)
    eye = give(t, YOU, "Evil Eye")
    t.s.curse_holder = PETE
    assert targets(t, eye) == set()  # the token is Pete's to place
    t.s.curse_holder = NOBODY
    play(t, eye, foe.uid)
    assert t.s.curse == foe.uid and t.s.curse_by == YOU
    assert armor_of(t.s, foe) == 2 - 1  # the Fae Curse: -1 Armor


def test_reinforce_walls_regains_up_to_two_lost_health() -> None:
    t = open_phase("war-engine,fae")
    walls = give(t, YOU, "Reinforce Walls")
    assert targets(t, walls) == set()  # nothing lost yet
    t.s.castle_damage[YOU] = 3
    play(t, walls)
    assert t.castle(YOU) == 10 - 1


def test_supply_wagons_turns_the_top_card_into_a_ready_resource() -> None:
    t = open_phase("war-engine,fae")
    top = t.s.decks[YOU][0]
    before = len(t.s.resources[YOU]) - t.s.exhausted[YOU]
    play(t, give(t, YOU, "Supply Wagons"))  # costs 1
    assert t.s.resources[YOU][-1] == top and top not in t.s.decks[YOU]
    assert len(t.s.resources[YOU]) - t.s.exhausted[YOU] == before - 1 + 1


def test_hidden_cache_readies_two_exhausted_resources() -> None:
    t = open_phase()
    cache = give(t, YOU, "Hidden Cache")
    assert targets(t, cache) == set()  # nothing exhausted
    t.s.exhausted[YOU] = 4
    play(t, cache)
    assert t.s.exhausted[YOU] == 4 + 1 - 2


def test_sabotage_the_gate_deals_two_to_the_opposing_castle() -> None:
    t = open_phase()
    play(t, give(t, YOU, "Sabotage the Gate"))
    assert t.castle(PETE) == 8 and t.s.clashes[-1].target == castle_code(PETE)


def test_forced_march_moves_two_now_and_engages_with_the_smash() -> None:
    t = open_phase("war-engine,fae")
    pikemen = put(t, YOU, "Pikemen", 0, 2)
    play(t, give(t, YOU, "Forced March"), pikemen.uid)
    assert pikemen.row == 4
    lancers = put(t, YOU, "Mounted Lancers", 1, 2)
    foe = put(t, PETE, "Hexweaver", 1, 4)
    play(t, give(t, YOU, "Forced March"), lancers.uid)
    clash = t.s.clashes[-1]
    assert lancers.row == 3 and clash.target == foe.uid and clash.smash


def test_boiling_oil_burns_every_enemy_at_your_wall() -> None:
    t = open_phase("war-engine,fae")
    at_wall = put(t, PETE, "Bramble Knight", 0, 1)
    also = put(t, PETE, "Moonlit Dryad", 2, 1)
    further = put(t, PETE, "Grim Jester", 1, 2)
    play(t, give(t, YOU, "Boiling Oil"))
    assert (at_wall.damage, also.damage, further.damage) == (2, 2, 0)


def test_repel_pushes_back_through_free_squares_only() -> None:
    t = open_phase()
    foe = put(t, PETE, "Armored Knights", 1, 5)
    put(t, PETE, "Pikemen", 1, 8)
    play(t, give(t, YOU, "Repel"), foe.uid)
    assert foe.row == 7  # two back
    home = put(t, PETE, "Siege Tower", 0, 8)
    assert home.uid not in targets(t, give(t, YOU, "Repel"))  # never into its castle area


def test_repel_in_a_combat_window_calls_the_combat_off() -> None:
    t = start(warbands="fae,dwarves", auto_pass=False)
    reveller = put(t, YOU, "Masked Reveller", 1, 4)  # moves 2 into the Garrison
    foe = put(t, PETE, "Goldguard Garrison", 1, 6)
    ready(t, YOU, 1)
    repel = give(t, YOU, "Repel")
    t.start_turn(1)
    t.when(YOU, a.PASS_RESPONSE)  # the movement window (Pete has nothing ready)
    assert t.s.window is not None and t.s.window.kind == "combat"
    t.when(YOU, a.PlayCommand(card=repel, unit=foe.uid))
    assert foe.row == 8 and reveller.damage == 0 and not t.s.clashes


def test_rallying_horn_moves_the_meter_to_your_max() -> None:
    t = open_phase()
    t.s.momentum = -3
    play(t, give(t, YOU, "Rallying Horn"))
    assert t.s.momentum == 4


def test_swift_boots_and_knights_panoply_stay_on_their_unit() -> None:
    t = open_phase()
    knight = put(t, YOU, "Bramble Knight", 1, 3)  # Movement 2, Attack 3, Armor 1
    play(t, give(t, YOU, "Swift Boots"), knight.uid)
    play(t, give(t, YOU, "Knight's Panoply"), knight.uid)
    _end_turn(t, YOU)
    assert (movement_of(t.s, knight), attack_of(t.s, knight), armor_of(t.s, knight)) == (
        3, 4, 2)


def test_shield_wall_and_battle_cry_boost_every_friendly_unit_this_turn() -> None:
    t = open_phase()
    mine = [put(t, YOU, "Bramble Knight", 0, 3), put(t, YOU, "Grim Jester", 2, 3)]
    foe = put(t, PETE, "Pikemen", 1, 5)
    play(t, give(t, YOU, "Shield Wall"))
    play(t, give(t, YOU, "Battle Cry"))
    assert [(attack_of(t.s, u), armor_of(t.s, u)) for u in mine] == [(4, 2), (3, 1)]
    assert (attack_of(t.s, foe), armor_of(t.s, foe)) == (2, 0)
    _end_turn(t, YOU)
    assert attack_of(t.s, mine[1]) == 2


def test_cut_supply_lines_exhausts_up_to_two_opposing_resources() -> None:
    t = open_phase()
    cut = give(t, YOU, "Cut Supply Lines")
    assert targets(t, cut) == set()  # Pete has nothing Ready
    ready(t, PETE, 3)
    play(t, cut)
    assert t.s.exhausted[PETE] == 2


def test_assassins_blade_destroys_only_a_cheap_unit_and_draws_nothing() -> None:
    t = open_phase()
    cheap = put(t, PETE, "Pikemen", 0, 5)  # cost 1
    dear = put(t, PETE, "Armored Knights", 1, 5)  # cost 4
    blade = give(t, YOU, "Assassin's Blade")
    assert targets(t, blade) == {cheap.uid} and dear in t.s.units
    decks = len(t.s.decks[YOU])
    play(t, blade, cheap.uid)
    assert cheap not in t.s.units and len(t.s.decks[YOU]) == decks


def test_dark_pact_destroys_your_unit_and_draws_two() -> None:
    t = open_phase()
    sprite = put(t, YOU, "Thornling Sprite", 0, 3)
    hand = len(t.s.hands[YOU])
    play(t, give(t, YOU, "Dark Pact"), sprite.uid)
    assert sprite not in t.s.units and len(t.s.hands[YOU]) == hand + 1 - 1 + 2


def test_purify_lifts_the_curse_and_passes_the_token_to_your_hero() -> None:
    t = open_phase()
    mine = put(t, YOU, "Grim Jester", 0, 3)
    t.s.curse, t.s.curse_by = mine.uid, PETE
    play(t, give(t, YOU, "Purify"), mine.uid)
    assert t.s.curse == NOBODY and t.s.curse_holder == YOU


def test_cataclysm_hurts_every_unit() -> None:
    t = open_phase()
    mine = put(t, YOU, "Bramble Knight", 0, 3)
    theirs = put(t, PETE, "Siege Tower", 1, 6)
    cannon = put(t, PETE, "Nether Cannon", 2, 8)  # Health 1
    play(t, give(t, YOU, "Cataclysm"))
    assert (mine.damage, theirs.damage) == (1, 1) and cannon not in t.s.units


def test_calm_skies_discards_the_ongoing_card() -> None:
    t = open_phase()
    calm = give(t, YOU, "Calm Skies")
    assert targets(t, calm) == set()
    cold = BY_NAME["Blistering Cold"].id
    t.s.ongoing = cold
    play(t, calm)
    assert t.s.ongoing == NOBODY and cold in t.s.env_discard


def test_battle_trance_gives_a_second_unit_action() -> None:
    t = open_phase()
    knight = put(t, YOU, "Bramble Knight", 1, 4)
    foe = put(t, PETE, "Siege Tower", 1, 5)  # engaged: Attack is its action
    t.when(YOU, a.Attack(unit=knight.uid))
    assert a.Attack(unit=knight.uid) not in t.legal(YOU)
    play(t, give(t, YOU, "Battle Trance"), knight.uid)
    t.when(YOU, a.Attack(unit=knight.uid))
    assert foe.damage == 2 * (3 - 2)


def test_raise_the_fallen_returns_the_last_unit_card_discarded() -> None:
    t = open_phase()
    raise_ = give(t, YOU, "Raise the Fallen")
    assert targets(t, raise_) == set()
    knight = give(t, YOU, "Bramble Knight")
    wither = give(t, YOU, "Wither")
    t.s.hands[YOU].remove(knight)
    t.s.discards[YOU].append(knight)
    t.s.hands[YOU].remove(wither)
    t.s.discards[YOU].append(wither)  # a command on top: the unit card still comes back
    play(t, raise_)
    assert knight in t.s.hands[YOU] and wither in t.s.discards[YOU]


def test_ambush_strikes_the_enemy_at_your_units_front_with_its_attack() -> None:
    t = open_phase()
    knight = put(t, YOU, "Bramble Knight", 1, 4)  # Attack 3
    foe = put(t, PETE, "Armored Knights", 1, 5)  # Armor 2: a command ignores it
    away = put(t, PETE, "Pikemen", 0, 6)
    ambush = give(t, YOU, "Ambush")
    assert targets(t, ambush) == {foe.uid} and knight.damage == 0
    play(t, ambush, foe.uid)
    assert foe.damage == 3 and away.damage == 0
