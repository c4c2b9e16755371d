"""The rules side of Siegeworks."""
