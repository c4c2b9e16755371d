"""What the connected Redis guarantees about the match logs, read from the server itself.

A match log is the truth of a match, so three settings decide whether an acknowledged append
survives: ``maxmemory-policy`` (anything but ``noeviction`` lets Redis delete whole logs when
memory is full, silently), persistence (``appendonly``/``appendfsync``, RDB ``save``) and
replication (connected replicas, ``min-replicas-to-write``). :func:`read_guarantees` reads them
with CONFIG GET and INFO; a user that may not run those (the services' ACL users) gets
:class:`NotAllowed`, since then only the operator's user can tell. See docs/durability.md for
the loss window of each setting, measured.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from redis.asyncio import Redis
from redis.exceptions import NoPermissionError, ResponseError

SAFE_POLICY = "noeviction"
CONFIG_NAMES = ("maxmemory", "maxmemory-policy", "appendonly", "appendfsync", "save",
                "min-replicas-to-write")


@dataclass(frozen=True)
class Guarantees:
    """The settings of one Redis that decide whether an acknowledged append survives."""

    maxmemory: int  # bytes; 0 is no limit
    maxmemory_policy: str
    appendonly: bool
    appendfsync: str  # always, everysec or no
    save: str  # RDB snapshot rules, "" when off
    aof_last_write_ok: bool
    connected_replicas: int
    min_replicas_to_write: int

    @property
    def evicts(self) -> bool:
        """True when Redis may delete keys (match logs among them) to make room."""
        return self.maxmemory_policy != SAFE_POLICY

    def describe(self) -> str:
        limit = "no limit" if self.maxmemory == 0 else f"{self.maxmemory} bytes"
        save = self.save or '""'
        return (f"maxmemory {limit}, maxmemory-policy {self.maxmemory_policy}, "
                f"appendonly {'yes' if self.appendonly else 'no'}, "
                f"appendfsync {self.appendfsync}, save {save}, "
                f"{self.connected_replicas} replica(s) connected, "
                f"min-replicas-to-write {self.min_replicas_to_write}")

    def problems(self) -> list[str]:
        """What this Redis may lose of the match logs, one line each; empty when nothing."""
        found = []
        if self.evicts:
            found.append(f"maxmemory-policy {self.maxmemory_policy}: when memory is full Redis "
                         "deletes keys, whole match logs among them, without a warning "
                         f"(set maxmemory-policy {SAFE_POLICY})")
        if not self.appendonly and not self.save:
            found.append('no persistence (appendonly no, save ""): a restart of Redis loses '
                         "every match (set appendonly yes)")
        elif not self.appendonly:
            found.append(f"RDB snapshots only (save {self.save}): a crash loses every write "
                         "since the last snapshot (set appendonly yes)")
        elif self.appendfsync == "everysec":
            found.append("appendfsync everysec: a machine crash (power, kernel) loses up to "
                         "~1 s of acknowledged writes (appendfsync always loses none)")
        elif self.appendfsync == "no":
            found.append("appendfsync no: the kernel writes the file when it likes (~30 s): "
                         "a machine crash loses that much (set appendfsync always)")
        if self.appendonly and not self.aof_last_write_ok:
            found.append("the last write to the append-only file failed: Redis refuses writes "
                         "until it succeeds (see the Redis log)")
        if self.connected_replicas < self.min_replicas_to_write:
            found.append(f"min-replicas-to-write {self.min_replicas_to_write} with "
                         f"{self.connected_replicas} replica(s) connected: Redis refuses every "
                         "write")
        return found


@dataclass(frozen=True)
class NotAllowed:
    """This connection may not read the settings (NOPERM, or a Redis that disables CONFIG)."""

    command: str
    reason: str

    def describe(self) -> str:
        return (f"this user may not run {self.command} ({self.reason}): checking what Redis "
                "guarantees needs the operator's user (siege health with the operator's "
                "REDIS_URL)")


async def read_guarantees(redis: Redis) -> Guarantees | NotAllowed:
    """The connected Redis's eviction, persistence and replication settings."""
    try:
        # One name per CONFIG GET: Redis before 7 takes a single pattern.
        replies = await asyncio.gather(*(redis.config_get(name) for name in CONFIG_NAMES))
    except ResponseError as error:
        return _not_allowed("CONFIG GET", error)
    config = {_text(k): _text(v) for reply in replies for k, v in reply.items()}
    try:
        persistence = await redis.info("persistence")
        replication = await redis.info("replication")
    except ResponseError as error:
        return _not_allowed("INFO", error)
    return Guarantees(
        maxmemory=int(config.get("maxmemory", "0")),
        maxmemory_policy=config.get("maxmemory-policy", ""),
        appendonly=config.get("appendonly") == "yes",
        appendfsync=config.get("appendfsync", ""),
        save=config.get("save", ""),
        aof_last_write_ok=_text(persistence.get("aof_last_write_status", "ok")) == "ok",
        connected_replicas=int(replication.get("connected_slaves", 0)),
        min_replicas_to_write=int(config.get("min-replicas-to-write", "0")),
    )


def _not_allowed(command: str, error: ResponseError) -> NotAllowed:
    if isinstance(error, NoPermissionError) or "unknown command" in str(error).lower():
        return NotAllowed(command, str(error))
    raise error


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
