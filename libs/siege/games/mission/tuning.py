"""The game's numbers (our own design), in one place so that tests and bots read the same ones."""

from __future__ import annotations

PLAYERS = 2
SLOTS = 2  # missions in play at once
OPENING_HAND = 5
DEPLOYS_PER_TURN = 2  # cards played (or regroups) in one deploy phase, at most
COMBAT_POINTS = 1  # the winner of a close combat scores this
WIN_POINTS = 12  # reaching this ends the game at once
TURN_LIMIT = 60  # turns in all (30 each): then the game ends and points decide
NOBODY = -1  # an empty mission slot, no card, no seat
