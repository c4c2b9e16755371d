"""Events every match log may hold, whatever the game.

Each event is a msgspec struct with a pinned tag, so the wire name never follows a class rename.
Game packages subclass :class:`GameEvent` for their own events.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta

SCHEMA_VERSION = 1

_SEAT = "The seat number, from 0, in the match's seat order (`MatchCreated.seat_names`)."
_DECISION = (
    "The number of the decision point, as in the seat's SeatPrompted and its SubmitAction. "
    "Numbers rise through a match (every hosted game gives each decision point and each "
    "chance request the next number, from 1), so the ones a seat sees can skip; seats asked "
    "together share one.")


class Event(msgspec.Struct, frozen=True, tag_field="t", kw_only=True):
    """Base of every event body; the tag goes in field ``t``."""


class GameEvent(Event, frozen=True, kw_only=True):
    """Base of events that only one game understands."""


class MatchCreated(Event, frozen=True, tag="match.created", kw_only=True):
    """The first event of every match log (seq 1): the game, its seats and who holds them.
    It is written once every seat is held, so no clock runs before a seat has a holder."""

    game: Annotated[str, Meta(description=(
        "The hosted game, as named in CreateMatch (a key of `x-siege-games` in the AsyncAPI "
        "document); it decides which game events, actions and view the match uses."))]
    players: Annotated[int, Meta(description=(
        "The number of seats, within the game's player counts; seats are numbered 0 to "
        "players - 1."))]
    seat_names: Annotated[list[str], Meta(description=(
        "Each seat's display name, in seat order: the creator's names, with the name a "
        "joiner gave in JoinMatch in place of its seat's."))]
    options: Annotated[dict[str, str], Meta(description=(
        "The match options as created, names to text values: `decision_timeout_ms` (the "
        "milliseconds each decision allows; absent, the services' default, 60,000 unless "
        "the operator set another) and the game's own (castle-assault's `decks` and "
        "`warbands`, storm-castle's `intro`)."))] = {}
    # The client holding each seat: its prompts go to that client's streams.
    clients: Annotated[list[str], Meta(description=(
        "The client id holding each seat, in seat order (one client may hold several): "
        "each seat's prompts go to its holder's streams. Empty only in logs written before "
        "holders were recorded."))] = []
    # The client whose CreateMatch this is (the stream it came on says so): only it may create
    # the id again, and a runner adopts only matches it created itself.
    creator: Annotated[str, Meta(description=(
        "The client whose CreateMatch this is (the commands stream it came on says so): "
        "only it may create the id again, and a runner adopts only matches it created. `\"\"` "
        "in logs written before creators were recorded."))] = ""


class SeedCommitted(Event, frozen=True, tag="dice.seed_committed", kw_only=True):
    """sha256 of the secret per-match seed, written before any roll."""

    commitment: Annotated[str, Meta(description=(
        "The sha256 of the match's secret 32-byte dice seed, as 64 lowercase hex digits. "
        "SeedRevealed later discloses the seed, whose sha256 must equal this "
        "(docs/dice.md)."))]


class PlayerSeedAdded(Event, frozen=True, tag="dice.player_seed_added", kw_only=True):
    """A seat mixes its own entropy into later rolls (after the commitment)."""

    seat: Annotated[int, Meta(description=_SEAT + " The seat adding the seed.")]
    seed: Annotated[str, Meta(description=(
        "The seat's seed bytes as lowercase hex (any length, possibly empty); every draw "
        "after this entry uses a key mixed from the server's seed and every player seed "
        "added so far, in log order (docs/dice.md)."))]


ChanceKind = Literal["dice", "shuffle"]


class ChanceRequested(Event, frozen=True, tag="chance.requested", kw_only=True):
    """The engine waits for chance: ``count`` dice of ``sides``, or a shuffle of ``count``."""

    kind: Annotated[ChanceKind, Meta(description=(
        "`dice`: roll `count` dice of `sides` faces, answered by DiceRolled; `shuffle`: a "
        "random order of `count` items, answered by DeckShuffled."))]
    sides: Annotated[int, Meta(description=(
        "The faces of each die (each value is 1 to `sides`); 0 for a shuffle."))] = 0
    count: Annotated[int, Meta(description=(
        "How many dice to roll, or how many items to shuffle."))]
    purpose: Annotated[str, Meta(description=(
        "The game's label for what the chance decides (castle-dash's `cannonballs`, a "
        "deck's `deck_0`, ...): for readers of the log; the dice service never reads it."))]


class DiceRolled(Event, frozen=True, tag="chance.dice_rolled", kw_only=True):
    """The dice service's answer to a ``ChanceRequested`` of kind ``dice``."""

    request: Annotated[int, Meta(description=(
        "The seq of the ChanceRequested this answers."))]
    first_index: Annotated[int, Meta(description=(
        "The draw index of `values[0]` in the match's random stream (from 0); `values[i]` "
        "is draw `first_index + i`, so anyone can recompute it once the seed is revealed "
        "(docs/dice.md)."))]
    values: Annotated[list[int], Meta(description=(
        "The `count` rolls asked for, in draw order, each from 1 to the request's `sides`."))]


class DeckShuffled(Event, frozen=True, tag="chance.deck_shuffled", kw_only=True):
    """The dice service's answer to a ``ChanceRequested`` of kind ``shuffle``."""

    request: Annotated[int, Meta(description=(
        "The seq of the ChanceRequested this answers."))]
    first_index: Annotated[int, Meta(description=(
        "The draw index of the shuffle's first draw in the match's random stream (from 0); "
        "a shuffle of `count` items uses the `max(count - 1, 0)` indices from here "
        "(docs/dice.md)."))]
    # a permutation of range(count)
    order: Annotated[list[int], Meta(description=(
        "A permutation of 0 to `count - 1`: the shuffled deck is `D[order[0]], "
        "D[order[1]], ...` of the deck `D` before the shuffle."))]


class ActionAccepted(Event, frozen=True, tag="match.action_accepted", kw_only=True):
    """The command a seat sent, as accepted; the game events it produced follow it.

    Recording the action itself lets an auditor re-run legality and ``apply`` and demand the
    same events, instead of trusting them."""

    seat: Annotated[int, Meta(description=_SEAT + " The seat that acted.")]
    decision: Annotated[int, Meta(description=_DECISION + " Here: the one this action "
                                                          "answered.")]
    command_id: Annotated[str, Meta(description=(
        "The `command_id` of the SubmitAction, unique in the match log: the same command sent "
        "again (same id, seat and decision) is acknowledged with this entry's seq, never "
        "recorded twice, and the id for another decision (or seat) is refused "
        "(`duplicate_command`)."))]
    action: Annotated[msgspec.Raw, Meta(description=(
        "The action as the game decoded it, encoded again (fields it does not know dropped): "
        "an embedded msgpack value (a map tagged by `t`), one of the game's action types, "
        "not bin."))]


class SeatTimedOut(Event, frozen=True, tag="match.seat_timed_out", kw_only=True):
    """A seat let its clock run out: it was still asked for ``decision`` when its deadline
    passed (the match's ``decision_timeout_ms``, else the services' default, after the seat
    was prompted). The match then ends as a forfeit (``MatchEnded`` reason ``forfeit``), that
    seat ranked last."""

    seat: Annotated[int, Meta(description=_SEAT + " The seat whose clock ran out.")]
    decision: Annotated[int, Meta(description=_DECISION + " Here: the one left unanswered.")]


class SeatResigned(Event, frozen=True, tag="match.seat_resigned", kw_only=True):
    """A seat's holder gave the match up (``ResignMatch``, with the seat's token). The match
    then ends at once (``MatchEnded`` reason ``resigned``), that seat ranked last."""

    seat: Annotated[int, Meta(description=_SEAT + " The seat that resigned.")]
    command_id: Annotated[str, Meta(description=(
        "The ResignMatch's `command_id`: the same command sent again changes nothing."))]


class MatchEnded(Event, frozen=True, tag="match.ended", kw_only=True):
    """``ranks[seat]`` is 1 for the winners; equal ranks are ties."""

    ranks: Annotated[list[int], Meta(description=(
        "One rank per seat, in seat order: 1 for the winners, otherwise 1 + the number of "
        "seats ranked better (1, 1, 3); equal ranks are ties."))]
    reason: Annotated[str, Meta(description=(
        "`finished`: the game ended by its rules; `forfeit`: a seat's clock ran out "
        "(SeatTimedOut), the seats that timed out share the last rank and the others keep "
        "their order in the standing at that moment; `resigned`: a seat gave up "
        "(SeatResigned), ranked last the same way."))] = "finished"


class MatchDamaged(Event, frozen=True, tag="match.damaged", kw_only=True):
    """An operator's verdict that the match cannot finish (events lost, a chance request that
    is never answered): it ends the match with no result. Like ``MatchEnded`` it is terminal:
    only the dice service's seed reveal may follow it, so the rolls made stay auditable."""

    reason: Annotated[str, Meta(description=(
        "The operator's one-line explanation (`siege damage --reason`, at most 500 "
        "characters), free text."))]


class SeedRevealed(Event, frozen=True, tag="dice.seed_revealed", kw_only=True):
    """The dice service discloses the match's secret seed once the match has ended, so every
    draw can be checked against the commitment (docs/dice.md)."""

    seed: Annotated[str, Meta(description=(
        "The match's secret dice seed, 32 bytes as 64 lowercase hex digits: its sha256 "
        "equals SeedCommitted's `commitment`."))]


class MatchSealed(Event, frozen=True, tag="match.sealed", kw_only=True):
    """The server's Ed25519 signature over the log up to the entry before this one (its hash
    is this entry's ``prev``): the last event of every finished log. ``key`` is the id of the
    signing key, whose public half is published (``siege keys show``); the signed bytes are
    ``siege.hosting.signing.seal_message``."""

    key: Annotated[str, Meta(description=(
        "The id of the signing key: the first 16 hex digits of the sha256 of its 32-byte "
        "public key. The public keys are in the hash `siege:keys` (`HGET siege:keys <key>`)."))]
    signature: Annotated[str, Meta(description=(
        "The Ed25519 signature, 64 bytes as 128 lowercase hex digits, over `\"siegeworks "
        "match seal v1\\n\" + match id + \"\\n\" + the previous entry's seq in decimal + "
        "\"\\n\" + its 32-byte hash`."))]


CORE_EVENT_TYPES: tuple[type[Event], ...] = (
    MatchCreated,
    SeedCommitted,
    PlayerSeedAdded,
    ChanceRequested,
    DiceRolled,
    DeckShuffled,
    ActionAccepted,
    SeatTimedOut,
    SeatResigned,
    MatchEnded,
    MatchDamaged,
    SeedRevealed,
    MatchSealed,
)
