"""The hot path's client on a Redis Cluster: one auto-pipelined connection per master.

:class:`~siege.eventlog.pipelined.PipelinedRedis` talks to one server. On a cluster each command
must reach the master serving its key's slot, so :class:`ClusterPipelinedRedis` keeps one
``PipelinedRedis`` per master and a map of the 16,384 slots (``CLUSTER SLOTS``), and sends each
command to the master of its first key. Commands of one pass of the event loop for the same
master still leave in one write.

When the map is wrong the cluster says so and the command is sent again (redirected at most
:data:`MAX_REDIRECTS` times; a lost master waited for up to ``failover_wait_s``):
- ``MOVED <slot> <host>:<port>``: the slot lives elsewhere for good (a failover, a resharding):
  the slot is pointed there and the whole map read again;
- ``ASK <slot> <host>:<port>``: the slot is being migrated and this key already moved: the
  command goes there once, after ``ASKING``, and the map stays;
- a lost or refused connection (a master killed): the map is read again from the nodes that
  answer, after a short wait, since the others name the dead master until they have noticed it
  (the cluster's node timeout) and promoted its replica.
What still fails after that (``CLUSTERDOWN``, a connection error) is Redis refusing, and the
services' consumers hold such entries until Redis accepts (siegeworks.transport.streams).

The same interface as ``PipelinedRedis`` for what the event log and the bus use: ``execute``,
``send``, ``run_script``, ``aclose``, ``commands_sent``, ``connections``. No blocking command
goes through it (each consumer reads on a connection of its own).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from typing import Any

import redis.crc
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import SSLConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

from siege.eventlog.pipelined import Arg, PipelinedRedis, run_script, ssl_context_like

SLOTS = 16384
MAX_REDIRECTS = 5
RETRY_WAIT_S = 0.2
"""The wait before the map is read again after a lost connection (doubled each time, up to
RETRY_WAIT_MAX_S)."""
RETRY_WAIT_MAX_S = 1.0
FAILOVER_WAIT_S = 10.0
"""How long a command waits for a lost master's slots to be served again (the cluster's node
timeout, then the promotion) before its caller is told, as Redis being unreachable."""

Address = tuple[str, int]


def _word(arg: Arg) -> str:
    return (arg.decode(errors="replace") if isinstance(arg, bytes) else str(arg)).upper()


def key_position(args: Sequence[Arg]) -> int | None:
    """Where a command's first key stands, or None for a command with no key."""
    name = _word(args[0])
    if name in ("EVALSHA", "EVAL", "EVALSHA_RO", "EVAL_RO"):
        return 3 if int(args[2]) > 0 else None
    if name in ("XREAD", "XREADGROUP"):
        words = [_word(arg) for arg in args]
        return words.index("STREAMS") + 1 if "STREAMS" in words else None
    return 1 if len(args) > 1 else None


def _slot(key: Arg) -> int:
    data = key if isinstance(key, bytes) else str(key).encode()
    return int(redis.crc.key_slot(data))


def _address(reply: str) -> tuple[int, Address]:
    """``MOVED 3999 127.0.0.1:6381`` (or ASK) as (slot, (host, port))."""
    _, slot, where = reply.split(" ", 2)
    host, _, port = where.rpartition(":")
    return int(slot), (host, int(port))


class ClusterPipelinedRedis:
    """Auto-pipelined connections to every master of a cluster, found from ``seeds``.

    ``username``, ``password`` and ``ssl_context`` are used for every node, as a cluster's
    nodes share their users."""

    def __init__(self, seeds: Sequence[Address], *, username: str | None = None,
                 password: str | None = None, failover_wait_s: float = FAILOVER_WAIT_S,
                 **connection: Any) -> None:
        if not seeds:
            raise ValueError("a cluster client needs at least one seed node")
        self._seeds = list(seeds)
        self._options: dict[str, Any] = {"username": username, "password": password,
                                         **connection}
        self._nodes: dict[Address, PipelinedRedis] = {}
        self._slots: list[Address | None] = [None] * SLOTS
        self._refreshing: asyncio.Lock | None = None
        self.failover_wait_s = failover_wait_s
        self.refreshes = 0

    @classmethod
    def like(cls, cluster: RedisCluster) -> ClusterPipelinedRedis:
        """Connections to the masters of the cluster of the redis-py client ``cluster``, as its
        user, over TLS if it uses TLS; seeded with the nodes it knows."""
        kw = cluster.get_connection_kwargs()
        nodes = cluster.get_nodes() or cluster.nodes_manager.startup_nodes.values()
        seeds = [(node.host, int(node.port)) for node in nodes]
        tls = (ssl_context_like(kw) if issubclass(kw.get("connection_class") or object,
                                                  SSLConnection) else None)
        return cls(seeds, username=kw.get("username"), password=kw.get("password"),
                   ssl_context=tls)

    @property
    def commands_sent(self) -> int:
        return sum(node.commands_sent for node in self._nodes.values())

    @property
    def connections(self) -> int:
        return sum(node.connections for node in self._nodes.values())

    def _node(self, address: Address) -> PipelinedRedis:
        node = self._nodes.get(address)
        if node is None:
            node = self._nodes[address] = PipelinedRedis(host=address[0], port=address[1],
                                                         **self._options)
        return node

    # -- the slot map -------------------------------------------------------------------------

    async def refresh(self) -> None:
        """Reads ``CLUSTER SLOTS`` from the first node that answers (known masters first,
        then the seeds) and points every slot at its master."""
        if self._refreshing is None:
            self._refreshing = asyncio.Lock()
        async with self._refreshing:
            candidates = list(dict.fromkeys([*self._nodes, *self._seeds]))
            last: Exception | None = None
            for address in candidates:
                # A seed that is no master (yet) is asked on a connection of its own, closed
                # after: the hot path keeps connections to masters only.
                known = address in self._nodes
                asked = self._nodes[address] if known else PipelinedRedis(
                    host=address[0], port=address[1], **self._options)
                try:
                    rows = await asked.execute("CLUSTER", "SLOTS")
                except (RedisConnectionError, ResponseError, OSError) as exc:
                    last = exc
                    continue
                finally:
                    if not known:
                        await asked.aclose()
                slots: list[Address | None] = [None] * SLOTS
                for row in rows:
                    start, end, master = int(row[0]), int(row[1]), row[2]
                    host = master[0].decode() if isinstance(master[0], bytes) else master[0]
                    slots[start:end + 1] = [(host, int(master[1]))] * (end - start + 1)
                self._slots = slots
                self.refreshes += 1
                self._seeds = list(dict.fromkeys([*self._seeds, *filter(None, set(slots))]))
                return
            raise RedisConnectionError(f"no cluster node answered CLUSTER SLOTS: {last}")

    async def _master_of(self, slot: int) -> Address:
        address = self._slots[slot]
        if address is None:
            await self.refresh()
            address = self._slots[slot]
            if address is None:
                raise RedisConnectionError(f"CLUSTERDOWN no master serves slot {slot}")
        return address

    # -- commands -----------------------------------------------------------------------------

    async def execute(self, *args: Arg) -> Any:
        return await self.send(args)

    def send(self, args: Sequence[Arg]) -> asyncio.Future[Any]:
        """Queues one command for its slot's master; the future of its reply."""
        position = key_position(args)
        slot = _slot(args[position]) if position is not None and position < len(args) else 0
        address = self._slots[slot]
        if address is not None:  # the common case: queued in this pass, no task of its own
            first = self._node(address).send(args)
            return asyncio.ensure_future(self._settle(first, args, slot))
        return asyncio.ensure_future(self._send(args, slot))

    async def _settle(self, first: asyncio.Future[Any], args: Sequence[Arg], slot: int) -> Any:
        try:
            return await first
        except (ResponseError, RedisConnectionError) as exc:
            return await self._send(args, slot, exc)

    async def _send(self, args: Sequence[Arg], slot: int,
                    failed: Exception | None = None) -> Any:
        wait = RETRY_WAIT_S
        give_up = asyncio.get_running_loop().time() + self.failover_wait_s
        redirects = 0
        while True:
            if failed is not None:
                message = str(failed)
                if isinstance(failed, ResponseError) and message.startswith(("MOVED ", "ASK ")):
                    redirects += 1
                    if redirects > MAX_REDIRECTS:
                        raise failed
                if isinstance(failed, ResponseError) and message.startswith("MOVED "):
                    moved_slot, address = _address(message)
                    self._slots[moved_slot] = address
                    await self.refresh()
                elif isinstance(failed, ResponseError) and message.startswith("ASK "):
                    _, address = _address(message)
                    node = self._node(address)
                    asking = node.send(["ASKING"])
                    reply = node.send(args)
                    await asking
                    return await reply
                elif isinstance(failed, RedisConnectionError):
                    if asyncio.get_running_loop().time() + wait > give_up:
                        raise failed
                    await asyncio.sleep(wait)
                    wait = min(wait * 2, RETRY_WAIT_MAX_S)
                    with contextlib.suppress(RedisConnectionError):  # no node yet: wait more
                        await self.refresh()
                else:
                    raise failed
            try:
                return await self._node(await self._master_of(slot)).send(args)
            except (ResponseError, RedisConnectionError) as exc:
                failed = exc

    async def client_id(self, slot: int) -> tuple[Address, int]:
        """The master serving ``slot`` and the CLIENT ID of this client's connection to it (the
        connection a command of that slot goes on): what CLIENT UNBLOCK, sent there from
        another connection, names to end a blocking read of the slot early."""
        address = await self._master_of(slot)
        return address, int(await self._node(address).execute("CLIENT", "ID"))

    async def run_script(self, body: str, keys: Sequence[Arg], args: Sequence[Arg]) -> Any:
        """On the master of the script's first key, loaded there if that node does not know it
        yet (a promoted replica, a node restarted)."""
        return await run_script(self.send, body, keys, args)

    async def aclose(self) -> None:
        for node in list(self._nodes.values()):
            await node.aclose()


def pipelined_like(redis: Redis | RedisCluster) -> PipelinedRedis | ClusterPipelinedRedis:
    """The hot path's auto-pipelined client for whichever redis-py client ``redis`` is."""
    if isinstance(redis, RedisCluster):
        return ClusterPipelinedRedis.like(redis)
    return PipelinedRedis.like(redis)
