"""The clients side of Siegeworks."""
