"""The phases of a Sally Forth turn, one module per concept, driven by :mod:`.flow`."""
