"""A worked example per game for client authors: one prompt and the answer to it.

Each example is taken from a seeded playout of random bots (so it is always a position the game
really reaches): the first decision with a real choice (two legal actions or more). It is
published as ``docs/contract/examples/<game>.json``: the ``SeatPrompted`` a seat receives and
the ``SubmitAction`` that answers it, each as JSON (bin values in hex, embedded views and
actions as maps) and as the exact msgpack bytes of the stream field ``m`` (hex).
"""

from __future__ import annotations

from typing import Any

import msgspec

from siege.contracts.messages import SeatPrompted, SubmitAction, bus_encoder
from siege.engine.registry import game_names, get_engine
from siege.hosting.seats import seat_token
from siege.testing.playout import seeded_playout

EXAMPLE_SECRET = b"an example secret, not a real one"
EXAMPLE_CLIENT = "alice"
EXAMPLE_DEADLINE_MS = 1_767_225_600_000  # 2026-01-01 00:00 UTC: any time on Redis' clock
EXAMPLE_TIMEOUT_MS = 60_000
_encoder = msgspec.msgpack.Encoder()


class _Stop(Exception):  # noqa: N818 - control flow: the playout has reached its example
    pass


def example_position(game: str, seed: int = 1) -> tuple[Any, int, int, Any]:
    """The example's state, seat, decision and chosen action: the first real choice of a
    seeded random playout at the game's smallest table."""
    engine = get_engine(game)
    found: list[tuple[Any, int, int, Any]] = []

    def on_action(state: Any, seat: int, action: Any) -> None:
        if len(engine.legal_actions(state, seat)) >= 2:
            found.append((state, seat, engine.pending(state).decision, action))
            raise _Stop

    try:
        seeded_playout(engine, ["random"] * max(2, engine.min_players), seed, on_action=on_action)
    except _Stop:
        return found[0]
    raise ValueError(f"{game}: a random playout never had a choice of two actions")


def example_messages(game: str) -> tuple[SeatPrompted, SubmitAction]:
    engine = get_engine(game)
    state, seat, decision, action = example_position(game)
    match_id = f"example-{game}"
    prompt = SeatPrompted(
        match_id=match_id, seat=seat, decision=decision,
        view=msgspec.Raw(_encoder.encode(engine.view(state, seat))),
        legal=[msgspec.Raw(_encoder.encode(a)) for a in engine.legal_actions(state, seat)],
        deadline_ms=EXAMPLE_DEADLINE_MS, timeout_ms=EXAMPLE_TIMEOUT_MS)
    answer = SubmitAction(
        match_id=match_id, seat=seat, decision=decision, command_id=f"{match_id}:{decision}",
        action=_encoder.encode(action), token=seat_token(EXAMPLE_SECRET, match_id, seat),
        client=EXAMPLE_CLIENT)
    return prompt, answer


def _as_json(message: Any) -> Any:
    """A message as its msgpack reads: embedded maps decoded, bin values in hex."""
    decoded = msgspec.msgpack.decode(bus_encoder.encode(message))
    return _hex_bins(decoded)


def _hex_bins(node: Any) -> Any:
    if isinstance(node, bytes):
        return {"bin (hex)": node.hex()}
    if isinstance(node, dict):
        return {k: _hex_bins(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_hex_bins(v) for v in node]
    return node


def example(game: str) -> dict[str, Any]:
    prompt, answer = example_messages(game)
    return {
        "game": game,
        "about": "A seat's prompt (on its seat stream) and the SubmitAction that answers it (on "
                 "the client's commands stream). `msgpack` is the exact value of the entry's "
                 "field `m`, in hex; the token is made with an example secret, so it is valid "
                 "on no server. The answer's `action` is one of the prompt's `legal` items.",
        "prompt": _as_json(prompt),
        "prompt_msgpack": bus_encoder.encode(prompt).hex(),
        "answer": _as_json(answer),
        "answer_action": msgspec.msgpack.decode(answer.action),
        "answer_msgpack": bus_encoder.encode(answer).hex(),
    }


def example_files() -> dict[str, bytes]:
    """``examples/<game>.json`` for every hosted game, as the contract folder holds them."""
    return {f"examples/{game}.json":
            msgspec.json.format(msgspec.json.encode(example(game)), indent=2) + b"\n"
            for game in game_names()}
