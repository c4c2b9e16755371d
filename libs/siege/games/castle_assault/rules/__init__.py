"""The Castle Assault rules, one concept per module; ``turn.advance`` drives them."""
