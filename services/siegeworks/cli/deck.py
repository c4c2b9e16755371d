"""``siege deck check FILE`` and ``siege deck show WARBAND``: Castle Assault deck lists."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from siege.games.castle_assault import decks as ca_decks
from siege.games.castle_assault.cards import WARBAND_CARDS
from siegeworks.cli.app import app
from siegeworks.cli.common import fail, out

deck_app = typer.Typer(no_args_is_help=True, help="Castle Assault deck lists: check a file, "
                       "show a warband's stock list.")
app.add_typer(deck_app, name="deck")


@deck_app.command("check")
def check(
    file: Annotated[Path, typer.Argument(help="A deck list: plain text or TOML (.toml).")],
) -> None:
    """Say whether a deck list is legal, and if not every reason why (exit 1).

    Plain text: a 'warband: NAME' line, a 'hero: NAME' line, then one card a line with an
    optional count ('2 Soot', '2x Soot' or 'Soot'); '#' starts a comment. TOML: warband = "..",
    hero = "..", and a [cards] table of "Name" = count. Example: siege deck check dragons.txt
    """
    try:
        deck = ca_decks.read(file)
    except ca_decks.DeckFileError as error:
        raise fail(str(error)) from None
    reasons = ca_decks.problems(deck)
    if reasons:
        out.print(f"{file}: illegal deck")
        for reason in reasons:
            out.print(f"  - {reason}")
        raise typer.Exit(1)
    out.print(f"{file}: legal ({sum(deck.cards.values())} cards, {deck.warband}, "
              f"hero {deck.hero})")


@deck_app.command("show")
def show(
    warband: Annotated[str, typer.Argument(help="dragons, dwarves, fae or war-engine.")],
) -> None:
    """Print a warband's stock deck: every card with its count, cost, figures and text.

    Example: siege deck show dwarves"""
    if warband not in WARBAND_CARDS:
        raise fail(f"unknown warband {warband!r}; choose from "
                   f"{', '.join(sorted(WARBAND_CARDS))}")
    for line in ca_decks.show(ca_decks.stock(warband)):
        out.print(line, highlight=False, markup=False)
