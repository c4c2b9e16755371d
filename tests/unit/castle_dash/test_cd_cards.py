"""One test per Armory card (our own design, see cards.py and the README).

Most use :func:`duel`: seat 0 fights seat 1 with 3 against 4 soldiers unless said otherwise.
"""

from __future__ import annotations

from castle_dash_support import (
    ENGINE,
    C,
    P,
    duel,
    place_all,
    run_until,
    sappers_and_bribe,
    start,
)

from siege.games.castle_dash import cards
from siege.games.castle_dash.actions import (
    ChooseBattle,
    ChooseCannonballs,
    EndArmoryPlay,
    PlayArmoryCard,
    ResolveFlagCard,
)


def cannons(table, mine: int, theirs: int) -> None:
    table.when(0, ChooseCannonballs(count=mine))
    table.when(1, ChooseCannonballs(count=theirs))


def play_card(table, seat: int, card: int) -> None:
    assert PlayArmoryCard(card=card) in table.legal(seat)
    assert EndArmoryPlay() in table.legal(seat)
    table.when(seat, PlayArmoryCard(card=card))


def outcome(table) -> tuple[list[int] | None, int, int]:
    result = table.state.outcome
    assert result is not None
    return result.totals, result.winner, result.placed


def test_every_card_is_unique_and_of_a_known_kind() -> None:
    assert len(cards.CARDS) == 18
    assert len({card.name for card in cards.CARDS}) == 18
    assert len({card.text for card in cards.CARDS}) == 18
    assert {card.kind for card in cards.CARDS} == {"flag", "battle", "round"}


# --- blue flags ---------------------------------------------------------------------------------


def test_powder_cache_gives_two_more_cannonballs_for_the_round() -> None:
    table = duel(3, 4, claims={0: [cards.POWDER_CACHE]})
    assert table.state.cannonballs[0] == 4
    assert [a.count for a in table.legal(0)] == [0, 1, 2, 3, 4]


def test_sabotage_takes_a_cannonball_from_the_chosen_opponent() -> None:
    table = duel(3, 4, claims={0: [cards.SABOTAGE]})
    assert table.legal(0) == [ResolveFlagCard(card=cards.SABOTAGE, target=1),
                              ResolveFlagCard(card=cards.SABOTAGE, target=2)]
    table.when(0, ResolveFlagCard(card=cards.SABOTAGE, target=1))
    assert table.state.cannonballs == [2, 1, 2]
    assert [a.count for a in table.legal(1)] == [0, 1]


def test_sappers_puts_its_claiming_soldier_on_the_chosen_opponents_wall() -> None:
    table = duel(3, 4, claims={0: [cards.SAPPERS]})
    table.when(0, ResolveFlagCard(card=cards.SAPPERS, target=1))
    assert table.state.walls[1][0] == 1
    # The soldier stays there: after the round it is still out of seat 0's hand.
    run_until(table, lambda s: s.round == 2, battle_dice=(1, 4))  # seat 0 places no more
    assert table.state.walls[1][0] == 1
    assert table.state.supply[0] == 8 + table.state.rescued[0] - 1


def test_bribe_sends_an_attackers_soldier_home_from_its_holders_wall() -> None:
    table = sappers_and_bribe(first=1)  # Sappers (seat 1) resolves before Bribe (seat 0)
    assert table.state.walls[0][1] == 0
    assert table.state.supply[1] == 1
    fizzled = sappers_and_bribe(first=0)  # Bribe first: an empty wall, nothing to do
    assert fizzled.state.walls[0][1] == 1


def test_lookout_takes_a_second_unclaimed_card_without_a_blue_flag() -> None:
    table = duel(3, 4, claims={0: [cards.LOOKOUT]},
                 extra=[cards.POWDER_CACHE, cards.BATTERING_RAM])
    offered = {a.target for a in table.legal(0)}
    assert cards.POWDER_CACHE not in offered  # a blue flag cannot be taken
    assert cards.BATTERING_RAM in offered
    supply = table.state.supply[0]
    table.when(0, ResolveFlagCard(card=cards.LOOKOUT, target=cards.BATTERING_RAM))
    assert table.state.holder[cards.BATTERING_RAM] == 0
    assert table.state.supply[0] == supply  # no soldier needed
    cannons(table, 0, 0)
    assert PlayArmoryCard(card=cards.BATTERING_RAM) in table.legal(0)


def test_smoke_screen_keeps_cannonballs_out_of_the_chosen_battle() -> None:
    table = duel(3, 4, claims={0: [cards.SMOKE_SCREEN]})
    table.when(0, ResolveFlagCard(card=cards.SMOKE_SCREEN, target=1))
    # Battle (0, 1) goes straight to the battle dice; nobody spent a cannonball.
    assert table.need().purpose == "battle"
    assert table.state.cannonballs == [2, 2, 2]


# --- battle cards -------------------------------------------------------------------------------


def test_battering_ram_adds_two_to_the_total() -> None:
    table = duel(3, 4, claims={0: [cards.BATTERING_RAM]})
    cannons(table, 0, 0)
    play_card(table, 0, cards.BATTERING_RAM)
    assert cards.BATTERING_RAM in table.state.spent
    table.roll(2, 2)  # 3 + 2 + 2 against 4 + 2
    assert outcome(table) == ([7, 6], 0, 1)


def test_ambush_removes_an_opposing_soldier_before_the_dice() -> None:
    table = duel(3, 4, claims={0: [cards.AMBUSH]})
    cannons(table, 0, 0)
    play_card(table, 0, cards.AMBUSH)
    assert table.state.troops[1][0] == 3
    table.roll(3, 2)  # 3 + 3 against 3 + 2
    assert outcome(table) == ([6, 5], 0, 1)


def test_lucky_charm_rolls_two_dice_and_keeps_the_higher() -> None:
    table = duel(3, 4, claims={0: [cards.LUCKY_CHARM]})
    cannons(table, 0, 0)
    play_card(table, 0, cards.LUCKY_CHARM)
    assert table.need().count == 3  # seat 0's two dice first, then seat 1's
    table.roll(1, 4, 2)
    assert outcome(table) == ([7, 6], 0, 1)


def test_caltrops_caps_the_opponents_battle_die_at_two() -> None:
    table = duel(3, 4, claims={0: [cards.CALTROPS]})
    cannons(table, 0, 0)
    play_card(table, 0, cards.CALTROPS)
    table.roll(1, 4)  # seat 1's 4 counts as 2
    assert outcome(table) == ([4, 6], 1, 2)


def test_rally_brings_back_soldiers_knocked_out_by_cannonballs() -> None:
    table = duel(3, 4, claims={0: [cards.RALLY]})
    cannons(table, 0, 2)
    table.roll(1, 1)  # both of seat 1's cannonballs hit: seat 0 is down to 1
    assert table.state.troops[0][1] == 1
    play_card(table, 0, cards.RALLY)
    assert table.state.troops[0][1] == 3


def test_rally_can_bring_back_a_side_the_cannonballs_wiped_out() -> None:
    table = duel(2, 4, claims={0: [cards.RALLY]})
    cannons(table, 0, 2)
    table.roll(1, 1)  # seat 0's 2 soldiers are both hit
    assert table.state.troops[0][1] == 0
    # A wiped-out side still has its step C; emptiness is judged only when the dice are due.
    play_card(table, 0, cards.RALLY)
    assert table.state.troops[0][1] == 2
    assert table.need().purpose == "battle"


def test_rally_is_not_offered_when_no_soldier_was_knocked_out() -> None:
    table = duel(3, 4, claims={0: [cards.RALLY]})
    cannons(table, 0, 0)
    assert table.need().purpose == "battle"  # seat 0 was not asked to play a card


def test_stout_gate_puts_two_fewer_soldiers_on_its_players_wall_in_a_loss() -> None:
    table = duel(3, 4, claims={0: [cards.STOUT_GATE]})
    cannons(table, 0, 0)
    play_card(table, 0, cards.STOUT_GATE)
    table.roll(1, 4)  # 4 against 8: margin 4, capped at seat 1's 4 soldiers, minus 2
    assert outcome(table) == ([4, 8], 1, 2)
    assert table.state.walls[0][1] == 2


def test_truce_ends_the_battle_at_once_with_no_winner() -> None:
    table = duel(3, 4, claims={0: [cards.TRUCE], 1: [cards.BATTERING_RAM]})
    cannons(table, 0, 0)
    play_card(table, 0, cards.TRUCE)
    assert outcome(table) == (None, -1, 0)
    assert table.state.walls[0][1] == table.state.walls[1][0] == 0
    # Seat 1 never got its step C there: its Battering Ram is still unspent.
    assert cards.BATTERING_RAM not in table.state.spent
    assert table.state.battle is not None and table.state.battle.sides == [1, 2]


# --- round cards --------------------------------------------------------------------------------


def test_war_banner_adds_one_in_every_battle_of_the_round() -> None:
    table = start(3, first=0, top=[cards.WAR_BANNER])
    place_all(table, {0: [C(cards.WAR_BANNER), P(1, 3), P(2, 4)],
                      1: [P(0, 3), P(2, 5)], 2: [P(0, 4), P(1, 4)]})
    table.when(0, ChooseBattle(opponent=1))
    cannons(table, 0, 0)
    table.roll(2, 2)
    assert outcome(table) == ([6, 5], 0, 1)
    table.when(0, ChooseCannonballs(count=0))
    table.when(2, ChooseCannonballs(count=0))
    table.roll(2, 2)
    assert outcome(table) == ([7, 6], 0, 1)


def test_master_gunner_hits_on_up_to_the_opposing_soldiers_plus_one() -> None:
    table = duel(3, 2, claims={0: [cards.MASTER_GUNNER]})
    cannons(table, 1, 0)
    table.roll(3)  # 3 <= 2 + 1
    assert table.state.troops[1][0] == 1


def test_iron_helmets_make_cannonballs_need_one_less_to_hit() -> None:
    table = duel(3, 4, claims={0: [cards.IRON_HELMETS]})
    cannons(table, 0, 2)
    table.roll(3, 2)  # 3 misses 3 soldiers (needs 2 or less); 2 then hits
    assert table.state.troops[0][1] == 2


def test_palisade_caps_a_win_without_dice_against_its_holder_at_two() -> None:
    table = duel(3, 4, claims={2: [cards.PALISADE]})
    # Seat 0's 5 unopposed soldiers would all go onto seat 2's wall; only 2 may.
    assert table.state.walls[2][0] == 2
    assert table.state.troops[0][2] == 3


def test_veteran_captains_win_ties_by_one_instead_of_rerolling() -> None:
    table = duel(3, 4, claims={0: [cards.VETERAN_CAPTAINS]})
    cannons(table, 0, 0)
    table.roll(2, 1)  # 5 against 5
    assert outcome(table) == ([5, 5], 0, 1)
    assert table.state.walls[1][0] == 1
    assert ENGINE.pending(table.state).chance is None  # no reroll


# --- the cannonball supply (ruling 28) ----------------------------------------------------------

CANNONBALL_TOKENS = 16  # in the box, by the rulebook's contents list


def test_powder_cache_is_the_only_grant_so_six_hands_never_need_more_than_the_box() -> None:
    # Given a six-player game in which seat 0 claims Powder Cache, the only card that grants
    table = start(6, first=0, top=[cards.POWDER_CACHE])
    grants = [card.id for card in cards.CARDS
              if card.text.startswith("Gain") and "cannonball" in card.text]
    assert grants == [cards.POWDER_CACHE]
    # When placement ends and the claim step resolves it
    place_all(table, {0: [C(cards.POWDER_CACHE)]})
    # Then it paid its full 2, and every hand together holds 6 x 2 + 2 = 14 of the 16 tokens
    state = table.state
    assert state.phase == "battle"
    assert state.cannonballs == [2 + cards.AMOUNT[cards.POWDER_CACHE]] + [2] * 5
    assert sum(state.cannonballs) == 14 <= CANNONBALL_TOKENS


def test_a_cannonball_grant_is_never_capped_by_the_tokens_in_the_box() -> None:
    table = start(6, first=0, top=[cards.POWDER_CACHE])
    # Given (a state play cannot reach) every seat already holding 9 cannonballs, 54 in all
    table.state.cannonballs = [9] * 6
    # When seat 0's Powder Cache resolves
    place_all(table, {0: [C(cards.POWDER_CACHE)]})
    # Then it still adds its 2: the engine keeps no count of the 16 tokens
    assert table.state.cannonballs == [11] + [9] * 5
