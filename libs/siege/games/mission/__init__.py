"""Sally Forth: a two-player mission card game built around the Assault phase excerpt.

The engine is :class:`siege.games.mission.engine.MissionGame` (hosted as ``mission``). Everything
outside the Assault phase, and every card, is this project's own design; the rules, the card
lists and the rulings are in this package's README.
"""
