"""Bots by name, per game: ``random`` plays everywhere, the others know their game."""

from __future__ import annotations

from siege.bots.protocol import Bot, RandomBot


class UnknownBotError(LookupError):
    pass


def bot_names(game: str) -> list[str]:
    return sorted(_table(game))


def make_bot(game: str, name: str) -> Bot:
    table = _table(game)
    if name not in table:
        raise UnknownBotError(f"no bot {name!r} for {game}; choose from {', '.join(sorted(table))}")
    return table[name]()


def _table(game: str) -> dict[str, type]:
    table: dict[str, type] = {"random": RandomBot}
    if game == "castle-dash":
        from siege.games.castle_dash.bots import GreedyBot

        table["greedy"] = GreedyBot
    elif game == "mission":
        from siege.games.mission.bots import GreedyBot as MissionGreedy

        table["greedy"] = MissionGreedy
    elif game == "castellum":
        from siege.games.castellum.bots import GreedyBot as CastellumGreedy

        table["greedy"] = CastellumGreedy
    elif game == "storm-the-castle":
        from siege.games.storm_castle.bots import GreedyBot as StormGreedy

        table["greedy"] = StormGreedy
    elif game == "castle-assault":
        from siege.games.castle_assault.bots import GreedyBot as CastleAssaultGreedy

        table["greedy"] = CastleAssaultGreedy
    return table
