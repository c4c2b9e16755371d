"""Storm the Castle!'s words for people: seats, spaces, units and power cards as the action and
event lines of :mod:`.presentation` say them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from siege.engine.presentation import Names
from siege.games.storm_castle import events as e
from siege.games.storm_castle.presentation_names import (
    POWER,
    REF,
    army_name,
    plural,
    space_name,
    unit_words,
)
from siege.games.storm_castle.views import StormUnitView, StormView

TOKENS: list[dict[str, Any]] = REF["defender_tokens"]
KIND_WORDS = {"champion": "a champion card", "upgrade": "a battlefield upgrade card",
              "action": "an action card", "common": "a common card",
              "rip": "a remain-in-play card", "equipment": "an equipment card",
              "magic": "a spell"}
ORDINALS = ("first", "second", "third", "fourth")


# --- words ------------------------------------------------------------------------------------




def as_line(text: str) -> str:
    """Capitalises a line that opens with "you"/"your" (names are kept as given)."""
    return text[0].upper() + text[1:] if text.startswith(("you ", "you,", "your ")) else text


def with_article(name: str) -> str:
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def their_for(names: Names, seat: int, told: int | None) -> str:
    return "your" if told is not None and told == seat else "their"


def on_space(space: int) -> str:
    """A space with the preposition a unit stands there by: "in the keep", "on north
    rampart 1", "at the +2 Gold location"."""
    kind = REF["spaces"][space]["kind"] if 0 <= space < len(REF["spaces"]) else ""
    word = {"keep": "in", "location": "at"}.get(kind, "on")
    return f"{word} {space_name(space)}"


def gold_words(count: int) -> str:
    return "no gold" if count == 0 else f"{count} gold"


def the_army(army: int) -> str:
    name = army_name(army)
    return "the " + name[4:] if name.startswith("The ") else "the " + name


def unit_of(view: StormView, uid: int) -> StormUnitView | None:
    return next((u for u in view.units if u.uid == uid), None)


def unit_at(view: StormView, space: int) -> StormUnitView | None:
    return next((u for u in view.units if u.space == space), None)


def own_army(view: StormView) -> int:
    return view.armies[view.seat] if 0 <= view.seat < view.players else -1


def unit_named(view: StormView, names: Names, uid: int) -> str:
    return unit_words(view, names, uid, cut=False)


def where_is(view: StormView, uid: int) -> str:
    unit = unit_of(view, uid)
    return f" {on_space(unit.space)}" if unit is not None else ""


def event_card(card: int, fits: Callable[[dict[str, Any]], bool] | None = None,
               kinds: tuple[str, ...] = (), army: int | None = None) -> str:
    """A power card named from its id: by the ``army`` whose card it is, where the story so far
    told it (see :class:`~.presentation_events.Table`). From the id alone (an event does not
    carry the army): the name if every army's card of that id shares it, or if ``fits`` leaves
    one; two names joined by "or"; else its kind in words."""
    if army is not None and 0 <= army < len(POWER) and card in POWER[army]:
        return str(POWER[army][card]["name"])
    found = [POWER[army][card] for army in range(len(POWER)) if card in POWER[army]
             and (not kinds or POWER[army][card]["kind"] in kinds)]
    if fits is not None and any(fits(c) for c in found):
        found = [c for c in found if fits(c)]
    unique = list(dict.fromkeys(str(c["name"]) for c in found))
    if len(unique) == 1:
        return unique[0]
    if len(unique) == 2:
        return f"{unique[0]} or {unique[1]}"
    kinds_found = {c["kind"] for c in found}
    if len(kinds_found) == 1:
        return KIND_WORDS.get(kinds_found.pop(), "a power card")
    return "a power card"


def fits_event(event: e.PowerCardPlayed) -> Callable[[dict[str, Any]], bool]:
    """Whether a card's effect could have decided the event's values: moves, fury, guard and
    heal are the card's own; gold, magic, draws and flips may fall short (a cap, an empty
    deck, too few defenders in reach)."""
    def fits(card: dict[str, Any]) -> bool:
        effect = card["effect"]
        return (effect["moves"] == event.moves and effect["fury"] == event.fury
                and effect["guard"] == event.guard and effect["heal"] == event.heal
                and event.gold <= effect["gold"] and event.magic <= effect["magic"]
                and event.drawn <= effect["draw"] and len(event.flipped) <= effect["flip"])
    return fits


def outcome_words(event: e.PowerCardPlayed | e.BossCardPlayed) -> str:
    parts = []
    if event.gold:
        parts.append(f"+{event.gold} gold")
    if event.magic:
        parts.append(f"+{event.magic} magic")
    if event.drawn:
        parts.append(f"drew {plural(event.drawn, 'card')}")
    if event.moves:
        parts.append(f"+{plural(event.moves, 'army move')}")
    if event.fury:
        parts.append(f"+{event.fury} attack {'die' if event.fury == 1 else 'dice'} per unit")
    if event.guard:
        parts.append(f"+{event.guard} armor {'die' if event.guard == 1 else 'dice'} per unit")
    if event.healed:
        parts.append(f"healed {event.heal} on {plural(len(event.healed), 'unit')}")
    if event.flipped:
        parts.append(f"flipped {plural(len(event.flipped), 'defender')}")
    return ", ".join(parts) or "no effect"


