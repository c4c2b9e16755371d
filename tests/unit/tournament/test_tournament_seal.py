"""A finished tournament's stream is sealed once, dated as its last entry; a rewritten result,
with the chain recomputed, breaks the seal (``siege audit <tournament id>``)."""

from __future__ import annotations

import asyncio

import msgspec

from siege.contracts.envelope import seal
from siege.contracts.events import MatchSealed
from siege.eventlog.log import MemoryEventLog
from siege.hosting.bulk import tournament_verdict
from siege.hosting.clock import FixedClock
from siege.hosting.signing import new_key, record_of
from siege.tournament.events import (
    EntrantRegistered,
    MatchRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentFinished,
)
from siege.tournament.store import CODEC, TournamentStore, seal_finished

TID = "t-0123456789ab"


def test_a_finished_tournament_is_sealed_once_and_a_rewritten_result_breaks_the_seal() -> None:
    async def scenario() -> tuple[list, list, bool, bool]:
        log = MemoryEventLog()
        store = TournamentStore(log, FixedClock(1_790_000_000_000))
        events = [
            TournamentCreated(tournament_id=TID, game="castle-dash", format="swiss", rounds=1,
                              table_size=3, seed=0),
            *[EntrantRegistered(entrant=e, bot="random") for e in "abc"],
            RoundPaired(round=1, tables=[["a", "b", "c"]], byes=[]),
            MatchRecorded(round=1, match_id=f"{TID}-r01-t0000", entrants=["a", "b", "c"],
                          ranks=[1, 2, 3], head="00" * 32),
        ]
        await store.append_owed(TID, lambda s: events)
        key = new_key()
        early = await seal_finished(log, TID, key)  # not finished yet: nothing to seal
        await store.append_owed(TID, lambda s: [TournamentFinished()])
        first = await seal_finished(log, TID, key)
        again = await seal_finished(log, TID, key)
        assert not early and first and not again
        entries = await log.read(TID)
        return entries, [record_of(key, 0)], first, again

    entries, records, _, _ = asyncio.run(scenario())
    keyring = {r.key: r for r in records}
    envs = [CODEC.decode(stored) for _, stored, _ in entries]
    assert isinstance(envs[-1].event, MatchSealed) and envs[-1].at == envs[-2].at
    assert tournament_verdict(TID, entries, keyring, False).seal == "verified"

    # The forger gives the result to someone else and recomputes the chain.
    edited = [msgspec.structs.replace(e.event, ranks=[3, 2, 1])
              if isinstance(e.event, MatchRecorded) else e.event for e in envs]
    forged = seal(CODEC, TID, 0, bytes(32), edited, envs[0].at)
    verdict = tournament_verdict(TID, forged, keyring, False)
    assert not verdict.ok and "does not match the log" in verdict.reason
    # Without the seal, a finished tournament is refused unless unsigned streams are allowed.
    assert not tournament_verdict(TID, forged[:-1], keyring, False).ok
    assert tournament_verdict(TID, forged[:-1], keyring, True).ok
