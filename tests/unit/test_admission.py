"""Who a command is from, and how much a client may ask for (siegeworks.ingress, quotas)."""

from __future__ import annotations

import pytest

from siege.contracts.messages import CreateMatch, JoinMatch, SubmitAction
from siege.contracts.rejections import RejectionCode
from siege.eventlog.keys import client_of_commands_key, client_shard, commands_key, inbox_key
from siege.hosting.lobby import Refusal
from siegeworks import quotas
from siegeworks.ingress import Admission, attribute


def test_a_command_is_its_streams_owners() -> None:
    join = attribute(JoinMatch(match_id="m"), "ann")
    assert isinstance(join, JoinMatch) and join.client == "ann"
    own = attribute(SubmitAction(match_id="m", seat=0, decision=1, command_id="c",
                                 action=b"", client="ann"), "ann")
    assert isinstance(own, SubmitAction) and own.client == "ann"
    forged = attribute(CreateMatch(match_id="m", game="g", seat_names=["a"], client="bob"),
                       "ann")
    assert isinstance(forged, Refusal) and forged.code == RejectionCode.BAD_CLIENT


@pytest.mark.parametrize("client", ["ann", "a.b-c_9", "x" * 64])
def test_the_commands_key_names_its_client(client: str) -> None:
    assert client_of_commands_key(commands_key(client)) == client


@pytest.mark.parametrize("key", [
    "siege:commands", inbox_key("ann"), "siege:client:{s1}:a b:commands",
    "siege:client:{s1}::commands", "siege:client:{ann}:commands",
    # ann's stream under another shard's tag: nobody's (ann's shard is 3)
    commands_key("ann").replace(f"{{s{client_shard('ann')}}}", "{s4}")])
def test_other_keys_name_no_client(key: str) -> None:
    assert client_of_commands_key(key) is None


def test_a_bucket_allows_its_burst_then_its_rate() -> None:
    q = quotas.Quotas({"k": quotas.Rate(per_s=2, burst=3)})
    assert [q.allow("ann", "k", 0.0) for _ in range(4)] == [True, True, True, False]
    assert q.allow("bob", "k", 0.0)  # every client has a bucket of its own
    assert q.allow("ann", "k", 0.5) and not q.allow("ann", "k", 0.5)  # one more per 0.5 s
    q.forget_idle(100.0)
    assert q._buckets == {}  # full again: nothing to remember


def test_a_client_past_its_refusals_rests() -> None:
    admission = Admission({**quotas.default_rates(), quotas.REFUSALS: quotas.Rate(1, 2)})
    stream = commands_key("ann")
    admission.note_refused("ann")
    admission.note_refused("ann")
    assert not admission.skips(stream)
    admission.note_refused("ann")  # the third in no time: over a burst of 2
    assert admission.skips(stream) and not admission.skips(commands_key("bob"))
    assert not admission.skips("{s0}:bus:rules")  # only clients' streams ever rest
