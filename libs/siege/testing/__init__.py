"""Helpers for tests: a tiny game to exercise hosting without a real game's bulk."""
