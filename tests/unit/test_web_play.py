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
