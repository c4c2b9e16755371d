"""The play pages' plain parts: a new match's terms from the form, its clock, the name typed,
person ids, choices under headings, the end in words, and what changed on the board."""

from __future__ import annotations

import pytest

from siege.contracts.messages import MatchFinished
from siege.engine.scene import Piece, Scene, Zone
from siegeworks.web.app import clock_words, display_name, play_choices
from siegeworks.web.play import (
    CLOCKS,
    DEFAULT_CLOCK,
    DEFAULT_NAME,
    Choice,
    Table,
    Turn,
    checked_clock,
    checked_new,
    is_person_id,
    new_person_id,
)


def test_a_new_match_takes_the_games_own_terms() -> None:
    assert checked_new("castle-dash", "4", "1", "greedy") == ("castle-dash", ["greedy"] * 2, 1)
    assert checked_new("storm-the-castle", "1", "", "random") == ("storm-the-castle", [], 0)


@pytest.mark.parametrize(("fields", "said"), [
    (("chess", "2", "0", "random"), "choose a game"),
    (("castle-dash", "2", "0", "random"), "castle-dash takes 3 to 6 players"),
    (("castle-dash", "three", "0", "random"), "are numbers"),
    (("castle-dash", "3", "3", "random"), "seats for other people: 0 to 2"),
    (("castle-dash", "3", "-1", "random"), "seats for other people: 0 to 2"),
    (("castellum", "2", "0", "clever"), "castellum's bots are greedy, random"),
])
def test_a_bad_form_is_told_what_is_wrong(fields: tuple[str, str, str, str], said: str) -> None:
    with pytest.raises(ValueError, match=said):
        checked_new(*fields)


def test_person_ids_are_the_gateways_own() -> None:
    made = {new_person_id() for _ in range(100)}
    assert len(made) == 100 and all(is_person_id(p) for p in made)
    for other in ("alice", "web.", "web.bots-0123456789", "web.0123456789ABCDEF",
                  "web.0123456789abcdef0", "xweb.0123456789abcdef"):
        assert not is_person_id(other)


def test_a_page_looked_at_costs_the_gateway_nothing(redis_url: str) -> None:
    """A browser without the cookie gets an id, but only one that asks for something (a
    match, a seat, a tournament) is remembered: a crawler cannot fill the gateway's memory."""
    import asyncio

    from redis.asyncio import Redis
    from starlette.requests import Request

    from siegeworks.web.app import Gateway

    async def scenario() -> None:
        redis = Redis.from_url(redis_url)
        try:
            gateway = Gateway(redis)
            fresh = Request({"type": "http", "headers": []})
            for _ in range(3):
                person, new = await gateway._person(fresh)
                assert new and gateway.people.find(person.client) is None
            kept, new = await gateway._person(fresh, keep=True)
            assert new and gateway.people.find(kept.client) is kept
            cookie = f"siege_person={kept.client}".encode()
            back, new = await gateway._person(
                Request({"type": "http", "headers": [(b"cookie", cookie)]}))
            assert back is kept and not new
        finally:
            await redis.aclose()

    asyncio.run(scenario())


def test_made_up_cookies_cost_a_bounded_memory(redis_url: str) -> None:
    """A cookie of the right shape the gateway never gave (a guess) runs nothing and finds
    nothing; past the limit, people with nothing in play are forgotten."""
    import asyncio

    from redis.asyncio import Redis
    from starlette.requests import Request

    from siegeworks.web.app import Gateway

    async def scenario() -> None:
        redis = Redis.from_url(redis_url)
        try:
            gateway = Gateway(redis)
            gateway.people.LIMIT = 5
            for n in range(12):
                made_up = f"web.{n:016x}"
                cookie = f"siege_person={made_up}".encode()
                person, new = await gateway._person(
                    Request({"type": "http", "headers": [(b"cookie", cookie)]}), keep=True)
                assert not new and person.client == made_up
                assert not person.tables and not person.kept  # nothing of anyone's
                assert len(gateway.people._people) <= 5
        finally:
            await redis.aclose()

    asyncio.run(scenario())


def test_a_clock_is_chosen_by_name_and_a_day_is_the_casual_default() -> None:
    assert checked_clock(DEFAULT_CLOCK) == 86_400_000 == CLOCKS["casual"]
    assert checked_clock("blitz") == 30_000
    with pytest.raises(ValueError, match="choose a clock: casual, relaxed, brisk, blitz"):
        checked_clock("forever")
    assert [clock_words(ms) for ms in (86_400_000, 600_000, 120_000, 30_000, 1_500)] == [
        "a day", "10 minutes", "2 minutes", "30 seconds", "1500 ms"]


def test_a_typed_name_is_trimmed_and_a_guest_is_never_you() -> None:
    assert display_name({"name": "  Ada   Lovelace "}) == "Ada Lovelace"
    assert display_name({"name": "x" * 40}) == "x" * 32
    assert display_name({}) == display_name({"name": "   "}) == DEFAULT_NAME != "you"


def test_the_usual_player_count_is_in_each_games_range() -> None:
    for game, low, high, usual in play_choices():
        assert low <= usual <= high, game
        assert usual >= 2 or high == 1
    assert ("castle-dash", 3, 6, 3) in play_choices()


def _choices(groups: list[str]) -> list[Choice]:
    return [Choice(f"action {i}", "", group) for i, group in enumerate(groups)]


def test_many_choices_are_listed_under_their_headings_in_order_few_are_one_list() -> None:
    few = Turn(1, _choices(["a", "b", "a"]), 0)
    assert [(h, [i for i, _ in c]) for h, c in few.groups] == [("", [0, 1, 2])]
    many = Turn(1, _choices(["Archers", "Knight", "Archers", "", "Knight"] * 2), 0)
    assert [(h, [i for i, _ in c]) for h, c in many.groups] == [
        ("Archers", [0, 2, 5, 7]), ("Knight", [1, 4, 6, 9]), ("", [3, 8])]
    plain = Turn(1, _choices([""] * 12), 0)
    assert len(plain.groups) == 1


def _ended(reason: str, ranks: list[int], **more: list[int]) -> Table:
    table = Table("m-1", "castle-dash", 1, names=["Ada", "Bob", "Cy"])
    table.result = MatchFinished(match_id="m-1", game="castle-dash",
                                 seat_names=["Ada", "Bob", "Cy"], ranks=ranks, reason=reason,
                                 **more)
    return table


def test_the_end_says_why_in_words_and_ranks_every_seat_from_the_seats_side() -> None:
    assert _ended("forfeit", [1, 3, 1], timed_out=[1]).ending == (
        "you ran out of time: a forfeit")
    assert _ended("forfeit", [3, 1, 3], timed_out=[0, 2]).ending == (
        "Ada and Cy ran out of time: a forfeit")
    assert _ended("resigned", [3, 1, 1], resigned=[0]).ending == "Ada resigned"
    table = _ended("finished", [2, 1, 3])
    assert table.ending == "the game ended"
    assert table.standing == [(1, "Bob", True), (2, "Ada", False), (3, "Cy", False)]


def test_the_board_marks_what_changed_since_the_one_before() -> None:
    table = Table("m-1", "castle-dash", 0)
    before = Scene(zones=(Zone(pieces=(Piece(label="north wall", id="w"),
                                       Piece(label="keep", id="k"))),))
    table.show(before)
    assert table.moved == set()
    after = Scene(zones=(Zone(pieces=(Piece(label="north wall", id="w", lines=("Orc",)),
                                      Piece(label="keep", id="k"),
                                      Piece(label="gold 3"))),))
    table.show(after)
    assert table.moved == {"w", "gold 3"}
