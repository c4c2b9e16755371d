"""Storm the Castle! (``storm-the-castle``) for people at a terminal: the board drawn from one
seat's view (``presentation_board``), the actions and events in words, and a short summary of
the rules.

Three events carry a value some listeners may not know. A gold bid (:class:`~.events.GoldBid`)
is sealed until every seat has bid: only the bidder hears the amount. A Boss card kept
(:class:`~.events.BossCardKept`) is either one of the cards only the Boss was offered or a
position in the ousted Boss's hand, taken blind, and the event does not say which: every
listener, the Boss too, hears that a Boss card was kept. A Boss card discarded at wrap-up
(:class:`~.events.BossCardDiscarded`) leaves a hand nobody else sees for a pile shown only as a
count: only its owner hears its name.

An event names units by id and power cards by an id that means a different card in each army.
The presentation of a match (``for_match``, which the narrator takes at the match's first
event) follows its story and names them: "Blue's Knight #12", the Blue army's card. Alone, a
line knows only the event: a unit reads as "unit #12" (the board names the units of the battle,
the march and the last move with their ids), and a power card by its name where every army's
card of that id has that name, or where the values the event decided fit one army's card only;
otherwise by the names it may be, or by its kind.
"""

from __future__ import annotations

import dataclasses

from siege.contracts.events import MatchCreated
from siege.engine.presentation import Presentation
from siege.games.storm_castle import presentation_events
from siege.games.storm_castle.presentation_actions import ACTIONS
from siege.games.storm_castle.presentation_board import draw
from siege.games.storm_castle.presentation_events import EVENTS, Table
from siege.games.storm_castle.presentation_names import CONST, REF
from siege.games.storm_castle.presentation_scene import group, scene, target

_ODDS = REF["dice"]["sides"] // REF["dice"]["battle"].count("hit")  # a Battle die hits 1 in 3

RULES_SUMMARY = "\n".join((
    "Goal: be the first Dark Force player to get a unit into the castle's keep.",
    f"If nobody has by the end of turn {CONST['last_turn']}, the castle holds; the vilest "
    "player wins.",
    f"Collect (from turn 2): {CONST['collect_gold']} gold, {CONST['collect_draws']} power "
    f"card, magic; at most {CONST['cap']} of each.",
    "Boss vote: 1 vote plus trophies plus gold bid in secret. The Boss keeps 1 of "
    f"{CONST['boss_draw']}",
    "Boss cards, picks one of two turn-order tokens and may give gold away.",
    f"Buy and deploy: units on start spaces (+{CONST['deploy_elsewhere']} gold in another "
    "battlefield),",
    f"power cards at {CONST['power_card_price']} gold, equipment from your hand, ladders.",
    "Then new defenders arrive and the turn's event cards are drawn face down.",
    f"Your turn: {CONST['army_moves']} army moves, a unit moves up to {CONST['unit_moves']} "
    "spaces; each attacks once;",
    "play cards and cast spells. An Onward March event lets the defenders' controller",
    "move and attack with the defenders; other events strike the current player.",
    f"A battle: a Burst die plus a Battle die per attack above 1; a die hits 1 in {_ODDS}.",
    "Break walls or climb ladders; a broken wall is a trophy, worth a vote.",
    f"Wrap up: keep {CONST['hand_limit']} power cards (+{CONST['hand_bonus']} at the +2 Hand "
    f"location), {CONST['boss_hand_limit']} Boss cards.",
    f"Vilest: walls, {CONST['defenders_per_vilest_point']} defenders slain, buildings, "
    f"champion, upgrade, {CONST['gold_per_vilest_point']} gold, Boss.",
))


def for_match(created: MatchCreated) -> Presentation:
    """The presentation of one match: its event lines follow the match's story (armies chosen,
    units placed and bought) to name the cards and units later events give by number; its
    board, targets and groups are the game's own."""
    return dataclasses.replace(PRESENTATION, events=presentation_events.for_match(Table()),
                               for_match=None)


PRESENTATION = Presentation(title="Storm the Castle!", rules_summary=RULES_SUMMARY, board=draw,
                            actions=ACTIONS, events=EVENTS, scene=scene, target=target,
                            group=group, for_match=for_match)
