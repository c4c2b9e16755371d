"""Sally Forth's web board: the table across from the seat told, the two missions in the middle
with each seat's units and stashes on its own side, hidden hands as backs, and clicks that pick
the mission assaulted or the card swerved, stashed or deployed."""

from __future__ import annotations

from mission_support import (
    CHARGE,
    ENGINE,
    KNIGHTS,
    MARCH,
    PIKEMEN,
    SCRAMBLE,
    SERGEANT,
    TUNNELLERS,
    Table,
    deploy,
    play,
    start,
)

from siege.engine.protocol import SPECTATOR
from siege.engine.scene import Piece, Scene, Zone, pieces
from siege.games.mission import actions as a
from siege.games.mission.presentation import PRESENTATION
from siege.games.mission.presentation_scene import card_id, slot_id

NAMES = ["North", "South"]
HAND_0 = [CHARGE, KNIGHTS, MARCH, SCRAMBLE, SERGEANT]
HAND_1 = [PIKEMEN, TUNNELLERS, MARCH, SCRAMBLE, CHARGE]


def board(table: Table, seat: int) -> Scene:
    view = ENGINE.view(table.state, seat)
    assert PRESENTATION.scene is not None
    return PRESENTATION.scene(view, NAMES, None if seat == SPECTATOR else seat)


def by_id(scene: Scene) -> dict[str, Piece]:
    return {piece.id: piece for piece in pieces(scene) if piece.id}


def zone_of(scene: Scene, piece_id: str) -> Zone:
    """The innermost zone holding the piece ``piece_id``."""
    def search(zone: Zone) -> Zone | None:
        if any(piece.id == piece_id for piece in zone.pieces):
            return zone
        for inner in zone.zones:
            found = search(inner)
            if found is not None:
                return found
        return None
    for zone in scene.zones:
        found = search(zone)
        if found is not None:
            return found
    raise AssertionError(f"{piece_id} is not on the board")


def test_the_table_is_drawn_across_from_the_seat_told_with_the_missions_between() -> None:
    table = start(first=0, decks={0: HAND_0, 1: HAND_1}, missions=[0, 7])
    for seat, other in ((0, 1), (1, 0)):
        scene = board(table, seat)
        top, middle, bottom = scene.zones
        assert (top.seat, top.title) == (other, NAMES[other])
        assert (bottom.seat, bottom.title) == (seat, "Your area")
        assert middle.title == "Missions"
        assert [p.label for p in middle.pieces] == ["mission deck"]
        assert middle.pieces[0].kind == "back" and middle.pieces[0].lines == ("6 cards",)
        slots = middle.zones
        assert [z.title for z in slots] == ["Slot 0", "Slot 1"]
        for slot, zone in enumerate(slots):
            far, card, near = zone.zones
            assert (far.seat, near.seat) == (other, seat)
            assert near.title == f"Your side of slot {slot}"
            assert card.pieces[0].id == slot_id(slot)
        assert [z.zones[1].pieces[0].label for z in slots] == ["Fire the Granary",
                                                               "Breach the Keep"]
        assert "needs 8, worth 5 points" in slots[1].zones[1].pieces[0].lines
    assert board(table, 0).status == ("Turn 1 of 60, Deploy phase", "To choose: you")
    assert board(table, 1).status[1] == "To choose: North"


def test_the_other_hand_and_every_deck_are_backs_with_counts() -> None:
    table = start(first=0, decks={0: HAND_0, 1: HAND_1})
    scene = board(table, 0)
    ids = by_id(scene)
    assert {card_id(0, c) for c in HAND_0} <= set(ids)
    assert not any(i.startswith("card-1-") for i in ids), "South's hand is hidden"
    south = scene.zones[0]
    hand = next(z for z in south.zones if z.title.startswith("Hand"))
    assert [(p.kind, p.label, p.lines) for p in hand.pieces] == [("back", "card back",
                                                                  ("5 cards",))]
    decks = [p for p in pieces(scene) if p.label == "deck"]
    assert [(p.kind, p.lines) for p in decks] == [("back", ("13 cards",))] * 2
    spectator = board(table, SPECTATOR)
    assert not by_id(spectator).keys() - {slot_id(0), slot_id(1)}
    assert [p.lines for p in pieces(spectator) if p.label == "card back"] == [("5 cards",)] * 2


def test_a_card_keeps_its_id_from_the_hand_to_the_mission_and_clicking_it_deploys() -> None:
    table = start(first=0, decks={0: HAND_0, 1: HAND_1})
    view = ENGINE.view(table.state, 0)
    knights = card_id(0, KNIGHTS)
    offered = [act for act in table.legal(0) if PRESENTATION.target(act, view) == knights]
    assert offered == [a.DeployUnit(card=KNIGHTS, slot=0), a.DeployUnit(card=KNIGHTS, slot=1)]
    for act in offered:
        assert "knights" in PRESENTATION.action(act, view, NAMES).lower()
        assert PRESENTATION.group(act, view, NAMES) == "Knights"
    assert PRESENTATION.target(a.PASS, view) == ""
    play(table, deploy(0, KNIGHTS, slot=1))
    scene = board(table, 1)
    piece = by_id(scene)[knights]
    assert piece.kind == "unit" and piece.lines == ("strength 3",) and piece.seat == 0
    assert zone_of(scene, knights).title == "North's side of slot 1"


def test_the_assault_picks_a_mission_and_the_combat_shows_both_sides() -> None:
    table = start(first=0, decks={0: HAND_0, 1: HAND_1}, missions=[0, 7])
    play(table, deploy(0, CHARGE), deploy(0, KNIGHTS, slot=1), (1, a.SKIP),
         deploy(1, PIKEMEN, slot=0), (1, a.PASS))
    view = ENGINE.view(table.state, 0)
    scene = board(table, 0)
    targets = {PRESENTATION.target(act, view) for act in table.legal(0)}
    assert targets == {slot_id(0), slot_id(1)}
    assert by_id(scene)[slot_id(0)].label == "Fire the Granary"
    play(table, (0, a.AssaultMission(slot=0)))
    scene = board(table, 0)
    assert "being assaulted" in by_id(scene)[slot_id(0)].lines
    fight = next(z for z in scene.zones if z.title == "Close combat")
    assert [(p.label, p.lines[0]) for p in fight.pieces] == [
        ("You attack at Fire the Granary", "total 0"),
        ("South defends at Fire the Granary", "total 2")]
    view = ENGINE.view(table.state, 0)
    swerve = a.SwerveManeuver(card=CHARGE)
    assert swerve in table.legal(0)
    assert PRESENTATION.target(swerve, view) == card_id(0, CHARGE)
    assert zone_of(scene, card_id(0, CHARGE)).title == "Maneuvers in play"
    assert by_id(scene)[card_id(0, CHARGE)].lines == ("ready, speed 3",)
    play(table, (0, swerve))
    assert by_id(board(table, 1))[card_id(0, CHARGE)].lines == ("swerved, speed 3",)


def test_a_stash_lies_on_its_owners_side_of_the_mission_with_its_speed() -> None:
    table = start(first=0, decks={0: HAND_0, 1: HAND_1}, missions=[0, 7])
    play(table, deploy(0, CHARGE), deploy(0, MARCH), (1, a.PASS),
         (0, a.AssaultMission(slot=1)))
    view = ENGINE.view(table.state, 0)
    assert {PRESENTATION.target(act, view) for act in table.legal(0)} == {
        card_id(0, CHARGE), card_id(0, MARCH)}
    play(table, (0, a.StashManeuver(card=CHARGE)))
    scene = board(table, 1)
    side = zone_of(scene, card_id(0, CHARGE))
    assert side.title == "North's side of slot 1" and side.seat == 0
    assert side.pieces[0].label == "stashed speed 3 of 8"
    assert by_id(scene)[card_id(0, CHARGE)].lines == ("stashed, speed 3",)
