"""The dice side of Siegeworks."""
