"""Game options given on the command line: Castle Assault's ``--decks``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from siege.games.castle_assault import decks as ca_decks
from siege.games.castle_assault.cards import WARBAND_CARDS
from siegeworks.cli.common import fail

Decks = Annotated[str | None, typer.Option(
    help="Castle Assault: each seat's deck, comma-separated, seat 0 first: a deck file (text "
         "or TOML, see 'siege deck check') or a warband name for its stock deck, e.g. "
         "--decks my-dragons.txt,dwarves.")]


def read_deck(source: str) -> ca_decks.Deck:
    """A deck file, or a warband's stock deck; a clear error for anything else."""
    if source in WARBAND_CARDS:
        return ca_decks.stock(source)
    path = Path(source)
    if not path.is_file():
        raise fail(f"{source!r} is neither a deck file nor a warband "
                   f"({', '.join(sorted(WARBAND_CARDS))})")
    try:
        return ca_decks.read(path)
    except ca_decks.DeckFileError as error:
        raise fail(str(error)) from None


DEFAULT_DECKS = "dragons,dwarves"


def game_options(game: str, players: int, decks: str | None) -> dict[str, str]:
    """The match options for ``--decks``; every illegal deck is refused with all its reasons
    before anything starts. A Castle Assault match always records its decks (the stock
    Dragons and Dwarves by default), so its log alone shows what each seat played."""
    if game != "castle-assault":
        if decks is not None:
            raise fail(f"--decks is for castle-assault, not {game}")
        return {}
    decks = DEFAULT_DECKS if decks is None else decks
    sources = [s.strip() for s in decks.split(",")]
    if len(sources) != players:
        raise fail(f"--decks names {len(sources)} decks for {players} seats")
    chosen = [read_deck(source) for source in sources]
    reasons = [f"{source}: {reason}" for source, deck in zip(sources, chosen, strict=True)
               for reason in ca_decks.problems(deck)]
    if reasons:
        raise fail("illegal deck:\n  " + "\n  ".join(reasons))
    return {"decks": ca_decks.encode(chosen)}
