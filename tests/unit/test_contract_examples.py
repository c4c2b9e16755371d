"""The worked examples in docs/contract/examples/ decode, and their answers are legal."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from siege.contracts.messages import SeatPrompted, SubmitAction, bus_decoder
from siege.engine.codecs import action_decoder, view_type
from siege.engine.registry import game_names, get_engine
from siege.hosting.examples import EXAMPLE_SECRET, example_position
from siege.hosting.seats import check_token

FOLDER = Path(__file__).resolve().parents[2] / "docs" / "contract" / "examples"


@pytest.mark.parametrize("game", game_names())
def test_the_example_decodes_and_its_answer_is_legal(game: str) -> None:
    published = json.loads((FOLDER / f"{game}.json").read_text())
    prompt = bus_decoder.decode(bytes.fromhex(published["prompt_msgpack"]))
    answer = bus_decoder.decode(bytes.fromhex(published["answer_msgpack"]))
    assert isinstance(prompt, SeatPrompted) and isinstance(answer, SubmitAction)
    assert (answer.match_id, answer.seat, answer.decision) == (
        prompt.match_id, prompt.seat, prompt.decision)
    assert answer.action in [bytes(item) for item in prompt.legal]
    assert check_token(EXAMPLE_SECRET, answer.match_id, answer.seat, answer.token)
    # The JSON shows the same message as the bytes.
    assert published["answer_action"] == msgspec.msgpack.decode(answer.action)
    assert published["prompt"]["view"] == msgspec.msgpack.decode(prompt.view)
    # And it is a position the game reaches, where that action is legal.
    engine = get_engine(game)
    state, seat, decision, _ = example_position(game)
    assert (seat, decision) == (prompt.seat, prompt.decision)
    msgspec.msgpack.decode(prompt.view, type=view_type(game))
    assert action_decoder(game).decode(answer.action) in engine.legal_actions(state, seat)
    assert len(prompt.legal) >= 2
