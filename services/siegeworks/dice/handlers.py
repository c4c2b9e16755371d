"""Dice service: the only source of randomness; it never knows which game it serves."""

from __future__ import annotations

from functools import partial

from siege.contracts.events import SeedCommitted
from siege.contracts.messages import LogAppended
from siege.dice import fair
from siege.eventlog.keys import seed_key
from siege.hosting.chance import owed_by_dice
from siege.hosting.match_state import MatchState
from siege.hosting.signing import seal_owed
from siege.tournament.state import is_tournament
from siege.tournament.store import seal_finished
from siegeworks.bus import LOG
from siegeworks.context import ServiceContext


class SeedVault:
    """Seeds of matches: new ones drawn (or derived from a master seed for reproducible runs),
    committed ones read back from the restricted key the commit wrote."""

    def __init__(self, master: bytes | None = None) -> None:
        self.master = master
        self._known: dict[str, bytes] = {}

    def forget(self) -> None:
        """Drops the seeds read back: after the store went back, a match may commit anew."""
        self._known.clear()

    async def seed_for(self, ctx: ServiceContext, ms: MatchState) -> bytes:
        if ms.commitment is None:
            if self.master is not None:
                return fair.derive_seed(self.master, ms.match_id)
            return fair.new_seed()
        seed = self._known.get(ms.match_id)
        if seed is None:
            seed = await ctx.log.get_side(seed_key(ms.match_id))
            if seed is None:
                raise LookupError(f"{ms.match_id}: seed committed but its key is missing")
            self._known[ms.match_id] = seed
        return seed


async def on_log_appended(ctx: ServiceContext, vault: SeedVault, note: LogAppended) -> None:
    if is_tournament(note.match_id):  # a tournament's end: seal its stream
        if ctx.signing_key is not None:
            await seal_finished(ctx.log, note.match_id, ctx.signing_key())
        return
    for attempt in range(8):
        # A pointer comes only when dice owes something: finding nothing, look again at the
        # log's head too (a cache ahead of a log that went back finds nothing for ever). At
        # first a cache that reached the pointer (its copy taken: MatchLoader.jump) is enough.
        ms = await ctx.loader.load(note.match_id, verify=attempt > 0,
                                   min_seq=note.last if attempt == 0 else None)
        seed = await vault.seed_for(ctx, ms)
        # The key (a file's stat) only for an end: every chance answer came here before.
        signer = (ctx.signing_key() if ctx.signing_key is not None and ms.ended is not None
                  else None)
        event = owed_by_dice(ms, seed)
        if event is None and signer is not None:
            event = seal_owed(ms, signer)  # a log revealed before it could be sealed
        if event is None and attempt == 0:
            continue
        if event is None:
            return
        committing = isinstance(event, SeedCommitted)
        side = (seed_key(ms.match_id), seed) if committing else None
        # The reveal and the seal go in one append: no log is ever revealed and unsealed.
        follow_up = partial(seal_owed, private=signer) if signer is not None else None
        before = ms.head_seq
        if await ctx.loader.append(ms, [event], side, follow_up=follow_up):
            await ctx.bus.publish(LOG, LogAppended(
                match_id=ms.match_id, first=before + 1, last=ms.head_seq))
            return
