"""Castle Dash: 3-6 players battle their neighbours to loot castles and steal coins.

The engine is :class:`siege.games.castle_dash.engine.CastleDash`; the rulings we made where the
rulebook is silent, and the Armory cards we designed, are listed in this package's README.
"""
