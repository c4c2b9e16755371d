"""Heroes on the battlefield, and the Curse's duration with its one token."""

from __future__ import annotations

from ca_support import ENGINE, PETE, YOU, put, start

from siege.games.castle_assault import actions as a
from siege.games.castle_assault.cards import BY_NAME
from siege.games.castle_assault.state import HERO_INSTANCE, NOBODY, uid_of


def test_a_hero_is_summoned_free_once_and_cannot_act_that_turn() -> None:
    t = start()
    t.start_turn(1)
    assert t.s.resources[YOU] == [] and a.SummonHero(lane=1) in t.legal(YOU)
    t.when(YOU, a.SummonHero(lane=1))
    hero = t.unit(YOU, "Vyrax, the Ashen Tyrant")
    assert hero.uid == uid_of(YOU, HERO_INSTANCE) and (hero.lane, hero.row) == (1, 0)
    assert not any(isinstance(x, a.SummonHero) for x in t.legal(YOU))
    assert not any(getattr(x, "unit", None) == hero.uid for x in t.legal(YOU))


def test_with_the_hero_on_the_battlefield_no_new_captain_but_the_old_one_stays() -> None:
    t = start()
    drake = put(t, YOU, "Drake", 0, 2)
    t.start_turn(1, captain=drake.uid)
    t.when(YOU, a.SummonHero(lane=1))
    t.end_turn(YOU)
    while t.s.asking == "discard":
        t.when(YOU, a.DiscardCard(card=t.s.hands[YOU][0]))
    t.start_turn(1)
    drake.damage = 99
    t.when(PETE, a.END_TURN)
    while t.s.asking == "discard":
        t.when(PETE, a.DiscardCard(card=t.s.hands[PETE][0]))
    assert t.s.captain[YOU] == drake.uid or drake not in t.s.units
    t.roll(1, purpose="momentum")
    assert t.s.asking != "captain"  # the hero is out: no Captain may be assigned


def test_a_hero_destroyed_loses_the_game_at_once() -> None:
    t = start()
    t.start_turn(1)
    t.when(YOU, a.SummonHero(lane=1))
    hero = t.unit(YOU, "Vyrax, the Ashen Tyrant")
    hero.damage = BY_NAME["Vyrax, the Ashen Tyrant"].health - 1
    t.end_turn(YOU)
    while t.s.asking == "discard":
        t.when(YOU, a.DiscardCard(card=t.s.hands[YOU][0]))
    t.start_turn(1)
    wrath = next(i for i in t.s.decks[PETE]
                 if t.s.cards[PETE][i] == BY_NAME["Mountain's Wrath"].id)
    t.s.decks[PETE].remove(wrath)
    t.s.hands[PETE].append(wrath)
    t.s.resources[PETE] = [t.s.decks[PETE].pop() for _ in range(3)]
    t.when(PETE, a.PlayCommand(card=wrath, unit=hero.uid))
    assert t.s.phase == "over" and t.s.ended == "hero" and t.s.ranks == [2, 1]
    assert ENGINE.is_terminal(t.state)


def test_the_hero_action_side_shoots() -> None:
    t = start(warbands="dwarves,dragons")
    t.start_turn(1)
    t.when(YOU, a.SummonHero(lane=1))
    oren = t.unit(YOU, "Oren Iron-Veins")
    oren.entered = 0  # as if summoned on an earlier turn
    oren.row = 7  # two spaces from the castle area: in reach
    put(t, PETE, "Ember Hatchling", 1, 9)  # defends the lane: Blunt Damage hits it
    shot = a.UseAbility(unit=oren.uid, target=a.CASTLE_TARGET)
    assert shot in t.legal(YOU)
    t.when(YOU, shot)
    assert t.s.castle_damage[PETE] == 0 and not any(
        u.card == BY_NAME["Ember Hatchling"].id for u in t.s.units if u.seat == PETE)


def test_a_curse_lasts_one_turn_of_its_victims_side_then_the_token_passes_to_it() -> None:
    t = start()
    foe = put(t, PETE, "Deepdelver Miners", 2, 7)
    mine = put(t, YOU, "Brood Wurm", 0, 2)
    t.start_turn(1, curse=foe.uid)
    assert t.s.curse == foe.uid and t.s.curse_by == YOU
    t.end_turn(YOU)
    while t.s.asking == "discard":
        t.when(YOU, a.DiscardCard(card=t.s.hands[YOU][0]))
    t.roll(1, purpose="momentum")  # Pete's turn: the token is busy on his Miners
    assert t.s.asking != "curse"
    if t.s.asking == "captain":
        t.when(PETE, a.SKIP_CAPTAIN)
    t.when(PETE, a.END_TURN)
    while t.s.asking == "discard":
        t.when(PETE, a.DiscardCard(card=t.s.hands[PETE][0]))
    assert t.s.curse == NOBODY and t.s.curse_holder == PETE
    t.roll(1, purpose="momentum")  # your turn: the token is Pete's now
    if t.s.asking == "captain":
        t.when(YOU, a.SKIP_CAPTAIN)
    assert t.s.asking != "curse" and mine in t.s.units
