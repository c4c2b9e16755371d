"""The play pages' plain parts: a new match's terms from the form, and person ids."""

from __future__ import annotations

import pytest

from siegeworks.web.play import checked_new, is_person_id, new_person_id


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
