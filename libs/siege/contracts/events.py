"""Events every match log may hold, whatever the game.

Each event is a msgspec struct with a pinned tag, so the wire name never follows a class rename.
Game packages subclass :class:`GameEvent` for their own events.
"""

from __future__ import annotations

from typing import Literal

import msgspec

SCHEMA_VERSION = 1


class Event(msgspec.Struct, frozen=True, tag_field="t", kw_only=True):
    """Base of every event body; the tag goes in field ``t``."""


class GameEvent(Event, frozen=True, kw_only=True):
    """Base of events that only one game understands."""


class MatchCreated(Event, frozen=True, tag="match.created", kw_only=True):
    game: str
    players: int
    seat_names: list[str]
    options: dict[str, str] = {}
    # The client holding each seat: its prompts go to that client's streams.
    clients: list[str] = []
    # The client whose CreateMatch this is (the stream it came on says so): only it may create
    # the id again, and a runner adopts only matches it created itself.
    creator: str = ""


class SeedCommitted(Event, frozen=True, tag="dice.seed_committed", kw_only=True):
    """sha256 of the secret per-match seed, written before any roll."""

    commitment: str  # hex


class PlayerSeedAdded(Event, frozen=True, tag="dice.player_seed_added", kw_only=True):
    """A seat mixes its own entropy into later rolls (after the commitment)."""

    seat: int
    seed: str  # hex


ChanceKind = Literal["dice", "shuffle"]


class ChanceRequested(Event, frozen=True, tag="chance.requested", kw_only=True):
    """The engine waits for chance: ``count`` dice of ``sides``, or a shuffle of ``count``."""

    kind: ChanceKind
    sides: int = 0
    count: int
    purpose: str


class DiceRolled(Event, frozen=True, tag="chance.dice_rolled", kw_only=True):
    request: int  # seq of the ChanceRequested it answers
    first_index: int  # roll index of values[0] in the match's random stream
    values: list[int]


class DeckShuffled(Event, frozen=True, tag="chance.deck_shuffled", kw_only=True):
    request: int
    first_index: int
    order: list[int]  # a permutation of range(count)


class ActionAccepted(Event, frozen=True, tag="match.action_accepted", kw_only=True):
    """The command a seat sent, as accepted; the game events it produced follow it.

    Recording the action itself lets an auditor re-run legality and ``apply`` and demand the
    same events, instead of trusting them."""

    seat: int
    decision: int
    command_id: str
    action: msgspec.Raw  # msgpack of one of the game's actions


class SeatTimedOut(Event, frozen=True, tag="match.seat_timed_out", kw_only=True):
    seat: int
    decision: int


class MatchEnded(Event, frozen=True, tag="match.ended", kw_only=True):
    """``ranks[seat]`` is 1 for the winners; equal ranks are ties."""

    ranks: list[int]
    reason: str = "finished"


class MatchDamaged(Event, frozen=True, tag="match.damaged", kw_only=True):
    """An operator's verdict that the match cannot finish (events lost, a chance request that
    is never answered): it ends the match with no result. Like ``MatchEnded`` it is terminal:
    only the dice service's seed reveal may follow it, so the rolls made stay auditable."""

    reason: str


class SeedRevealed(Event, frozen=True, tag="dice.seed_revealed", kw_only=True):
    seed: str  # hex


class MatchSealed(Event, frozen=True, tag="match.sealed", kw_only=True):
    """The server's Ed25519 signature over the log up to the entry before this one (its hash
    is this entry's ``prev``): the last event of every finished log. ``key`` is the id of the
    signing key, whose public half is published (``siege keys show``); the signed bytes are
    ``siege.hosting.signing.seal_message``."""

    key: str
    signature: str  # hex, 64 bytes


CORE_EVENT_TYPES: tuple[type[Event], ...] = (
    MatchCreated,
    SeedCommitted,
    PlayerSeedAdded,
    ChanceRequested,
    DiceRolled,
    DeckShuffled,
    ActionAccepted,
    SeatTimedOut,
    MatchEnded,
    MatchDamaged,
    SeedRevealed,
    MatchSealed,
)
