"""Step 4, battles: from the first player clockwise, the active player resolves each of its
battles still open. A battle runs A choose, B cannonballs, C Armory cards, D battle dice.

Rulings (see the README for the list with tests):
- Battles with soldiers on one side only resolve by themselves when their active player's turn
  comes, before it picks among the contested ones; battles with nobody in them need nothing.
- A side left without soldiers when the dice are due (cannonballs, an Ambush) loses as if the
  battle had been one-sided: all the other side's remaining soldiers go onto the wall.
- Cannonballs hit on a roll up to the opposing soldiers still standing at that roll.
- The winner's wall placement is the margin, capped by the winner's soldiers left in the battle.
"""

from __future__ import annotations

from siege.games.castle_dash import events as e
from siege.games.castle_dash.cards import (
    AMBUSH,
    AMOUNT,
    BATTERING_RAM,
    BATTLE_CARDS,
    CALTROPS,
    IRON_HELMETS,
    LUCKY_CHARM,
    MASTER_GUNNER,
    PALISADE,
    RALLY,
    STOUT_GATE,
    TRUCE,
    VETERAN_CAPTAINS,
    WAR_BANNER,
)
from siege.games.castle_dash.rules.nodes import chance_need, open_chance, open_decision
from siege.games.castle_dash.seating import OPPONENTS, TURN_ORDER
from siege.games.castle_dash.state import Battle, Outcome, State

CANNON_DIE = 6
BATTLE_DIE = 4
CANNON_PURPOSE = "cannonballs"
BATTLE_PURPOSE = "battle"

# Card numbers read once: these run on every battle, and the table never changes at run time.
_BATTLE_CARD_IDS = tuple(sorted(BATTLE_CARDS))
_RAM_BONUS = AMOUNT[BATTERING_RAM]
_BANNER_BONUS = AMOUNT[WAR_BANNER]
_CALTROPS_CAP = AMOUNT[CALTROPS]
_GUNNER_REACH = AMOUNT[MASTER_GUNNER]
_HELMETS_GUARD = AMOUNT[IRON_HELMETS]
_PALISADE_CAP = AMOUNT[PALISADE]
_GATE_SHIELD = AMOUNT[STOUT_GATE]
_CAPTAINS_MARGIN = AMOUNT[VETERAN_CAPTAINS]


def begin(state: State) -> None:
    state.actives = list(TURN_ORDER[state.players][state.first])
    state.battle = None


def contested(state: State, seat: int) -> list[int]:
    """Opponents of ``seat`` whose battle with it is open and has soldiers on both sides."""
    troops = state.troops
    mine = troops[seat]
    done = state.resolved[seat]
    return [
        o for o in OPPONENTS[state.players][seat]
        if not done >> o & 1 and mine[o] and troops[o][seat]
    ]


def settle(state: State) -> bool:
    """Runs automatic battle work until a seat or chance is needed; False when all are done."""
    while True:
        battle = state.battle
        if battle is None:
            if not _next_battle(state):
                return False
            if state.waiting:
                return True
            continue
        if _step(state, battle):
            return True


def start(state: State, active: int, opponent: int) -> None:
    state.turn = active
    state.battle = Battle(sides=[active, opponent], shots=[-1, -1], knocked=[0, 0],
                          played=[[], []])


def _next_battle(state: State) -> bool:
    actives = state.actives
    troops = state.troops
    resolved = state.resolved
    opponents = OPPONENTS[state.players]
    while actives:
        active = actives[0]
        mine = troops[active]
        fights = []
        for o in opponents[active]:
            if resolved[active] >> o & 1:
                continue
            if mine[o] and troops[o][active]:
                fights.append(o)
                continue
            # Soldiers on one side only (or none): settled now, no dice, no decision.
            if mine[o]:
                _win_without_dice(state, [active, o], active, o, shield=0)
            elif troops[o][active]:
                _win_without_dice(state, [active, o], o, active, shield=0)
            _mark_resolved(state, active, o)
        if len(fights) >= 2:
            state.turn = active
            open_decision(state, [active])
            return True
        if fights:
            start(state, active, fights[0])
            return True
        actives.pop(0)
    return False


def _mark_resolved(state: State, a: int, b: int) -> None:
    state.resolved[a] |= 1 << b
    state.resolved[b] |= 1 << a


def _win_without_dice(state: State, sides: list[int], winner: int, loser: int,
                      shield: int) -> None:
    count = state.troops[winner][loser]
    if state.holder[PALISADE] == loser:
        count = min(count, _PALISADE_CAP)
    count = max(0, count - shield)
    state.walls[loser][winner] += count
    state.troops[winner][loser] -= count
    state.outcome = Outcome(sides=sides, winner=winner, placed=count)


def _finish(state: State, battle: Battle) -> None:
    a, b = battle.sides
    _mark_resolved(state, a, b)
    state.battle = None


def _shield(battle: Battle, side: int) -> int:
    return _GATE_SHIELD if STOUT_GATE in battle.played[side] else 0


def _settle_if_emptied(state: State, battle: Battle) -> bool:
    """Ends the battle without dice when a side has no soldiers left; True if it did."""
    a, b = battle.sides
    mine, theirs = state.troops[a][b], state.troops[b][a]
    if mine and theirs:
        return False
    if mine:
        _win_without_dice(state, battle.sides, a, b, _shield(battle, 1))
    elif theirs:
        _win_without_dice(state, battle.sides, b, a, _shield(battle, 0))
    else:
        state.outcome = Outcome(sides=battle.sides)
    _finish(state, battle)
    return True


def playable(state: State, battle: Battle, side: int) -> list[int]:
    """Battle cards ``side`` may play now. Cards that could do nothing are not offered."""
    seat = battle.sides[side]
    other = battle.sides[1 - side]
    holder = state.holder
    spent = state.spent
    found = []
    for card in _BATTLE_CARD_IDS:
        if holder[card] != seat or card in spent:
            continue
        if card == RALLY and not battle.knocked[side]:
            continue
        if card == AMBUSH and not state.troops[other][seat]:
            continue
        found.append(card)
    return found


def _step(state: State, battle: Battle) -> bool:
    step = battle.step
    a, b = battle.sides
    if step == "cannon_open":
        smoked = state.smoke[a] >> b & 1
        choosers = []
        for side, seat in enumerate(battle.sides):
            if not smoked and state.cannonballs[seat] > 0:
                choosers.append(seat)
            else:
                battle.shots[side] = 0
        if choosers:
            battle.step = "cannon_wait"
            open_decision(state, choosers)
            return True
        battle.step = "cannon_fire"
        return False
    if step == "cannon_fire":
        shots = battle.shots
        # Counts are spent only now: while sealed, a cannonball total would give them away.
        state.cannonballs[a] -= shots[0]
        state.cannonballs[b] -= shots[1]
        total = shots[0] + shots[1]
        if total:
            battle.step = "cannon_roll"
            open_chance(state, chance_need("dice", total, CANNON_DIE, CANNON_PURPOSE))
            return True
        battle.step = "cards"
        return False
    if step == "cards":
        while battle.card_side < 2:
            if playable(state, battle, battle.card_side):
                open_decision(state, [battle.sides[battle.card_side]])
                return True
            battle.card_side += 1
        if _settle_if_emptied(state, battle):
            return False
        battle.step = "dice"
        return False
    if step == "dice":
        count = 2 + (LUCKY_CHARM in battle.played[0]) + (LUCKY_CHARM in battle.played[1])
        battle.step = "dice_roll"
        open_chance(state, chance_need("dice", count, BATTLE_DIE, BATTLE_PURPOSE))
        return True
    raise AssertionError(f"battle step {step!r} waits for an event, not for settling")


# --- event handlers -------------------------------------------------------------------------


def on_battle_chosen(state: State, event: e.BattleChosen) -> None:
    state.waiting = []
    start(state, event.seat, event.opponent)


def on_cannonballs_chosen(state: State, event: e.CannonballsChosen) -> None:
    battle = state.battle
    assert battle is not None
    seat = event.seat
    battle.shots[battle.sides.index(seat)] = event.count
    # The other battler may still be choosing: its decision stays open, same number.
    state.waiting = [s for s in state.waiting if s != seat]
    if not state.waiting:
        battle.step = "cannon_fire"
        _step(state, battle)  # spend and roll now; ``advance`` takes over if nothing opens


def on_cannon_dice(state: State, values: list[int]) -> None:
    battle = state.battle
    assert battle is not None
    a, b = battle.sides
    split = battle.shots[0]
    # The active player's dice come first in the roll.
    _fire(state, battle, a, b, 1, values[:split])
    _fire(state, battle, b, a, 0, values[split:])
    # Even a side the cannonballs wiped out still gets step C (a Rally can bring it back);
    # whether a side is empty is decided once, just before the dice.
    battle.step = "cards"


def _fire(state: State, battle: Battle, shooter: int, target: int, target_side: int,
          rolls: list[int]) -> None:
    reach = 0
    if state.holder[MASTER_GUNNER] == shooter:
        reach += _GUNNER_REACH
    if state.holder[IRON_HELMETS] == target:
        reach -= _HELMETS_GUARD
    row = state.troops[target]
    for roll in rolls:
        standing = row[shooter]
        if not standing:
            break
        if roll <= standing + reach:
            row[shooter] = standing - 1
            battle.knocked[target_side] += 1


def on_card_played(state: State, event: e.ArmoryCardPlayed) -> None:
    state.waiting = []
    battle = state.battle
    assert battle is not None
    seat, card = event.seat, event.card
    side = battle.sides.index(seat)
    other = battle.sides[1 - side]
    state.spent.append(card)
    battle.played[side].append(card)
    if card == AMBUSH:
        state.troops[other][seat] -= AMOUNT[AMBUSH]
    elif card == RALLY:
        back = min(AMOUNT[RALLY], battle.knocked[side])
        battle.knocked[side] -= back
        state.troops[seat][other] += back
    elif card == TRUCE:
        state.outcome = Outcome(sides=battle.sides)
        _finish(state, battle)
    # The other battle cards change the dice step; it reads them from ``battle.played``.


def on_play_ended(state: State, event: e.ArmoryPlayEnded) -> None:
    state.waiting = []
    battle = state.battle
    assert battle is not None
    battle.card_side += 1


def on_battle_dice(state: State, values: list[int]) -> None:
    battle = state.battle
    assert battle is not None
    a, b = battle.sides
    mine_played, theirs_played = battle.played
    # The active player's die (two with Lucky Charm, keeping the higher), then the opponent's.
    if LUCKY_CHARM in mine_played:
        die_a, at = max(values[0], values[1]), 2
    else:
        die_a, at = values[0], 1
    die_b = max(values[at], values[at + 1]) if LUCKY_CHARM in theirs_played else values[at]
    if CALTROPS in theirs_played:
        die_a = min(die_a, _CALTROPS_CAP)
    if CALTROPS in mine_played:
        die_b = min(die_b, _CALTROPS_CAP)
    troops = state.troops
    total_a = die_a + troops[a][b]
    total_b = die_b + troops[b][a]
    if BATTERING_RAM in mine_played:
        total_a += _RAM_BONUS
    elif BATTERING_RAM in theirs_played:
        total_b += _RAM_BONUS
    banner = state.holder[WAR_BANNER]
    if banner == a:
        total_a += _BANNER_BONUS
    elif banner == b:
        total_b += _BANNER_BONUS
    margin = abs(total_a - total_b)
    if total_a > total_b:
        winner_side = 0
    elif total_b > total_a:
        winner_side = 1
    else:
        captain = state.holder[VETERAN_CAPTAINS]
        if captain not in battle.sides:
            battle.step = "dice"  # a tie: roll both dice again
            return
        winner_side = battle.sides.index(captain)
        margin = _CAPTAINS_MARGIN
    winner = battle.sides[winner_side]
    loser = battle.sides[1 - winner_side]
    left = state.troops[winner][loser]
    placed = max(0, min(margin, left) - _shield(battle, 1 - winner_side))
    state.walls[loser][winner] += placed
    state.troops[winner][loser] = left - placed
    state.outcome = Outcome(sides=battle.sides, totals=[total_a, total_b], winner=winner,
                            placed=placed)
    _finish(state, battle)
