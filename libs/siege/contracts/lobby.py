"""The public lobby: matches waiting for players, as any client may read them.

One Redis hash (``siege.eventlog.keys.LOBBY_HASH``): field the match id, value the msgpack of an
:class:`OpenSeats`. The match service writes it as lobbies open, fill and close; clients read it
(HSCAN or HGETALL, HGET for one match) to find a seat to join without being told a match id.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from siege.contracts.messages import ClientId, GameName, MatchId, Options, SeatNames


class OpenSeats(msgspec.Struct, frozen=True, kw_only=True, tag_field="t", tag="lobby.open_seats"):
    """A match that has seats nobody holds yet: send JoinMatch for one of ``open``. The
    listing goes when the last seat is taken (the match starts) or the lobby closes; a
    listing can trail the lobby by a moment, so a join may still be refused (``match_full``,
    ``seat_taken``, ``unknown_match``)."""

    match_id: Annotated[MatchId, Meta(description="The match to name in JoinMatch.")]
    game: Annotated[GameName, Meta(description="The game, as named in CreateMatch (see "
                                               "`x-siege-games` of the AsyncAPI document).")]
    seats: Annotated[int, Meta(description="Number of seats of the match.")]
    open: Annotated[list[int], Meta(description="The seat numbers (from 0) nobody holds yet, "
                                                "lowest first: JoinMatch with seat -1 takes "
                                                "the first of them.")]
    seat_names: Annotated[SeatNames, Meta(description="Display name of every seat, in seat "
                                                      "order (a joiner may rename its own).")]
    creator: Annotated[ClientId, Meta(description="The client that created the match.")]
    options: Annotated[Options, Meta(description="The match's options as created (for "
                                                 "example `decision_timeout_ms`).")] = {}


open_seats_encoder = msgspec.msgpack.Encoder()
open_seats_decoder = msgspec.msgpack.Decoder(OpenSeats)
