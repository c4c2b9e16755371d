"""Fair, verifiable dice: committed seeds, HMAC-SHA256 draws, shuffles (spec in docs/dice.md)."""
