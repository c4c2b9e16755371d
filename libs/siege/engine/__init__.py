"""The protocol every game engine implements, and the registry of hosted games."""
