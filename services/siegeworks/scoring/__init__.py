"""The scoring side of Siegeworks."""
