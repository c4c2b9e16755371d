"""One package per hosted game: its engine, card or board data, views and bots."""
