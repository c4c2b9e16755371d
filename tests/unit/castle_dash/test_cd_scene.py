"""Castle Dash's web board: one area per seat round the table (castle, wall, captives, hand,
soldiers in each battle), the Armory and the battle in the middle; only the view is drawn, and
a click on a castle, a wall, a captive or a card offers the actions that pick it."""

from __future__ import annotations

from functools import cache
from typing import Any

from castle_dash_support import ENGINE, C, P, duel, place_all, play, start

from siege.engine.scene import Piece, Scene, Zone, pieces
from siege.games.castle_dash import actions as a
from siege.games.castle_dash import cards
from siege.games.castle_dash.presentation import PRESENTATION
from siege.games.castle_dash.seating import OPPONENTS
from siege.games.castle_dash.views import CastleDashView
from siege.testing.playout import seeded_playout

NAMES = ["Red", "Blue", "Green", "Gold", "Purple", "Orange"]


def draw(view: CastleDashView, told: int | None) -> Scene:
    assert PRESENTATION.scene is not None
    return PRESENTATION.scene(view, NAMES[:view.players], told)


def by_id(scene: Scene) -> dict[str, Piece]:
    return {piece.id: piece for piece in pieces(scene) if piece.id}


def zone_of(scene: Scene, piece_id: str) -> Zone:
    """The innermost zone holding the piece."""
    def find(zone: Zone) -> Zone | None:
        if any(piece.id == piece_id for piece in zone.pieces):
            return zone
        for inner in zone.zones:
            found = find(inner)
            if found is not None:
                return found
        return None
    for zone in scene.zones:
        found = find(zone)
        if found is not None:
            return found
    raise AssertionError(f"{piece_id} is not on the board")


def said(action: Any, view: CastleDashView) -> str:
    return PRESENTATION.action(action, view, NAMES[:view.players])


@cache
def decisions(players: int, seed: int) -> list[tuple[int, list[Any], list[CastleDashView]]]:
    found: list[tuple[int, list[Any], list[CastleDashView]]] = []

    def on_action(state: Any, seat: int, action: Any) -> None:
        found.append((seat, ENGINE.legal_actions(state, seat),
                      [ENGINE.view(state, s) for s in (*range(players), -1)]))

    seeded_playout(ENGINE, ["random"] * players, seed, on_action=on_action)
    return found


def test_one_area_per_seat_clockwise_from_the_seat_told_after_the_middle() -> None:
    for players in (3, 4, 5, 6):
        table = start(players, first=1)
        view = ENGINE.view(table.state, 2)
        scene = draw(view, 2)
        middle, *seats = scene.zones
        assert middle.seat == -1 and middle.title == "Middle of the table"
        assert [zone.seat for zone in seats] == [(2 + k) % players for k in range(players)]
        assert seats[0].title == "Green (you)" and seats[1].title == NAMES[3 % players]
        for zone in seats:
            seat = zone.seat
            ids = [piece.id for piece in zone.pieces]
            assert ids[:2] == [f"castle-{seat}", f"wall-{seat}"]
            # The captives it holds: one of each seat it battles, in that seat's colour.
            captives = [piece for piece in zone.pieces if piece.kind == "unit"]
            assert sorted(piece.seat for piece in captives) == sorted(OPPONENTS[players][seat])
            hand, battles = zone.zones
            assert hand.title == "Hand" and hand.pieces[0].label == "8 soldiers in hand"
            assert hand.pieces[1].label == "2 cannonballs"
            assert len(battles.pieces) == (3 if players % 2 == 0 else 2)
            assert all(piece.seat == seat for piece in battles.pieces)


def test_the_deck_is_a_back_with_its_size_and_only_face_up_cards_are_cards() -> None:
    table = start(4, first=0)
    view = ENGINE.view(table.state, 0)
    scene = draw(view, 0)
    deck = by_id(scene)["deck"]
    assert deck.kind == "back" and deck.lines[0] == f"{view.deck_size} cards"
    faces = {piece.id for piece in pieces(scene) if piece.kind == "card"}
    assert faces == {f"card-{card}" for card in view.face_up}
    assert len(faces) == 8
    marker = by_id(scene)["first"]
    assert marker.seat == 0 and marker.lines == ("Red",)


def test_placing_soldiers_picks_the_opponents_castle() -> None:
    table = start(4, first=0)
    view = ENGINE.view(table.state, 0)
    scene = draw(view, 0)
    labels = by_id(scene)
    placements = [act for act in table.legal(0) if isinstance(act, a.PlaceSoldiers)]
    assert {act.opponent for act in placements} == {1, 2, 3}
    for act in placements:
        picked = PRESENTATION.target(act, view)
        assert picked == f"castle-{act.opponent}"
        assert labels[picked].label == f"{NAMES[act.opponent]}'s castle"
        assert f"against {NAMES[act.opponent]}'s castle" in said(act, view)
        assert PRESENTATION.group(act, view, NAMES[:4]) == f"{NAMES[act.opponent]}'s castle"
    assert labels["castle-0"].label == "your castle"


def test_a_claimed_card_keeps_its_id_from_the_middle_to_its_holders_hand() -> None:
    table = start(3, first=0, top=[cards.BATTERING_RAM])
    view = ENGINE.view(table.state, 0)
    claim = C(cards.BATTERING_RAM)
    assert PRESENTATION.target(claim, view) == "card-6"
    before = draw(view, 0)
    assert by_id(before)["card-6"].label == "Battering Ram"
    assert zone_of(before, "card-6").title == "Face-up Armory cards"
    play(table, (0, claim))
    after = draw(ENGINE.view(table.state, 1), 1)
    hand = zone_of(after, "card-6")
    assert hand.title == "Hand" and hand.seat == 0
    assert by_id(after)["card-6"].seat == 0
    assert by_id(after)["hand-0"].label == "7 soldiers in hand"


def test_lookout_picks_a_middle_card_and_playing_picks_the_card_in_hand() -> None:
    table = duel(3, 4, claims={0: [cards.LOOKOUT]},
                 extra=[cards.POWDER_CACHE, cards.BATTERING_RAM])
    view = ENGINE.view(table.state, 0)
    take = a.ResolveFlagCard(card=cards.LOOKOUT, target=cards.BATTERING_RAM)
    assert take in table.legal(0)
    assert PRESENTATION.target(take, view) == "card-6"
    assert zone_of(draw(view, 0), "card-6").title == "Face-up Armory cards"
    assert PRESENTATION.group(take, view, NAMES[:3]) == "Lookout"


def test_sappers_picks_a_wall_and_the_wall_shows_whose_soldiers_are_on_it() -> None:
    table = start(4, first=1, top=[cards.SAPPERS])
    place_all(table, {
        1: [C(cards.SAPPERS), P(2, 6), P(0, 1)],
        2: [P(3, 6), P(1, 2)],
        3: [P(0, 6), P(2, 2)],
        0: [P(1, 6), P(3, 2)],
    })
    assert table.waiting == frozenset({1})
    view = ENGINE.view(table.state, 1)
    scene = draw(view, 1)
    aims = [act for act in table.legal(1) if isinstance(act, a.ResolveFlagCard)]
    assert {act.target for act in aims} == {0, 2, 3}
    for act in aims:
        picked = PRESENTATION.target(act, view)
        assert picked == f"wall-{act.target}"
        assert by_id(scene)[picked].label.lower() in said(act, view).lower()
    table.when(1, a.ResolveFlagCard(card=cards.SAPPERS, target=0))
    wall = by_id(draw(ENGINE.view(table.state, 0), 0))["wall-0"]
    assert wall.label == "your wall" and wall.lines == ("1 of Blue's",)


def test_a_sealed_cannonball_count_shows_only_to_its_chooser() -> None:
    found = 0
    for players in (3, 4):
        for _, _, views in decisions(players, 5):
            fight = views[0].battle
            if fight is None or fight.step != "cannon_wait":
                continue
            for told, view in enumerate(views):
                scene = draw(view, None if told == players else told)
                ids = by_id(scene)
                for side, battler in enumerate(fight.sides):
                    shown = ids[f"side-{side}"].lines[1]
                    if told == battler and view.battle.shots[side] >= 0:
                        assert shown == f"cannonballs: {view.battle.shots[side]}"
                    elif view.battle.chosen[side]:
                        assert shown == "cannonballs: chosen, sealed"
                        found += 1
                    else:
                        assert shown == "cannonballs: choosing"
    assert found


def test_a_spectator_is_never_told_you_and_a_seat_only_of_itself() -> None:
    for seat, _, views in decisions(4, 2)[::7]:
        spectator = draw(views[-1], None)
        seated = draw(views[seat], seat)
        for scene, mine in ((spectator, None), (seated, seat)):
            for piece in pieces(scene):
                words = " ".join((piece.label, *piece.lines)).lower().split()
                if mine is None:
                    assert "you" not in words and "your" not in words, piece
            titles = [zone.title for zone in scene.zones]
            assert sum("(you)" in title for title in titles) == (0 if mine is None else 1)
        assert by_id(seated)[f"castle-{seat}"].label == "your castle"
        assert by_id(spectator)[f"castle-{seat}"].label == f"{NAMES[seat]}'s castle"


def test_looting_picks_the_castle_for_a_coin_and_the_captive_for_a_rescue() -> None:
    seen = set()
    for players in (3, 4, 5, 6):
        for seed in range(6):
            for seat, legal, views in decisions(players, seed):
                view = views[seat]
                loots = [act for act in legal if isinstance(act, a.Loot)]
                if not loots:
                    continue
                castle = view.current[0]
                ids = by_id(draw(view, seat))
                for act in loots:
                    picked = PRESENTATION.target(act, view)
                    if act.choice == "coin":
                        assert picked == f"castle-{castle}"
                    else:
                        assert picked == f"captive-{castle}-{seat}"
                        assert ids[picked].label == "your captive"
                    assert ids[picked].label.lower() in said(act, view).lower()
                    seen.add(act.choice)
        if seen == {"coin", "rescue"}:
            break
    assert seen == {"coin", "rescue"}
