"""The match side of Siegeworks."""
