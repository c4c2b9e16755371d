"""Bots choose from a seat's view and legal actions only, as any outside client would."""
