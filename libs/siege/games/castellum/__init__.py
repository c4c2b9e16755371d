"""Castellum: Maastricht, a pure rules engine (see README.md in this package)."""
