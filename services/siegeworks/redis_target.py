"""Where the logs live: the Redis at ``REDIS_URL``, or an embedded one this process starts.

The embedded server keeps its data in a directory (``SIEGE_DATA_DIR``, else ``redis`` in the
siege home: see :func:`siege_home`) with an append-only file, so ``siege export`` or ``siege
audit`` after ``siege run`` find the matches that run wrote.

``rediss://`` is Redis over TLS; its certificates go in the query, as redis-py's ``ssl_*``
arguments: ``rediss://host:6380/0?ssl_ca_certs=/etc/redis/ca.crt`` (see deploy/redis/tls.md).

``redis+cluster://`` (or ``rediss+cluster://``) is a Redis Cluster, named by one or more seed
nodes separated by commas: ``redis+cluster://user:pw@10.0.0.1:7000,10.0.0.2:7000``. The client
learns every other node from whichever seed answers (:func:`connect`).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import redis
import redis.cluster
from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster

from siege.archive.reading import ArchivingLog
from siege.archive.stores import ArchiveStore, open_store
from siege.eventlog.embedded import COMMAND_LIMITS, EmbeddedRedis

HOME_NAME = ".siege"
SCHEMES = ("redis", "rediss", "unix", "redis+cluster", "rediss+cluster")
CLUSTER_SUFFIX = "+cluster"
SECRET_OPTIONS = ("ssl_password",)  # the passphrase of a rediss:// URL's client key


class RedisUrlError(ValueError):
    """``REDIS_URL`` (or ``--redis-url``) is not a URL redis-py can connect to."""


def redacted(url: str) -> str:
    """The URL with any password (and a client key's passphrase) replaced, fit to print."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if any(name in SECRET_OPTIONS for name, _ in query):
        hidden = [(name, "***" if name in SECRET_OPTIONS else value) for name, value in query]
        parts = parts._replace(query=urlencode(hidden, safe="/*"))
    if parts.password is not None:
        user = f"{parts.username}:" if parts.username else ":"
        hosts = parts.netloc.rpartition("@")[2]  # host:port, or a cluster's seeds
        parts = parts._replace(netloc=f"{user}***@{hosts}")
    return urlunsplit(parts)


def check_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES:
        raise RedisUrlError(f"{redacted(url)!r} is not a Redis URL: it must start with "
                            "redis://, rediss://, unix://, redis+cluster:// or "
                            "rediss+cluster://")
    if is_cluster_url(url):
        try:
            seeds(url)
        except ValueError as error:
            raise RedisUrlError(f"{redacted(url)!r}: {error}") from None
    tls_options = sorted({name for name, _ in parse_qsl(parts.query) if name.startswith("ssl_")})
    if tls_options and parts.scheme != "rediss":
        # redis-py would pass them to a plain connection, which fails with a TypeError.
        raise RedisUrlError(f"{redacted(url)!r} has TLS options ({', '.join(tls_options)}): "
                            "TLS needs a rediss:// URL")
    return url


def is_cluster_url(url: str) -> bool:
    return urlsplit(url).scheme.endswith(CLUSTER_SUFFIX)


def seeds(url: str) -> list[tuple[str, int]]:
    """The seed nodes of a cluster URL, as (host, port); port 6379 where none is given."""
    netloc = urlsplit(url).netloc.rpartition("@")[2]
    found = []
    for part in netloc.split(","):
        host, colon, port = part.strip().rpartition(":")
        if not colon:
            host, port = port, "6379"
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"{part!r} is no host:port")
        found.append((host.strip("[]"), int(port)))
    return found


def plain_url(url: str) -> str:
    """The URL of a cluster URL's first seed, as a plain ``redis://`` (or ``rediss://``) URL
    with its user, password and options: what a tool that speaks to one node takes."""
    parts = urlsplit(url)
    if not is_cluster_url(url):
        return url
    user, at, _ = parts.netloc.rpartition("@")
    host, port = seeds(url)[0]
    return urlunsplit(parts._replace(scheme=parts.scheme.removesuffix(CLUSTER_SUFFIX),
                                     netloc=f"{user}{at}{host}:{port}"))


def connect(url: str, **options: Any) -> Redis | RedisCluster:
    """A redis-py client for ``url``: a :class:`RedisCluster` for a cluster URL (every seed a
    startup node), else a plain :class:`Redis`. ``options`` go to either (``max_connections``,
    ``decode_responses``, ...)."""
    check_url(url)
    if not is_cluster_url(url):
        return Redis.from_url(url, **options)
    nodes = [ClusterNode(host, port) for host, port in seeds(url)]
    return RedisCluster.from_url(plain_url(url), **options, startup_nodes=nodes)


def connect_sync(url: str, **options: Any) -> redis.Redis | redis.RedisCluster:
    """:func:`connect`'s blocking twin (redis-py's synchronous clients)."""
    check_url(url)
    if not is_cluster_url(url):
        return redis.Redis.from_url(url, **options)
    nodes = [redis.cluster.ClusterNode(host, port) for host, port in seeds(url)]
    return redis.RedisCluster.from_url(plain_url(url), **options, startup_nodes=nodes)


def siege_home() -> Path:
    """Where ``siege`` keeps its files (the embedded Redis's data, service logs, the signing
    key): ``SIEGE_HOME``; else ``.siege`` at the root of the checkout this code runs from, the
    same folder from wherever in the checkout a command is run; else, for a copy installed
    without a checkout, ``.siege`` in the current folder."""
    named = os.environ.get("SIEGE_HOME")
    if named:
        return Path(named)
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "services" / "siegeworks").is_dir():
        return root / HOME_NAME
    return Path(HOME_NAME)


def data_dir() -> Path:
    """The embedded Redis's data folder: ``SIEGE_DATA_DIR``, else ``redis`` in the home."""
    named = os.environ.get("SIEGE_DATA_DIR")
    return Path(named) if named else siege_home() / "redis"


ARCHIVE_ENV = "SIEGE_ARCHIVE"


def archive_url() -> str:
    """Where finished matches are archived: ``SIEGE_ARCHIVE`` (a folder, ``file:///path`` or
    ``s3://bucket/prefix``: siege.archive.stores), else ``archive`` in the siege home."""
    return os.environ.get(ARCHIVE_ENV) or str(siege_home() / "archive")


def archive_store() -> ArchiveStore:
    return open_store(archive_url())


@asynccontextmanager
async def open_log(redis_url: str | None) -> AsyncIterator[tuple[ArchivingLog, str, str]]:
    """Yields the log, a description of where it is, and its URL."""
    if redis_url:
        client = connect(redis_url)
        try:
            yield ArchivingLog(client, archive_store()), redacted(redis_url), redis_url
        finally:
            await client.aclose()
        return
    folder = data_dir().resolve()
    folder.mkdir(parents=True, exist_ok=True)
    # Never evict (a match log is the only copy of a match; docs/durability.md): said here
    # although it is Redis' default, since a config file could say otherwise.
    persist = ("--dir", str(folder), "--appendonly", "yes", "--appendfsync", "everysec",
               "--maxmemory-policy", "noeviction")
    async with EmbeddedRedis(extra_args=(*persist, *COMMAND_LIMITS)) as server:
        client = Redis.from_url(server.url)
        try:
            yield (ArchivingLog(client, archive_store()), f"embedded redis (data in {folder})",
                   server.url)
        finally:
            await client.aclose()
