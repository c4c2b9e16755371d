"""Decision clocks and forfeits.

When a seat is prompted, its decision gets a deadline (the match option
``decision_timeout_ms``, else the service default). A seat still asked for that decision when
the deadline passes gets ``SeatTimedOut``. What a timeout means is the game's to say; the host's
rule, for every game hosted so far, is a forfeit: the match ends at once, the seats that timed
out share the last place, and the others keep their order in the game's current standing.
"""

from __future__ import annotations

from siege.contracts.events import SeatTimedOut
from siege.engine.protocol import ranks_from_keys
from siege.eventlog.keys import deadlines_key, shard_of
from siege.hosting.match_state import MatchState

DEFAULT_TIMEOUT_MS = 60_000


MAX_TIMEOUT_MS = 7 * 24 * 3600 * 1000  # a week: beyond that a seat has simply left


def parse_timeout_ms(text: str) -> int | None:
    """The option ``decision_timeout_ms`` as a number of milliseconds, or None if it is none
    (the match service refuses such a create)."""
    if not text.isascii() or not text.isdigit():
        return None
    value = int(text)
    return value if 1 <= value <= MAX_TIMEOUT_MS else None


def timeout_ms(ms: MatchState, default_ms: int = DEFAULT_TIMEOUT_MS) -> int:
    if ms.created is None or "decision_timeout_ms" not in ms.created.options:
        return default_ms
    return parse_timeout_ms(ms.created.options["decision_timeout_ms"]) or default_ms


def deadline_member(match_id: str, seat: int, decision: int) -> str:
    return f"{match_id}\t{seat}\t{decision}"


def parse_member(member: str) -> tuple[str, int, int]:
    match_id, seat, decision = member.rsplit("\t", 2)
    return match_id, int(seat), int(decision)


HELD = "\theld\t"
"""A deadline held for an answer that reached Redis in time but is not handled yet: the member
``<deadline member>\theld\t<entry id>`` names the last entry that was judged in time."""

ARRIVAL_TOLERANCE_MS = 1000
"""How much earlier than the first read of it an entry may claim (by its id) to have arrived."""


def member_key(member: str) -> str:
    """The sorted set a deadline member (held or not) lives in: its match's shard's."""
    match_id, _, _ = parse_member(parse_held(member)[0])
    return deadlines_key(shard_of(match_id))


def held_member(member: str, cutoff_id: str) -> str:
    return f"{member}{HELD}{cutoff_id}"


def parse_held(member: str) -> tuple[str, str | None]:
    """The deadline member and, if it is held, the id of its last entry judged in time."""
    base, sep, cutoff = member.rpartition(HELD)
    return (base, cutoff) if sep else (member, None)


def entry_ms(entry_id: str) -> int:
    return int(entry_id.split("-", 1)[0])


def believed_arrival_ms(entry_id: str, read_ms: int,
                        tolerance_ms: int = ARRIVAL_TOLERANCE_MS) -> int:
    """When a command reached Redis, as far as the host believes it. A ``*`` id is Redis' clock
    when the entry was added; but a client may give its own stream explicit ids (only
    increasing), so an id far below Redis' time when the entry is first read is not believed:
    the later of the id and the read time minus ``tolerance_ms``."""
    return max(entry_ms(entry_id), read_ms - tolerance_ms)


def check_timeout(ms: MatchState, seat: int, decision: int) -> bool:
    """Whether ``seat`` is still asked for ``decision``, so that it can time out."""
    engine = ms.engine
    if (engine is None or ms.ended is not None or ms.timed_out or ms.resigned
            or ms.open_request is not None):
        return False
    pending = engine.pending(ms.game)
    return seat in pending.seats and pending.decision == decision


def timed_out(ms: MatchState, seat: int, decision: int) -> list[SeatTimedOut] | None:
    if not check_timeout(ms, seat, decision):
        return None
    return [SeatTimedOut(seat=seat, decision=decision)]


def forfeit_ranks(standing: list[int], forfeited: list[int]) -> list[int]:
    """Forfeiting seats last (tied), the others in their current order."""
    return ranks_from_keys([
        (True, -rank) if seat not in forfeited else (False, 0)
        for seat, rank in enumerate(standing)
    ])
