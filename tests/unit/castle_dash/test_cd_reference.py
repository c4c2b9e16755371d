"""The reference data (``reference.py``): plain JSON built from the data modules, covering every
card, seat pairing and code a view can show."""

from __future__ import annotations

from typing import Any, get_args

from castle_dash_support import ENGINE, playout

from siege.contracts.events import Event, MatchCreated
from siege.games.castle_dash import cards as c
from siege.games.castle_dash.events import FlagCardResolved, LootChoice
from siege.games.castle_dash.reference import reference
from siege.games.castle_dash.rules import battle, flow
from siege.games.castle_dash.seating import (
    COINS_TO_WIN,
    LOOT_THRESHOLD,
    MAX_PER_PLACEMENT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPPONENTS,
    START_CANNONBALLS,
    START_COINS,
    soldiers_in_play,
)
from siege.games.castle_dash.state import BattleStep, Phase, new_state
from siege.games.castle_dash.views import CastleDashView

REF = reference()


def codes(key: str) -> list[Any]:
    return [entry["code"] for entry in REF[key]]



def test_every_card_the_deck_holds_appears_once_by_id_with_a_name_and_a_text() -> None:
    cards = REF["cards"]
    # The deck is every id once (the first shuffle is of DECK_SIZE cards, in id order).
    assert [card["id"] for card in cards] == list(range(c.DECK_SIZE)) == list(range(18))
    assert len({card["name"] for card in cards}) == len(cards)
    for card in cards:
        assert card["name"].strip() and card["text"].strip()


def test_card_numbers_match_the_data_module() -> None:
    for spec, entry in zip(c.CARDS, REF["cards"], strict=True):
        assert entry == {"id": spec.id, "name": spec.name, "kind": spec.kind,
                         "amount": spec.amount, "text": spec.text}
        assert entry["kind"] == c.KIND[spec.id] and entry["amount"] == c.AMOUNT[spec.id]
    # A few ids the rules look effects up by: a renumbered table would break these.
    by_name = {card["name"]: card["id"] for card in REF["cards"]}
    assert by_name["Powder Cache"] == c.POWDER_CACHE
    assert by_name["Lookout"] == c.LOOKOUT
    assert by_name["Truce"] == c.TRUCE
    assert by_name["Veteran Captains"] == c.VETERAN_CAPTAINS
    kinds = {kind: {card["id"] for card in REF["cards"] if card["kind"] == kind}
             for kind in codes("card_kinds")}
    assert kinds == {"flag": c.FLAG_CARDS, "battle": c.BATTLE_CARDS, "round": c.ROUND_CARDS}


def test_codes_match_the_code() -> None:
    assert codes("phases") == list(get_args(Phase))
    assert codes("battle_steps") == list(get_args(BattleStep))
    assert codes("loot_choices") == list(get_args(LootChoice))
    assert codes("card_kinds") == list(get_args(c.CardKind))
    assert set(codes("chance_purposes")) == {
        flow.SHUFFLE_PURPOSE, flow.RESHUFFLE_PURPOSE, flow.FIRST_PLAYER_PURPOSE,
        battle.CANNON_PURPOSE, battle.BATTLE_PURPOSE}
    for key in ("phases", "battle_steps", "loot_choices", "card_kinds", "chance_purposes"):
        assert all(entry["text"] for entry in REF[key]), key
    dice = {entry["code"]: entry for entry in REF["chance_purposes"]}
    assert dice[battle.CANNON_PURPOSE]["sides"] == battle.CANNON_DIE == 6
    assert dice[battle.BATTLE_PURPOSE]["sides"] == battle.BATTLE_DIE == 4
    assert dice[flow.SHUFFLE_PURPOSE]["count"] == c.DECK_SIZE


def test_opponents_setup_and_constants_match_the_seating_tables() -> None:
    counts = range(MIN_PLAYERS, MAX_PLAYERS + 1)
    assert REF["players"] == {"min": MIN_PLAYERS, "max": MAX_PLAYERS}
    assert sorted(REF["opponents"]) == sorted(REF["setup"]) == [str(n) for n in counts]
    for n in counts:
        assert REF["opponents"][str(n)] == [list(o) for o in OPPONENTS[n]]
        start = new_state(n)
        setup = REF["setup"][str(n)]
        assert [setup["soldiers_in_hand"]] * n == start.supply == [soldiers_in_play(n)] * n
        assert setup["hostages"] == start.hostages
        assert setup["boxed"] == (0 if n % 2 == 0 else 1)
    constants = REF["constants"]
    assert (constants["start_coins"], constants["start_cannonballs"]) == (
        START_COINS, START_CANNONBALLS)
    assert (constants["max_per_placement"], constants["loot_threshold"],
            constants["coins_to_win"], constants["deck_size"]) == (
        MAX_PER_PLACEMENT, LOOT_THRESHOLD, COINS_TO_WIN, c.DECK_SIZE)


def views_of(events: list[Event]) -> list[CastleDashView]:
    first = events[0]
    assert isinstance(first, MatchCreated)
    state = ENGINE.initial_state(first)
    views = []
    for event in events[1:]:
        state = ENGINE.evolve(state, event)
        views += [ENGINE.view(state, seat) for seat in range(first.players)]
    return views


def test_everything_a_view_shows_has_an_entry() -> None:
    seen: dict[str, set[Any]] = {key: set() for key in ("phase", "step", "chance", "card")}
    flags: set[int] = set()
    for players in (3, 4, 6):
        _, events = playout(players, f"reference{players}".encode())
        flags.update(event.card for event in events if isinstance(event, FlagCardResolved))
        opponents = REF["opponents"][str(players)]
        for view in views_of(events):
            assert len(view.holder) == len(REF["cards"])
            seen["phase"].add(view.phase)
            seen["chance"].add(view.chance)
            seen["card"].update([*view.face_up, *view.discard, *view.spent])
            seen["card"].update(card for card, seat in enumerate(view.holder) if seat >= 0)
            for seat in range(players):
                for pairs in (view.placed, view.resolved, view.smoke):
                    assert set(pairs[seat]) <= set(opponents[seat])
                    assert list(pairs[seat]) == [o for o in opponents[seat] if o in pairs[seat]]
                for o in range(players):
                    if view.troops[seat][o]:
                        assert o in opponents[seat]
            if view.phase == "claim" and view.current:
                holder, card = view.current
                assert REF["cards"][card]["kind"] == "flag" and view.holder[card] == holder
            if view.battle is not None:
                active, other = view.battle.sides
                assert other in opponents[active]
                seen["step"].add(view.battle.step)
                for played in view.battle.played:
                    assert all(REF["cards"][card]["kind"] == "battle" for card in played)
                    seen["card"].update(played)
    assert seen["phase"] <= set(codes("phases"))
    assert seen["step"] <= set(codes("battle_steps"))
    assert seen["chance"] - {""} <= set(codes("chance_purposes"))
    assert seen["card"] <= {card["id"] for card in REF["cards"]}
    assert flags <= {card["id"] for card in REF["cards"] if card["kind"] == "flag"}
    # The playouts reached most of the game: the checks above are not vacuous.
    assert {"place", "claim", "battle", "loot", "over"} <= seen["phase"]
    assert {"cannon_wait", "cards", "dice_roll"} <= seen["step"]
    assert len(seen["card"]) == c.DECK_SIZE
