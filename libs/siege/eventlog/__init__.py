"""The match logs: one append-only Redis stream per match, written only by a compare-and-set script.

``keys`` names the Redis keys (the shard count is part of every name), ``log`` holds the
:class:`EventLog` interface with a Redis and an in-memory implementation, ``append.lua`` is the
only writer of a match log, and ``embedded`` starts a private ``redis-server`` for tests and local
runs.
"""
