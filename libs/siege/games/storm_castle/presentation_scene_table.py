"""Storm the Castle!'s table around the map, as a page draws it: the status lines, the armies
on offer at set-up, each seat's area in its colour (gold, magic, votes, trophies, its own hand
face up and other hands as backs with a count, cards in play and exhausted, Boss cards), the
Boss (the vote, the Boss deck, the cards and tokens only the Boss was offered), the defenders
and the turn's event cards (face down until turned up), and the battle or march under way."""

from __future__ import annotations

from siege.engine.presentation import Names, seat_name, sentence, who, whose
from siege.engine.scene import Piece, Zone
from siege.games.storm_castle.presentation_names import (
    ARMIES,
    ASKING,
    BOSS,
    CONST,
    DEFENDER_SIDE,
    LAST_TURN,
    PHASES,
    POWER,
    SIDE_NAMES,
    SUMMONING,
    army_name,
    boss_name,
    effect_words,
    event_name,
    kind_name,
    plural,
    power_name,
    power_words,
    space_name,
    spell_name,
    structure_name,
)
from siege.games.storm_castle.presentation_words import the_army
from siege.games.storm_castle.views import StormView

# --- status ------------------------------------------------------------------------------------


def _names_of(seats: list[int], names: Names, told: int | None) -> str:
    return ", ".join(who(names, s, told) for s in seats)


def status(view: StormView, names: Names, told: int | None) -> tuple[str, ...]:
    turn = f"Turn {view.turn} of {LAST_TURN}" if view.turn else "Set-up"
    phase = PHASES.get(view.phase, view.phase)
    first = f"{turn}: {phase}" + (" (introductory game)" if view.intro else "")
    if view.phase == "over":
        if view.winner >= 0:
            return first, sentence(f"{who(names, view.winner, told)} entered the keep and won")
        best = max((v.total for v in view.vilest), default=0)
        top = [s for s, v in enumerate(view.vilest) if v.total == best]
        return first, f"The castle held; the vilest: {_names_of(top, names, told)} ({best})"
    if view.waiting:
        second = (f"Waiting for {_names_of(view.waiting, names, told)}: "
                  f"{ASKING.get(view.asking, view.asking or 'to act')}")
        if view.phase == "turns" and view.step == "act":
            second += f", {plural(view.army_moves, 'army move')} left"
    elif view.chance:
        second = "Waiting for " + ("the dice" if ":" in view.chance else "a shuffle")
    else:
        second = "Nobody to act"
    return first, second


# --- the seats -----------------------------------------------------------------------------------


def _card(seat: int, army: int, card: int, where: str) -> Piece:
    found = POWER[army].get(card) if 0 <= army < len(POWER) else None
    lines = [power_words(army, card) or where, where] if found is not None else [where]
    return Piece(label=power_name(army, card), id=f"card-{seat}-{card}", kind="card",
                 seat=seat, lines=tuple(dict.fromkeys(lines)),
                 note=str(found["text"]) if found is not None else "")


def _seat_facts(view: StormView, seat: int) -> list[str]:
    lines = [f"gold {view.gold[seat]}, magic {view.magic[seat]}",
             f"votes {view.base_votes[seat]}, vilest {view.vilest[seat].total}"]
    if view.tokens and view.tokens[seat]:
        lines.append(f"turn-order token {view.tokens[seat]}")
    elif view.setup_tokens:
        lines.append(f"set-up token {view.setup_tokens[seat]}")
    if view.boss == seat:
        lines.append("the Boss")
    if view.ref_holder == seat:
        lines.append("controls the defenders")
    lines.append(f"walls {view.walls_taken[seat]}, defenders slain {view.defenders_slain[seat]}"
                 f", buildings {view.buildings_taken[seat]}")
    lines.append(f"ladders {view.ladders_in_use[seat]} of {CONST['ladders_per_army']}")
    return lines


def seat_zone(view: StormView, names: Names, told: int | None, seat: int) -> Zone:
    army = view.armies[seat]
    field = view.battlefields[seat]
    name = seat_name(names, seat) + (" (you)" if told == seat else "")
    title = name + (f": {the_army(army)}" if army >= 0 else ": no army yet")
    if field >= 0:
        title += f", {SIDE_NAMES[field]} battlefield"
    pieces = [Piece(label=seat_name(names, seat), id=f"seat-{seat}", kind="info", seat=seat,
                    lines=tuple(_seat_facts(view, seat)))]
    shown: set[int] = set()
    if seat == view.seat:
        for card in view.hand:
            pieces.append(_card(seat, army, card, "in hand"))
            shown.add(card)
    elif view.hand_sizes[seat]:
        pieces.append(Piece(label="power card backs", kind="back", seat=seat,
                            lines=(f"{plural(view.hand_sizes[seat], 'card')} in hand",)))
    for cards, where in ((view.in_play[seat], "in play"), (view.exhausted[seat], "exhausted")):
        for card in cards:
            if card not in shown:
                pieces.append(_card(seat, army, card, where))
                shown.add(card)
    if seat == view.seat:
        for card in view.boss_hand:
            found = BOSS.get(card)
            pieces.append(Piece(label=boss_name(card), id=f"boss-{card}", kind="card", seat=seat,
                                lines=("Boss card",) + ((effect_words(found["effect"]),)
                                                        if found else ()),
                                note=str(found["text"]) if found else ""))
    elif view.boss_hand_sizes[seat]:
        pieces.append(Piece(label="Boss card backs", kind="back", seat=seat,
                            lines=(plural(view.boss_hand_sizes[seat], "Boss card"),)))
    discards = [power_name(army, c) for c in view.discards[seat]]
    pieces.append(Piece(label="power deck", kind="back", seat=seat,
                        lines=(plural(view.deck_sizes[seat], "card"),
                               f"{len(discards)} discarded"),
                        note="Discarded: " + ", ".join(discards) if discards else ""))
    return Zone(title=title, seat=seat, pieces=tuple(pieces))


def _armies_zone(view: StormView, names: Names, told: int | None) -> Zone:
    pieces = []
    for army, info in enumerate(ARMIES):
        taker = next((s for s, x in enumerate(view.armies) if x == army), -1)
        units = ", ".join(kind_name(k) for k in info["buyable_kinds"])
        taken = f"taken by {who(names, taker, told)}" if taker >= 0 else "free"
        pieces.append(Piece(label=army_name(army).removeprefix("The "), id=f"army-{army}",
                            kind="card", seat=taker, lines=(units, taken)))
    return Zone(title="The Dark Force armies", pieces=tuple(pieces))


# --- the Boss, the defenders, the events --------------------------------------------------------


def _boss_zone(view: StormView, names: Names, told: int | None) -> Zone:
    head = (f"Boss: {who(names, view.boss, told)}" if view.boss >= 0 else "no Boss yet")
    lines = [f"Boss deck {view.boss_deck_size}, discarded {view.boss_discard_size}"]
    if view.players > 1 and view.last_votes:
        lines.append("last vote: " + ", ".join(
            f"{seat_name(names, s)} {view.last_votes[s]}" for s in range(view.players)))
    if view.phase == "vote":
        bid = [s for s, done in enumerate(view.bids_in) if done]
        lines.append("bid so far: " + (_names_of(bid, names, told) if bid else "nobody"))
    pieces = [Piece(label=sentence(head), kind="info", seat=view.boss, lines=tuple(lines))]
    for card in view.boss_offer:
        found = BOSS.get(card)
        pieces.append(Piece(label=boss_name(card), id=f"offer-{card}", kind="card",
                            seat=view.boss, lines=("on offer to keep",)
                            + ((effect_words(found["effect"]),) if found else ()),
                            note=str(found["text"]) if found else ""))
    for token in view.boss_offer_tokens:
        pieces.append(Piece(label=f"turn-order token {token}", id=f"token-{token}",
                            kind="token", seat=view.boss, lines=("on offer to keep",)))
    return Zone(title="The Boss", pieces=tuple(pieces))


def _defenders_zone(view: StormView, names: Names) -> Zone:
    units = [u for u in view.units if u.owner == DEFENDER_SIDE]
    lines = [f"{plural(len(units), 'defender')} on the board",
             f"pool {view.defender_pool_size}, spells {view.magic_deck_size} "
             f"(discarded {len(view.magic_discard)})"]
    hero = next((u for u in view.units if u.uid == view.hero), None)
    if hero is not None:
        lines.append(f"hero {hero.name} #{hero.uid} {_on(hero.space)}")
    elif view.hero_summoned:
        lines.append("the hero is gone")
    if view.summoning:
        lines.append("summoning the hero: " + SUMMONING.get(view.summoning, view.summoning))
    pieces = [Piece(label="Fantasy Defenders", kind="info", lines=tuple(lines))]
    for kind in view.to_place:
        pieces.append(Piece(label=f"{kind_name(kind)} to place", kind="token"))
    for spell in view.drawn_spells:
        pieces.append(Piece(label=spell_name(spell), kind="card", lines=("spell drawn",)))
    return Zone(title="The defenders", pieces=tuple(pieces))


def _on(space: int) -> str:
    return f"on {space_name(space)}"


def _events_zone(view: StormView) -> Zone:
    pieces = [Piece(label=event_name(card), kind="card", lines=("turned up",))
              for card in view.revealed]
    hidden = view.event_row_size - len(view.revealed)
    if hidden > 0:
        pieces.append(Piece(label="event card backs", kind="back",
                            lines=(f"{hidden} face down",)))
    pieces.append(Piece(label="event deck", kind="back",
                        lines=(plural(view.event_deck_size, "card"),
                               f"{len(view.event_discard)} discarded")))
    return Zone(title="This turn's events", pieces=tuple(pieces))


def _under_way(view: StormView, names: Names, told: int | None) -> Zone | None:
    def unit(uid: int) -> str:
        found = next((u for u in view.units if u.uid == uid), None)
        if found is None:
            return f"unit #{uid}"
        owner = f"{whose(names, found.owner, told)} " if found.owner >= 0 else ""
        return f"{owner}{found.name} #{uid}"

    pieces = []
    fight = view.battle
    if fight is not None:
        striker = unit(fight.attacker) if fight.attacker >= 0 else "an Attack"
        struck = unit(fight.target) if fight.target >= 0 else structure_name(fight.structure)
        lines = [f"{striker} against {struck}"]
        if fight.rounds:
            lines.append(f"battle rounds, round {fight.round + 1}")
        if fight.step:
            lines.append(f"{fight.step} roll, {plural(fight.hits, 'hit')} so far")
        pieces.append(Piece(label="battle", kind="info", lines=tuple(lines)))
    march = view.march
    if march is not None:
        name = event_name(march.card) if march.card >= 0 else "the hero's Onward March 1"
        lines = [f"{plural(march.left, 'activation')} left"]
        if march.activated:
            lines.append("done: " + ", ".join(unit(u) for u in march.activated))
        pieces.append(Piece(label=name, kind="info", lines=tuple(lines)))
    offer = view.offer
    if offer is not None:
        pieces.append(Piece(label="battle march on offer", kind="info",
                            lines=(f"{unit(offer.unit)} into {space_name(offer.to)}",)))
    if not pieces:
        return None
    return Zone(title="Under way", pieces=tuple(pieces))


def table_zones(view: StormView, names: Names, told: int | None) -> list[Zone]:
    zones: list[Zone] = []
    under_way = _under_way(view, names, told)
    if under_way is not None:
        zones.append(under_way)
    if view.phase == "setup" and any(x < 0 for x in view.armies):
        zones.append(_armies_zone(view, names, told))
    zones += [seat_zone(view, names, told, seat) for seat in range(view.players)]
    zones += [_boss_zone(view, names, told), _defenders_zone(view, names), _events_zone(view)]
    return zones
