"""Tournaments: formats and pairing, standings and tie-breaks, ratings, and the tournament's own
event-sourced aggregate."""
