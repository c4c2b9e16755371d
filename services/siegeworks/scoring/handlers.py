"""Scoring service: results projected from finished match logs; rebuildable from zero."""

from __future__ import annotations

from dataclasses import dataclass, field

from siege.contracts.messages import LogAppended, MatchFinished
from siegeworks.bus import RESULTS
from siegeworks.context import ServiceContext


@dataclass
class ResultsProjection:
    finished: dict[str, MatchFinished] = field(default_factory=dict)

    def record(self, result: MatchFinished) -> bool:
        """Idempotent: a second delivery of the same end changes nothing."""
        if result.match_id in self.finished:
            return False
        self.finished[result.match_id] = result
        return True


async def on_log_appended(
    ctx: ServiceContext, results: ResultsProjection, note: LogAppended
) -> None:
    if note.match_id in results.finished:
        return
    ms = await ctx.loader.load(note.match_id)
    if ms.ended is None or ms.revealed is None or ms.created is None:
        return
    result = MatchFinished(match_id=ms.match_id, game=ms.created.game,
                           seat_names=list(ms.created.seat_names), ranks=list(ms.ended.ranks))
    if results.record(result):
        ctx.loader.forget(ms.match_id)  # a finished match needs no cached state here
        await ctx.bus.publish(RESULTS, result)
