"""A Redis connection that pipelines by itself: the hot path's client.

Every command any task issues is packed into one write buffer, and the buffer goes out once per
pass of the event loop; replies come back in order on the same connection and are parsed by
hiredis straight into bytes, ints and lists. So the handlers of one batch, running concurrently
for many matches, share a single write and a single wake-up for their appends, reads and
publications, instead of one awaited round trip each (redis-py's asyncio client costs a
connection checkout, a lock and a wake-up per command: measured about 10x the CPU of a command
sent this way under load, see docs/performance.md).

Rules for using it:
- Never a blocking command (``XREADGROUP BLOCK``, ``BLPOP``) on a shared instance: every command
  queued behind it would wait. A consumer that blocks gets an instance of its own.
- No MULTI/WATCH: commands of different tasks interleave. Atomic steps are Lua scripts.
- Replies are raw (RESP2 as hiredis builds it); an error reply raises ``ResponseError``.

TLS: :meth:`PipelinedRedis.like` of a ``rediss://`` client (redis-py's ``SSLConnection``)
speaks TLS too, with the ``ssl.SSLContext`` redis-py builds from the same ``ssl_*`` arguments
(CA, client certificate, ``ssl_cert_reqs``, ``ssl_check_hostname``).

A lost connection fails every command in flight with ``ConnectionError`` (their callers leave
their entries pending, so they come back: at-least-once) and the next command reconnects.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import ssl
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import hiredis
from redis.asyncio import Redis
from redis.asyncio.connection import RedisSSLContext, SSLConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

Arg = bytes | str | int | float


def bulk(arg: Arg) -> bytes:
    """One argument in RESP (a bulk string), for callers that keep packed pieces."""
    kind = type(arg)  # exact types first: this runs for every argument of every command
    if kind is bytes:
        data: bytes = arg  # type: ignore[assignment]
    elif kind is str:
        data = arg.encode()  # type: ignore[union-attr]
    elif kind is int:
        data = b"%d" % arg
    elif isinstance(arg, bytes | bytearray | memoryview):
        data = bytes(arg)
    else:
        data = repr(arg).encode()
    return b"$%d\r\n" % len(data) + data + b"\r\n"


def pack(args: Sequence[Arg]) -> bytes:
    """One command in RESP: an array of bulk strings. hiredis packs it in C (about a third of
    the time of :func:`bulk` per argument, and every command of the hot path comes here); it
    takes only str, bytes, int and float, so anything else (a memoryview, a bool) goes the slow
    way."""
    try:
        return hiredis.pack_command(tuple(args))
    except TypeError:
        return b"*%d\r\n" % len(args) + b"".join([bulk(arg) for arg in args])


def ssl_context_like(connection_kwargs: dict[str, Any]) -> ssl.SSLContext:
    """The context redis-py's ``SSLConnection`` builds from these pool arguments: its
    ``ssl_<name>`` arguments are ``RedisSSLContext``'s ``<name>``, with SSLConnection's defaults
    (a certificate required, the host name checked) where the URL or caller set none."""
    options: dict[str, Any] = {"cert_reqs": "required", "check_hostname": True}
    options.update({name.removeprefix("ssl_"): value
                    for name, value in connection_kwargs.items() if name.startswith("ssl_")})
    return RedisSSLContext(**options).get()


@functools.lru_cache(maxsize=64)
def _sha1_of(body: str) -> str:
    """The script's SHA1, once per script (hashing a few kB on every call showed in profiles)."""
    return hashlib.sha1(body.encode()).hexdigest()


class _Protocol(asyncio.Protocol):
    def __init__(self, owner: PipelinedRedis) -> None:
        self.owner = owner
        self.reader = hiredis.Reader(replyError=ResponseError)
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # Other event loops' transports (uvloop's) need not subclass asyncio.Transport.
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        waiting = self.owner._waiting
        while True:
            reply = self.reader.gets()
            if reply is False:
                return
            future = waiting.popleft()
            if future.done():  # its caller was cancelled; the reply still had to be read
                continue
            if isinstance(reply, ResponseError):
                future.set_exception(reply)
            else:
                future.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.owner._lost(self, exc)


class PipelinedRedis:
    """One auto-pipelined connection (see the module's docstring). ``commands_sent`` counts
    every command written, a script call once, for the benchmarks; ``total_sent`` all
    instances of this process together. ``ssl_context`` makes it a TLS connection, checked
    against ``server_hostname`` (by default ``host``)."""

    total_sent = 0

    def __init__(self, host: str = "localhost", port: int = 6379, db: int = 0,
                 username: str | None = None, password: str | None = None,
                 path: str | None = None, ssl_context: ssl.SSLContext | None = None,
                 server_hostname: str | None = None) -> None:
        self.host, self.port, self.db, self.path = host, port, db, path
        self.username, self.password = username, password
        self.ssl_context, self.server_hostname = ssl_context, server_hostname
        self._protocol: _Protocol | None = None
        self._connect_lock = asyncio.Lock()
        self._buffer: list[bytes] = []
        self._flush_scheduled = False
        self._waiting: deque[asyncio.Future[Any]] = deque()
        self.commands_sent = 0
        # Connections opened so far: a caller that sees it move knows the link was lost and
        # made again, even when no command of its own failed (nothing was in flight).
        self.connections = 0

    @classmethod
    def like(cls, redis: Redis) -> PipelinedRedis:
        """A connection to the same server, database and user as the redis-py client ``redis``,
        over TLS if that client's is."""
        pool = redis.connection_pool
        kw = pool.connection_kwargs
        tls = ssl_context_like(kw) if issubclass(pool.connection_class, SSLConnection) else None
        return cls(host=kw.get("host", "localhost"), port=int(kw.get("port", 6379)),
                   db=int(kw.get("db", 0) or 0), username=kw.get("username"),
                   password=kw.get("password"), path=kw.get("path"), ssl_context=tls)

    # -- connection ---------------------------------------------------------------------------

    async def _connect(self) -> None:
        async with self._connect_lock:  # one connect for every caller that found none
            if self._protocol is not None:
                return
            try:
                await self._open()
            except OSError as exc:
                raise RedisConnectionError(f"cannot connect to redis: {exc}") from exc

    async def _open(self) -> None:
        loop = asyncio.get_running_loop()
        if self.path:
            _, protocol = await loop.create_unix_connection(lambda: _Protocol(self), self.path)
        else:
            # A failed TLS handshake raises ssl.SSLError, an OSError: _connect reports it.
            tls: dict[str, Any] = {} if self.ssl_context is None else {
                "ssl": self.ssl_context, "server_hostname": self.server_hostname or self.host}
            _, protocol = await loop.create_connection(lambda: _Protocol(self), self.host,
                                                       self.port, **tls)
        self._protocol = protocol
        self.connections += 1
        self._buffer = []  # nothing queued survives a lost connection (see _lost)
        hello: list[list[Arg]] = []
        if self.password:
            hello.append(["AUTH", self.username, self.password] if self.username
                         else ["AUTH", self.password])
        if self.db:
            hello.append(["SELECT", self.db])
        # Sent ahead of whatever callers queued while connecting: it is first in the buffer.
        futures = [self._queue(count=False) for _ in hello]
        if hello:
            self._write([pack(cmd) for cmd in hello])
        try:
            await asyncio.gather(*futures)
        except ResponseError as exc:
            self._close_transport()
            raise RedisConnectionError(f"redis refused the connection: {exc}") from exc

    def _lost(self, protocol: _Protocol, exc: Exception | None) -> None:
        if protocol is not self._protocol:
            return
        self._protocol = None
        waiting, self._waiting = self._waiting, deque()
        # Commands queued and not yet written fail with the rest: written on the next
        # connection, their replies would be taken for other commands' replies.
        self._buffer = []
        error = RedisConnectionError(f"connection to redis lost: {exc or 'closed'}")
        for future in waiting:
            if not future.done():
                future.set_exception(error)

    def _close_transport(self) -> None:
        protocol = self._protocol
        if protocol is not None and protocol.transport is not None:
            protocol.transport.close()

    async def aclose(self) -> None:
        protocol = self._protocol
        self._close_transport()
        if protocol is not None:
            self._lost(protocol, None)  # whatever still waits fails now, not never

    # -- commands -----------------------------------------------------------------------------

    def _queue(self, count: bool = True) -> asyncio.Future[Any]:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        if count:
            self.commands_sent += 1
            PipelinedRedis.total_sent += 1
        return future

    def _write(self, chunks: list[bytes]) -> None:
        assert self._protocol is not None and self._protocol.transport is not None
        self._protocol.transport.write(b"".join(chunks))

    def _flush(self) -> None:
        self._flush_scheduled = False
        if not self._buffer or self._protocol is None:
            return  # while connecting, _open writes the buffer once the link is up
        buffer, self._buffer = self._buffer, []
        self._write(buffer)

    async def execute(self, *args: Arg) -> Any:
        """Sends one command (with every other one issued in this pass of the event loop) and
        returns its raw reply."""
        return await self.send(args)

    def send(self, args: Sequence[Arg]) -> asyncio.Future[Any]:
        """Queues one command now and returns the future of its reply, so a caller can queue
        several before awaiting any (they go out in one write)."""
        return self.send_packed(pack(args))

    def send_packed(self, packed: bytes) -> asyncio.Future[Any]:
        """:meth:`send` for one command its caller packed itself (see :func:`bulk`)."""
        if self._protocol is None:
            return asyncio.ensure_future(self._send_after_connect(packed))
        future = self._queue()
        self._buffer.append(packed)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)
        return future

    async def _send_after_connect(self, packed: bytes) -> Any:
        await self._connect()
        future = self._queue()
        self._buffer.append(packed)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)
        return await future

    async def run_script(self, body: str, keys: Sequence[Arg], args: Sequence[Arg]) -> Any:
        return await run_script(self.send, body, keys, args)


async def run_script(send: Callable[[Sequence[Arg]], Awaitable[Any]], body: str,
                     keys: Sequence[Arg], args: Sequence[Arg]) -> Any:
    """EVALSHA through ``send``, with the script itself when the server does not know it (after
    a restart or a failover): the same fallback redis-py's ``register_script`` has."""
    sha = _sha1_of(body)
    try:
        return await send(["EVALSHA", sha, len(keys), *keys, *args])
    except ResponseError as exc:
        if not str(exc).startswith("NOSCRIPT"):
            raise
    return await send(["EVAL", body, len(keys), *keys, *args])
