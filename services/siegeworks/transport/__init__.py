"""Transports that carry bus messages between service processes.

:mod:`siegeworks.transport.streams` is the Redis Streams one: plain msgpack in field ``m``,
consumer groups created at ``0``, and a small XREADGROUP loop of our own with a claimer, capped
redeliveries and a dead-letter stream (see ``docs/decisions/0002-own-stream-consumer.md``).
"""
