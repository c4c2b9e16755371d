"""The steps of a Castle Dash round, one module per step, driven by :mod:`.flow`."""
