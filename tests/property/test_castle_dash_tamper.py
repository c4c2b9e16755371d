"""Forged Castle Dash logs with a valid hash chain: the dice and legality checks catch them."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from siege.contracts.envelope import seal
from siege.contracts.events import ActionAccepted, DiceRolled, MatchEnded, SeatTimedOut
from siege.eventlog.log import MemoryEventLog
from siege.games.castle_dash.actions import PlaceSoldiers
from siege.games.castle_dash.events import SoldiersPlaced
from siege.hosting.audit import audit
from siege.hosting.match_state import codec_for
from siegeworks.runner import RunConfig, play_matches

CODEC = codec_for("castle-dash")


@pytest.fixture(scope="module")
def envelopes() -> list:
    async def play() -> list:
        log = MemoryEventLog()
        cfg = RunConfig(game="castle-dash", matches=1, players=4, bots=["greedy", "random"],
                        seed=21, fixed_clock_ms=0)
        result = await play_matches(cfg, log)
        return [CODEC.decode(stored) for _, stored, _ in await log.read(result.match_ids[0])]

    return asyncio.run(play())


def forged(envs: list) -> list[tuple[int, bytes, bytes]]:
    first = envs[0]
    return seal(CODEC, first.match_id, 0, bytes(32), [e.event for e in envs], first.at)


def edit(envs: list, seq: int, **changes: object) -> list:
    out = list(envs)
    out[seq - 1] = msgspec.structs.replace(
        envs[seq - 1], event=msgspec.structs.replace(envs[seq - 1].event, **changes))
    return out


def test_the_forger_alone_changes_nothing(envelopes: list) -> None:
    assert audit(forged(envelopes)).ok


def test_every_changed_die_is_caught(envelopes: list) -> None:
    rolls = [e for e in envelopes if isinstance(e.event, DiceRolled)]
    assert rolls
    for env in rolls:
        values = list(env.event.values)
        values[0] = values[0] % 4 + 1 if values[0] != 4 else 1  # stays a legal face of a d4
        report = audit(forged(edit(envelopes, env.seq, values=values)))
        assert report.failure is not None and report.failure.seq == env.seq, report.line()
        assert "seed" in report.failure.reason


def test_an_illegal_placement_is_caught_at_its_action(envelopes: list) -> None:
    enc = msgspec.msgpack.Encoder()
    dec = msgspec.msgpack.Decoder(PlaceSoldiers)
    env = next(e for e in envelopes if isinstance(e.event, ActionAccepted)
               and bytes(e.event.action).find(b"cd.place_soldiers") >= 0)
    action = dec.decode(bytes(env.event.action))
    illegal = msgspec.structs.replace(action, count=7)  # more than six at once
    envs = edit(envelopes, env.seq, action=msgspec.Raw(enc.encode(illegal)))
    placed = envs[env.seq].event
    assert isinstance(placed, SoldiersPlaced)
    envs = edit(envs, env.seq + 1, count=7)
    report = audit(forged(envs))
    assert report.failure is not None and report.failure.seq == env.seq, report.line()
    assert "illegal" in report.failure.reason


def test_a_changed_result_is_caught(envelopes: list) -> None:
    env = next(e for e in envelopes if isinstance(e.event, MatchEnded))
    ranks = [1] * len(env.event.ranks)  # everybody wins
    report = audit(forged(edit(envelopes, env.seq, ranks=ranks)))
    assert report.failure is not None and report.failure.seq == env.seq


def test_a_game_event_without_its_action_is_caught(envelopes: list) -> None:
    env = next(e for e in envelopes if isinstance(e.event, SoldiersPlaced))
    envs = [e for e in envelopes if e.seq != env.seq - 1]  # drop its ActionAccepted
    report = audit(forged(envs))
    assert report.failure is not None and report.failure.seq == env.seq - 1


def test_a_forged_timeout_is_caught(envelopes: list) -> None:
    # Seat 0 is said to have timed out on a decision it was never asked (decision 10**6).
    at = next(e.seq for e in envelopes if isinstance(e.event, ActionAccepted))
    forged_event = msgspec.structs.replace(
        envelopes[at - 1], event=SeatTimedOut(seat=0, decision=10**6))
    envs = envelopes[: at - 1] + [forged_event] + envelopes[at - 1:]
    report = audit(forged(envs))
    assert report.failure is not None and report.failure.seq == at
    assert "was not being asked" in report.failure.reason
