"""Open seats: a match created with seats nobody holds yet waits in a lobby until clients join.

The match log starts only when every seat is held, so no clock runs and no prompt goes out
before a seat has someone to answer it. The lobby is routing data, not game state: it never
enters the log, which records the final holders in ``MatchCreated.clients``.
"""

from __future__ import annotations

import msgspec

from siege.contracts.events import MatchCreated
from siege.contracts.messages import CreateMatch
from siege.contracts.rejections import RejectionCode
from siege.engine.registry import UnknownGameError, get_engine
from siege.eventlog.keys import valid_client_id, valid_match_id
from siege.hosting.clocks import MAX_TIMEOUT_MS, parse_timeout_ms
from siege.tournament.state import is_tournament

OPEN = ""  # an unheld seat in ``CreateMatch.clients``


class Lobby(msgspec.Struct, frozen=True, kw_only=True):
    create: CreateMatch
    clients: list[str]  # the holder of each seat, OPEN while nobody holds it
    seat_names: list[str]

    @property
    def full(self) -> bool:
        return OPEN not in self.clients


class Refusal(msgspec.Struct, frozen=True):
    code: RejectionCode
    detail: str


def options_refused(created: MatchCreated) -> str | None:
    """Why the game cannot start a match with these options (an illegal deck, an unknown
    warband...), or None. The engine is the judge: it raises ValueError from initial_state."""
    try:
        get_engine(created.game).initial_state(created)
    except ValueError as err:
        return str(err)
    return None


def seat_holders(cmd: CreateMatch) -> list[str] | Refusal:
    """Who holds each seat of a create command, or why the command is refused."""
    if not valid_client_id(cmd.client):
        return Refusal(RejectionCode.BAD_CLIENT, f"invalid client id {cmd.client!r}")
    if not valid_match_id(cmd.match_id) or is_tournament(cmd.match_id):
        return Refusal(RejectionCode.MALFORMED, "a match id is 1-128 of A-Z a-z 0-9 _ . : - "
                       "and not shaped like a tournament's (t- and 12 hex digits)")
    timeout = cmd.options.get("decision_timeout_ms")
    if timeout is not None and parse_timeout_ms(timeout) is None:
        return Refusal(RejectionCode.MALFORMED, "decision_timeout_ms must be a whole number "
                       f"of milliseconds from 1 to {MAX_TIMEOUT_MS}")
    try:
        engine = get_engine(cmd.game)
    except UnknownGameError as err:
        return Refusal(RejectionCode.UNKNOWN_GAME, str(err))
    players = len(cmd.seat_names)
    if not engine.min_players <= players <= engine.max_players:
        return Refusal(RejectionCode.BAD_SEATS, f"{cmd.game} takes {engine.min_players}.."
                       f"{engine.max_players} players, not {players}")
    refused = options_refused(MatchCreated(game=cmd.game, players=players,
                                           seat_names=list(cmd.seat_names),
                                           options=dict(cmd.options)))
    if refused is not None:
        return Refusal(RejectionCode.BAD_OPTIONS, refused)
    holders = list(cmd.clients) or [cmd.client] * players
    if len(holders) != players:
        return Refusal(RejectionCode.BAD_SEATS,
                       f"{len(holders)} seat holders for {players} seats")
    bad = [c for c in holders if c != OPEN and not valid_client_id(c)]
    if bad:
        return Refusal(RejectionCode.BAD_CLIENT, f"invalid client id {bad[0]!r}")
    return holders


def created_event(cmd: CreateMatch, holders: list[str], seat_names: list[str]) -> MatchCreated:
    return MatchCreated(game=cmd.game, players=len(holders), seat_names=seat_names,
                        options=cmd.options, clients=holders, creator=cmd.client)


def taken_by_other(created: MatchCreated, cmd: CreateMatch) -> Refusal | None:
    """Why ``cmd`` may not have the id of the match ``created`` started: another creator (or,
    for logs from before creators were recorded, other holders), or other terms."""
    holders = list(cmd.clients) or [cmd.client] * len(cmd.seat_names)
    if created.creator and created.creator != cmd.client:
        return Refusal(RejectionCode.MATCH_ID_TAKEN, "another client created this match id")
    if not created.creator and cmd.client not in created.clients:
        return Refusal(RejectionCode.MATCH_ID_TAKEN, "another client created this match id")
    if (created.game, dict(created.options)) != (cmd.game, dict(cmd.options)) or (
            holders and len(holders) != created.players):
        return Refusal(RejectionCode.MATCH_ID_TAKEN,
                       "this match id was created with another game, options or seats")
    return None


def claim(lobby: Lobby, client: str, wanted: int, name: str) -> tuple[Lobby, int] | Refusal:
    """The lobby after ``client`` takes seat ``wanted`` (-1: the lowest open one) and the seat
    it holds; a client already seated keeps its seat, so a retried join is harmless."""
    if not valid_client_id(client):
        return Refusal(RejectionCode.BAD_CLIENT, f"invalid client id {client!r}")
    if client in lobby.clients:
        return lobby, lobby.clients.index(client)
    if wanted == -1:
        if lobby.full:
            return Refusal(RejectionCode.MATCH_FULL, "every seat is held")
        wanted = lobby.clients.index(OPEN)
    if not 0 <= wanted < len(lobby.clients):
        return Refusal(RejectionCode.UNKNOWN_SEAT, f"no seat {wanted}")
    if lobby.clients[wanted] != OPEN:
        return Refusal(RejectionCode.SEAT_TAKEN, f"seat {wanted} is held")
    clients = list(lobby.clients)
    clients[wanted] = client
    names = list(lobby.seat_names)
    if name:
        names[wanted] = name[:64]
    return Lobby(create=lobby.create, clients=clients, seat_names=names), wanted


lobby_encoder = msgspec.msgpack.Encoder()
lobby_decoder = msgspec.msgpack.Decoder(Lobby)
