"""Castle Assault's web board: the 3 x 10 battlefield with seat 1's castle area on top, each
end of the table in its seat's colour, only the seat's own hand face up, and the pieces a
click on the page picks named as the actions word them."""

from __future__ import annotations

from ca_support import PETE, YOU, created, put, start

from siege.engine.protocol import SPECTATOR
from siege.engine.scene import Scene, Zone, pieces
from siege.games.castle_assault import actions as a
from siege.games.castle_assault.engine import CastleAssault
from siege.games.castle_assault.presentation import PRESENTATION
from siege.games.castle_assault.presentation_scene import (
    card_id,
    castle_id,
    hero_id,
    momentum_id,
    square_id,
)

ENGINE = CastleAssault()
NAMES = ["Red", "Blue"]
YOURS = ["Soot", "Soot", "Drake", "Dracomancer", "Ranged Blessing", "Drake"]
PETES = ["Bronzebeard Bulwark", "Ironborne Dwarf", "Forge Master", "Bitterbrew Batterers",
         "Dwarf Lord Grim'gor", "Ironborne Dwarf"]


def scene_of(table, seat: int) -> Scene:
    view = ENGINE.view(table.state, seat)
    return PRESENTATION.scene(view, NAMES, None if seat == SPECTATOR else seat)


def zone(scene: Scene, title: str) -> Zone:
    def find(zones: tuple[Zone, ...]) -> Zone | None:
        for z in zones:
            if z.title == title:
                return z
            inner = find(z.zones)
            if inner is not None:
                return inner
        return None
    found = find(scene.zones)
    assert found is not None, title
    return found


def by_id(scene: Scene) -> dict[str, object]:
    return {p.id: p for p in pieces(scene) if p.id}


def every_word(scene: Scene) -> str:
    return " ".join([*scene.status, *(w for p in pieces(scene)
                                      for w in (p.label, *p.lines, p.note))])


def test_the_battlefield_is_three_lanes_of_ten_rows_seat_one_on_top() -> None:
    table = start(YOURS, PETES)
    table.start_turn(4)
    scene = scene_of(table, YOU)
    field = zone(scene, "Battlefield")
    assert field.layout == "grid" and field.columns == 3 and len(field.pieces) == 30
    assert [p.label for p in field.pieces[:3]] == [
        "left lane, row 9", "centre lane, row 9", "right lane, row 9"]
    assert field.pieces[-1].label == "right lane, row 0"
    # Blue's end of the table above the battlefield, yours below it, each in its colour.
    titles = [z.title for z in scene.zones]
    assert titles.index("Blue: Dwarves") < titles.index("Battlefield") < titles.index(
        "You: Dragons")
    assert zone(scene, "Blue: Dwarves").seat == PETE and zone(scene, "You: Dragons").seat == YOU
    assert field.pieces[0].lines == ("Blue's castle area",)
    assert field.pieces[-1].lines == ("your castle area",)


def test_units_stand_on_their_square_in_their_owners_colour() -> None:
    table = start(YOURS, PETES)
    table.start_turn(4)
    put(table, PETE, "Forge Master", 2, 6)
    table.resource(YOU, "Soot")
    table.play(YOU, "Dracomancer", 1)
    pieces_ = by_id(scene_of(table, PETE))
    draco, forge = pieces_[square_id(1, 0)], pieces_[square_id(2, 6)]
    assert draco.kind == "unit" and draco.seat == YOU
    assert draco.lines[:2] == ("Red's Dracomancer", "Attack 2, Armor 0, Health 1")
    assert forge.seat == PETE and forge.lines[0] == "your Forge Master"
    assert pieces_[square_id(0, 5)].kind == "place" and pieces_[square_id(0, 5)].seat == -1


def test_only_the_seats_own_hand_is_face_up() -> None:
    table = start(YOURS, PETES)
    table.start_turn(4)
    table.resource(YOU, "Soot")
    mine = scene_of(table, YOU)
    hand = zone(mine, "Your hand")
    assert sorted(p.label for p in hand.pieces) == table.hand_names(YOU)
    assert {p.kind for p in hand.pieces} == {"card"} and len(hand.pieces) == 5
    theirs = zone(mine, "Blue's hand")
    assert [(p.kind, p.label, p.lines) for p in theirs.pieces] == [
        ("back", "card back", ("5 cards",))]
    for seat in (PETE, SPECTATOR):
        seen = every_word(scene_of(table, seat))
        assert "Soot" not in seen and "Ranged Blessing" not in seen
    assert "Soot" in every_word(mine)  # your own face-down resource, named to you


def test_the_momentum_meter_is_a_track_with_its_marker_here() -> None:
    table = start(YOURS, PETES)
    table.start_turn(4)
    track = zone(scene_of(table, SPECTATOR), "Momentum Meter")
    assert track.layout == "track" and len(track.pieces) == 9
    assert [p.label for p in track.pieces if p.kind == "here"] == ["Max for Red"]
    assert track.pieces[0].label == "Max for Blue" and track.pieces[4].label == "START"


def test_clicks_pick_the_card_the_square_the_step_and_the_castle() -> None:
    table = start(YOURS, PETES)
    table.start_turn(4)
    view = ENGINE.view(table.state, YOU)
    soot = table.instance(YOU, "Soot")
    assert PRESENTATION.target(a.PlaceResource(card=soot), view) == card_id(soot)
    draco = table.instance(YOU, "Dracomancer")
    assert PRESENTATION.target(a.PlayUnit(card=draco, lane=0), view) == card_id(draco)
    assert PRESENTATION.group(a.PlayUnit(card=draco, lane=0), view, NAMES) == "Dracomancer"
    assert PRESENTATION.target(a.ShiftMomentum(toward=PETE), view) == momentum_id(2)
    assert PRESENTATION.target(a.SummonHero(lane=0), view) == hero_id(YOU)
    assert PRESENTATION.target(a.END_TURN, view) == ""
    drake = put(table, YOU, "Drake", 0, 3)
    view = ENGINE.view(table.state, YOU)
    assert PRESENTATION.target(a.Charge(unit=drake.uid), view) == square_id(0, 3)
    assert PRESENTATION.group(a.Charge(unit=drake.uid), view, NAMES) == (
        "your Drake (left lane, row 3)")
    shot = a.UseAbility(unit=drake.uid, target=a.CASTLE_TARGET)
    assert PRESENTATION.target(shot, view) == castle_id(PETE)
    assert by_id(scene_of(table, YOU))[castle_id(PETE)].label == "Blue's castle"


def test_the_match_presentation_keeps_the_board() -> None:
    bound = PRESENTATION.bound(created())
    assert bound.scene is PRESENTATION.scene
    assert bound.target is PRESENTATION.target and bound.group is PRESENTATION.group
    assert bound.events is not PRESENTATION.events
