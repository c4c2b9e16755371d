"""Which matches are ready to archive: ended and sealed (a sealed log is complete: the seal is
its last entry, after the seed's reveal) at least ``delay_ms`` ago.

Where to look: a finished match's result is in ``siege:results:by-match`` (scoring records it
as it sees the end), so the archiver asks only of those, and of the live tournaments, every few
seconds: the work follows the matches that finish, not the ones running. A slower sweep over
every live log (:func:`live_ids`) catches what scoring never recorded.
"""

from __future__ import annotations

from typing import Any

from siege.archive.archiving import sealed_at
from siege.eventlog.keys import RESULTS_HASH, log_key
from siege.eventlog.log import RedisEventLog
from siege.tournament.state import is_tournament

_PAGE = 500  # ids asked about per pipelined round trip


async def scored_ids(redis: Any) -> list[str]:
    """The matches with a recorded result (finished, forfeited, resigned or damaged)."""
    return sorted({(k.decode() if isinstance(k, bytes) else k)
                   async for k, _ in redis.hscan_iter(RESULTS_HASH, count=1000)})


async def live_ids(log: RedisEventLog, tournaments_only: bool = False) -> list[str]:
    """Every match (or only every tournament) whose log is in Redis."""
    ids = await log.match_ids()
    return [m for m in ids if is_tournament(m)] if tournaments_only else ids


async def ready(redis: Any, ids: list[str], delay_ms: int, now_ms: int) -> list[str]:
    """Of ``ids``, those whose log ends in its seal, written ``delay_ms`` or more ago, and
    those with no log at all (archived by an archiver that died before it forgot the result:
    archiving them again finishes that off)."""
    found: list[str] = []
    for start in range(0, len(ids), _PAGE):
        page = ids[start:start + _PAGE]
        async with redis.pipeline(transaction=False) as pipe:
            for match_id in page:
                pipe.xrevrange(log_key(match_id), count=1)
            tails = await pipe.execute()
        for match_id, tail in zip(page, tails, strict=True):
            if not tail:
                found.append(match_id)
                continue
            at = sealed_at(match_id, tail[0][1][b"e"])
            if at is not None and now_ms - at >= delay_ms:
                found.append(match_id)
    return found
