"""``siege damage``: an operator marks a match that cannot finish (events lost, a chance request
nobody answers) as damaged. ``MatchDamaged`` goes on the match's log with the usual
compare-and-set append; the services treat it as an end (no more prompts or clocks, the dice
service reveals its seed, scoring records the match as damaged) and ``siege audit`` reports it.
"""

from __future__ import annotations

from typing import Annotated

import typer

from siege.contracts.events import MatchDamaged
from siege.hosting.clock import SystemClock
from siege.hosting.loader import MatchLoader
from siege.hosting.match_state import MatchState
from siege.tournament.state import is_tournament
from siegeworks.cli.app import app
from siegeworks.cli.common import fail, out, run_async
from siegeworks.redis_target import open_log

MAX_REASON = 500

OperatorUrl = Annotated[str | None, typer.Option(
    "--redis-url", envvar="REDIS_URL", show_default=False,
    help="The services' Redis, as a user allowed to append to match logs, "
    "e.g. redis://operator:PASSWORD@HOST:6379/0.")]


def damage_refused(ms: MatchState) -> str | None:
    """Why ``ms`` may not be marked damaged now, or None."""
    if ms.created is None:
        return "no such match"
    if ms.damaged is not None:
        return f"it is damaged already ({ms.damaged.reason})"
    if ms.ended is not None:
        return f"it has ended ({ms.ended.reason}); an ended match keeps its result"
    if ms.commitment is None:
        return ("the dice service has not committed its seed yet; wait for it (a match is "
                "marked damaged only once it has started)")
    return None


@app.command()
def damage(
    match_id: Annotated[str, typer.Argument(help="The match that cannot finish.")],
    reason: Annotated[str, typer.Option(
        "--reason", help="Why, for the log and the audit (one line).", show_default=False)],
    redis_url: OperatorUrl = None,
) -> None:
    """Mark a match that cannot finish as damaged: it ends with no result.

    The match counts for nobody in standings; a tournament resumed with --replay-damaged
    plays its table again under a new id.

    Example: siege damage castle-dash-s7-00003 --reason "chance request 41 never answered\""""
    reason = reason.strip()
    if not reason or "\n" in reason:
        raise fail("give a one-line --reason")
    if len(reason) > MAX_REASON:
        raise fail(f"--reason is longer than {MAX_REASON} characters")
    if not redis_url:
        raise fail("say which Redis the services use: --redis-url or REDIS_URL")
    if is_tournament(match_id):
        raise fail(f"{match_id!r} is a tournament, not a match")

    async def mark() -> int:
        async with open_log(redis_url) as (log, where, _url):
            loader = MatchLoader(log, SystemClock())
            refusal: list[str] = []

            def owe(ms: MatchState) -> list[MatchDamaged] | None:
                refusal[:] = [problem] if (problem := damage_refused(ms)) else []
                return None if refusal else [MatchDamaged(reason=reason)]

            ms, appended = await loader.append_owed(match_id, owe)
            if not appended:
                problem = refusal[0] if refusal else "nothing appended"
                raise fail(f"cannot mark {match_id} damaged in {where}: {problem}")
            return ms.head_seq

    seq = run_async(mark())
    out.print(f"{match_id}: marked damaged at seq {seq} ({reason}); the dice service reveals "
              "its seed and scoring records the match as damaged")
