"""Spectators: a match's public stream (``MatchWatched`` on ``watch_key``), written only while
someone watches it.

A watcher asks with ``WatchMatch`` and renews every 20 s or so; the lease lasts 60 s, so a
match nobody watches costs nothing (no write, no read, no words), and the hot path pays a dict
lookup. While watched, every change the rules service sees (its own appends and the others'
it is told of) is told in words, through the game's presentation as a spectator hears it, with
the board as everyone sees it (``view(state, SPECTATOR)``): never a seat's secret.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from siege.contracts.messages import MatchWatched, Said, WatchMatch
from siege.contracts.rejections import RejectionCode
from siege.engine.protocol import SPECTATOR
from siege.engine.registry import presentation
from siege.eventlog.keys import watch_key
from siege.hosting.lobby import Refusal
from siege.hosting.match_state import MatchState
from siege.hosting.narration import Narrator
from siegeworks.context import ServiceContext
from siegeworks.match.notices import refuse

WATCH_LEASE_MS = 60_000
SNAPSHOT_LINES = 100
WATCH_STREAM_TTL_S = 3600  # the public stream of a finished match stays an hour

_encoder = msgspec.msgpack.Encoder()


@dataclass
class Watch:
    until_ms: int  # the lease: nobody renewed it by then, nobody is watching
    seq: int  # the last seq told
    narrator: Narrator


def _names(ms: MatchState) -> list[str]:
    assert ms.created is not None
    return ms.created.seat_names or [f"seat {s}" for s in range(ms.created.players)]


async def on_watch(ctx: ServiceContext, cmd: WatchMatch) -> None:
    ms = await ctx.loader.load(cmd.match_id)
    if ms.created is None or ms.engine is None:
        ctx.loader.forget(cmd.match_id)
        await refuse(ctx, cmd.client, "cmd.watch_match", cmd.match_id,
                     Refusal(RejectionCode.UNKNOWN_MATCH, "no match of that id"))
        return
    watch = ctx.watchers.get(cmd.match_id)
    until = ctx.clock.now_ms() + WATCH_LEASE_MS
    if watch is not None and not cmd.snapshot:
        watch.until_ms = until  # a renewal: the stream goes on as it was
        return
    narrator = Narrator(presentation(ms.created.game), _names(ms))
    said = await _said(ctx, ms, narrator, after=0)
    await _publish(ctx, ms, said[-SNAPSHOT_LINES:], snapshot=True)
    if ms.ended is None:
        ctx.watchers[cmd.match_id] = Watch(until, ms.head_seq, narrator)


async def tell(ctx: ServiceContext, ms: MatchState) -> None:
    """What changed in a watched match since it was last told; nothing for any other."""
    watch = ctx.watchers.get(ms.match_id)
    if watch is None or ms.head_seq <= watch.seq:
        return
    if ctx.clock.now_ms() > watch.until_ms:
        del ctx.watchers[ms.match_id]  # the lease ran out: nobody is watching
        return
    said = await _said(ctx, ms, watch.narrator, after=watch.seq)
    watch.seq = ms.head_seq
    await _publish(ctx, ms, said, snapshot=False)
    if ms.ended is not None:
        del ctx.watchers[ms.match_id]
        await ctx.bus.retire(watch_key(ms.match_id), WATCH_STREAM_TTL_S)


async def _said(ctx: ServiceContext, ms: MatchState, narrator: Narrator,
                after: int) -> list[Said]:
    assert ms.codec is not None
    said = []
    for seq, stored, _ in await ctx.log.read(ms.match_id, after_seq=after):
        if seq > ms.head_seq:
            break  # appended since this state was folded: told next time, with its board
        text = narrator.line(seq, ms.codec.decode(stored).event)
        if text is not None:
            said.append(Said(seq=seq, text=text))
    return said


async def _publish(ctx: ServiceContext, ms: MatchState, said: list[Said],
                   snapshot: bool) -> None:
    assert ms.engine is not None and ms.created is not None
    view = msgspec.Raw(_encoder.encode(ms.engine.view(ms.game, SPECTATOR)))
    await ctx.bus.publish(watch_key(ms.match_id), MatchWatched(
        match_id=ms.match_id, game=ms.created.game, seat_names=_names(ms), seq=ms.head_seq,
        snapshot=snapshot, lines=said, view=view, over=ms.ended is not None))
