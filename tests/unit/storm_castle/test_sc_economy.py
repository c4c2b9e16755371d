"""Collect, the Boss vote, the Boss's privileges, turn order, buying and deploying, hand limits."""

from __future__ import annotations

from storm_support import BLANK, ENGINE, HIT, KIND, end_buying, put, start, to_buy

from siege.games.storm_castle import actions as a
from siege.games.storm_castle.board import LOCATIONS, START_SPACES, UPGRADE_SITES
from siege.games.storm_castle.decks import CHAMPION_CARD, UPGRADE_CARD
from siege.games.storm_castle.rules import economy
from siege.games.storm_castle.rules.flow import advance


def test_turn_one_has_no_collect_and_turn_two_does() -> None:
    table = start(2)
    assert table.state.turn == 1 and table.state.gold == [5, 5]
    assert [len(h) for h in table.state.hands] == [3, 3]
    state = table.state
    state.gold = [9, 2]
    economy.collect(state)
    assert state.gold == [10, 7]  # capped at 10
    assert state.owed_draws == [1, 1]


def test_locations_add_two_gold_two_magic_and_two_draws_to_their_holder() -> None:
    table = start(2, armies=(3, 1))  # Undead Horde, Dark Elves
    state = table.state
    state.units = {}
    for loc in LOCATIONS[:3]:
        put(table, 1, "Shadow Blade", loc)
    put(table, 0, "Skeleton", START_SPACES[0][0])
    put(table, 0, "Ghoul", START_SPACES[0][1])
    state.gold = [0, 0]
    state.magic = [0, 0]
    economy.collect(state)
    assert state.gold == [5, 7]
    assert state.magic == [2, 2]  # two undead units; the +2 Magic location
    assert state.owed_draws == [1, 3]


def test_a_flipped_unit_makes_no_magic_and_does_not_hold_a_location() -> None:
    table = start(2, armies=(3, 0))
    state = table.state
    state.units = {}
    uid = put(table, 0, "Skeleton", START_SPACES[0][0])
    held = put(table, 0, "Ghoul", LOCATIONS[1])
    state.units[uid].flipped = True
    state.units[held].flipped = True
    state.gold = [0, 0]
    state.magic = [0, 0]
    economy.collect(state)
    assert state.magic[0] == 0 and state.gold[0] == 5


def test_gold_bids_are_paid_and_count_with_every_vote_bonus() -> None:
    table = start(3)
    state = table.state
    state.walls_taken[2] = 1
    state.defenders_slain[2] = 3
    assert economy.base_votes(state, 2) == 3
    table.when(0, a.BidGold(gold=4))
    table.when(1, a.BidGold(gold=0))
    assert state.bids == [4, 0, -1] and state.gold == [5, 5, 5]  # nothing paid before all bid
    table.when(2, a.BidGold(gold=1))
    assert state.last_votes == [5, 1, 4] and state.gold == [1, 5, 4]
    assert state.boss == 0


def test_the_first_vote_tie_goes_to_the_lowest_setup_token() -> None:
    table = start(3)
    table.state.setup_tokens = [3, 1, 2]
    for seat in range(3):
        table.when(seat, a.BidGold(gold=1))
    assert table.state.boss == 1


def test_later_ties_are_broken_by_the_current_boss_and_ousting_gives_loot() -> None:
    table = start(3)
    state = table.state
    state.boss = 2
    state.boss_hands[2] = [7, 8]
    for seat in range(3):
        table.when(seat, a.BidGold(gold=0))
    assert state.asking == "tie" and table.asked == 2
    assert table.legal(2) == [a.BreakTie(seat=s) for s in (0, 1, 2)]
    table.when(2, a.BreakTie(seat=0))
    assert state.boss == 0 and state.asking == "boss_card" and len(state.boss_offer) == 2
    kept = table.legal(0)[1].card
    table.when(0, table.legal(0)[1])
    assert state.boss_hands[0] == [kept]
    assert state.asking == "ousted_card" and len(table.legal(0)) == 2  # blind, by position
    table.when(0, a.KeepBossCard(card=1))
    assert state.boss_hands[0] == [kept, 8] and state.boss_hands[2] == []
    assert state.asking == "loot"
    table.when(0, a.TakeBossLoot(kind="gold"))
    assert state.gold[0] == 6


def test_the_boss_draws_two_turn_order_tokens_and_keeps_one() -> None:
    table = start(4)
    for seat in range(4):
        table.when(seat, a.BidGold(gold=1 if seat == 2 else 0))
    table.when(2, table.legal(2)[0])  # keeps a Boss card
    assert table.need().purpose == "turn_tokens"
    table.shuffle([3, 1, 0, 2])  # tokens 4, 2, 1, 3 from the top
    assert table.legal(2) == [a.ChooseToken(token=2), a.ChooseToken(token=4)]
    assert ENGINE.view(table.state, 2).boss_offer_tokens == [2, 4]
    assert ENGINE.view(table.state, 0).boss_offer_tokens == []
    table.when(2, a.ChooseToken(token=4))
    table.shuffle([0, 1, 2])  # tokens 1, 2, 3 dealt clockwise from the Boss's left
    assert table.state.tokens == [2, 3, 4, 1]
    assert table.state.order == [3, 0, 1, 2]


def test_units_cost_their_price_plus_one_gold_outside_ones_own_battlefield() -> None:
    table = start(2, armies=(2, 1), fields=(0, 1))
    to_buy(table, token=1)
    goblin = KIND["Goblin"]
    home, away = START_SPACES[0][0], START_SPACES[1][0]
    table.when(0, a.BuyUnit(kind=goblin, space=home))
    table.when(0, a.BuyUnit(kind=goblin, space=away))
    assert table.state.gold[0] == 5 - 1 - 2
    unowned = START_SPACES[2][0]
    assert economy.unit_cost(table.state, 0, goblin, unowned) == 2


def test_a_player_buys_no_more_units_than_tokens_left() -> None:
    table = start(2, armies=(2, 1))
    to_buy(table, token=1)
    table.state.gold[0] = 10
    troll = KIND["Troll"]
    table.state.bought[0][troll] = 3  # all three Troll tokens in play
    assert not any(isinstance(x, a.BuyUnit) and x.kind == troll for x in table.legal(0))


def test_champion_and_upgrade_need_their_cards_in_hand() -> None:
    table = start(2, armies=(2, 1), hands=((CHAMPION_CARD, UPGRADE_CARD, 5), (2, 3, 4)))
    to_buy(table, token=1)
    state = table.state
    state.gold[0] = 10
    assert a.BUY_UPGRADE in table.legal(0)
    table.when(0, a.BuyChampion(space=START_SPACES[0][1]))
    assert CHAMPION_CARD not in state.hands[0] and CHAMPION_CARD in state.discards[0]
    table.when(0, a.BUY_UPGRADE)
    assert state.standing[UPGRADE_SITES[0]] and UPGRADE_CARD not in state.hands[0]
    assert economy.base_votes(state, 0) == 3  # 1 + champion + upgrade
    end_buying(table)  # seat 1 holds neither card
    assert all(not isinstance(x, a.BuyChampion) for x in economy.legal(state, 1))


def test_deploying_on_ones_own_unit_destroys_it_to_make_way() -> None:
    table = start(2, armies=(2, 1))
    to_buy(table, token=1)
    space = START_SPACES[0][0]
    table.when(0, a.BuyUnit(kind=KIND["Goblin"], space=space))
    table.when(0, a.BuyUnit(kind=KIND["Orc Warrior"], space=space))
    here = [u for u in table.state.units.values() if u.space == space]
    assert [u.kind for u in here] == [KIND["Orc Warrior"]]
    assert table.state.bought[0][KIND["Goblin"]] == 0


def test_deploying_onto_another_players_unit_starts_battle_rounds_and_uses_the_unit() -> None:
    table = start(2, armies=(2, 1), fields=(0, 1))
    to_buy(table, token=1)  # seat 0, the Boss, buys first
    assert table.asked == 0 and table.state.boss == 0
    space = START_SPACES[1][0]
    victim = put(table, 1, "Shadow Blade", space)
    table.when(0, a.BuyUnit(kind=KIND["Goblin"], space=space))
    battle = table.state.battle
    assert battle is not None and battle.rounds and table.state.gold[0] == 5 - 2
    new = battle.attacker
    assert table.state.units[new].attacked and table.state.units[new].done
    # Round 1: the Shadow Blade strikes first and misses; the Goblin hits (health 1).
    table.roll(BLANK, purpose=f"attack:{victim}")
    table.roll(HIT, purpose=f"attack:{new}")
    assert victim not in table.state.units and table.state.battle is None
    assert table.state.units[new].space == space and table.state.asking == "buy"


def test_nobody_may_deploy_onto_the_bosss_unit_unless_the_boss_attacked_them() -> None:
    table = start(2, armies=(2, 1))
    to_buy(table, token=2)
    boss = table.state.boss
    buyer = 1 - boss
    while table.asked != buyer:
        table.when(table.asked, a.END_BUYING)
    space = START_SPACES[0][2]
    put(table, boss, "Goblin" if table.state.armies[boss] == 2 else "Shadow Blade", space)
    spaces = [s for s, _ in economy.deploy_spaces(table.state, buyer)]
    assert space not in spaces
    table.state.provoked[buyer] = True
    assert space in [s for s, _ in economy.deploy_spaces(table.state, buyer)]


def test_a_power_card_costs_one_gold_and_the_boss_may_give_gold() -> None:
    table = start(2)
    to_buy(table, token=1)
    seat = table.asked
    deck = len(table.state.decks[seat])
    table.when(seat, a.BUY_POWER_CARD)
    assert table.state.gold[seat] == 4 and len(table.state.hands[seat]) == 4
    assert len(table.state.decks[seat]) == deck - 1
    assert seat == table.state.boss == 0
    table.when(seat, a.GiveGold(seat=1))
    assert table.state.gold == [3, 6]
    assert not any(isinstance(x, a.BuyUnit) and x.space in LOCATIONS for x in table.legal(0))


def test_the_hand_limit_is_three_or_five_with_the_hand_location_at_wrapup() -> None:
    table = start(2)
    state = table.state
    state.hands[0] = [2, 3, 4, 5]
    assert economy.over_limit(state, 0) == "discard"
    put(table, 0, "Goblin", LOCATIONS[3])
    for uid in [u.uid for u in state.units.values() if u.space == LOCATIONS[3] and u.owner < 0]:
        del state.units[uid]
    assert economy.hand_limit(state, 0) == 5 and economy.over_limit(state, 0) == ""
    state.boss_hands[1] = [0, 1, 2, 3]
    assert economy.over_limit(state, 1) == "boss_discard"


def test_wrapup_asks_each_player_over_the_limit_to_discard() -> None:
    table = start(2)
    state = table.state
    state.phase = "wrapup"
    state.sub = ""
    state.waiting = []
    state.order = [1, 0]
    state.hands[0] = [2, 3, 4, 5, 6]
    advance(state)
    assert state.asking == "discard" and table.asked == 0
    table.when(0, a.DiscardPowerCard(card=6))
    assert state.asking == "discard"  # still four cards
    table.when(0, a.DiscardPowerCard(card=2))
    assert state.discards[0][-2:] == [6, 2]
    assert state.turn == 2 and len(state.hands[0]) == 3 + 1  # then Collect drew one
