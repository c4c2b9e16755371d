"""One client's credentials on a live Redis: issue, rotate, revoke, list.

Plain async functions on a redis-py asyncio client connected as an operator (a user allowed the
``ACL`` commands, e.g. ``operator`` in ``deploy/redis/users.acl``). Each touches one ACL user,
``client-<id>`` (rules from :func:`siege.eventlog.acl.client_rules`), and leaves every other user
and its connections alone.

- :func:`issue` creates the user with a fresh password, adds the id to the registry
  (:data:`~siege.eventlog.keys.CLIENTS_KEY`) and rings the doorbell
  (:data:`~siege.eventlog.keys.CLIENTS_CHANGED_STREAM`), so the services read its commands.
- :func:`rotate` replaces the password: the old one no longer authenticates, but connections
  already signed in with it stay (Redis checks a password only at AUTH). To cut them off as
  well, revoke and issue again, or issue with ``replace=True``.
- :func:`revoke` deletes the user, which closes every connection signed in as it at once
  (Redis does so on ``ACL DELUSER``), removes the id from the registry and rings the doorbell.

After each change ``ACL SAVE`` writes the users to the server's aclfile, so the change survives
a restart. A server without an aclfile refuses ACL SAVE: the change then lasts until the server
restarts, which is passed to ``warn`` rather than raised (the change itself was made).

Issue is check-then-set (ACL commands cannot run in a script): two operators issuing the same id
at the same moment both succeed, and the later password wins.

On a Redis Cluster (``redis`` a ``RedisCluster``) every node keeps its own users, so each ACL
command goes to every node, replicas included (a replica promoted by a failover must know the
clients of its slots): a client exists if any node knows it, and ACL SAVE runs on each node.
There a replacing issue deletes and creates the user in two steps (a cluster runs no
transaction across nodes): between them the client cannot sign in anywhere. A node added to
the cluster later gets the users from the aclfile copied to it (deploy/redis/credentials.md).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoPermissionError, ResponseError

from siege.eventlog.acl import client_rules
from siege.eventlog.keys import (
    CLIENTS_CHANGED_STREAM,
    CLIENTS_KEY,
    gateway_of,
    valid_client_id,
)

USER_PREFIX = "client-"
PASSWORD_BYTES = 32


class CredentialsError(Exception):
    """A change to a client's credentials that was refused; the message is one line."""


class ClientExistsError(CredentialsError):
    """Issuing a client whose user exists already (without ``replace``)."""


class UnknownClientError(CredentialsError):
    """Rotating or revoking a client that has no user."""


@dataclass(frozen=True)
class ClientEntry:
    """A client as the server knows it: an ACL user, a registry entry, or both."""

    client: str
    has_user: bool
    registered: bool


Warn = Callable[[str], None]


def _ignore(message: str) -> None:
    pass


def user_name(client: str) -> str:
    """The ACL user of a client: ``client-<id>``."""
    return USER_PREFIX + client


def _checked(client: str) -> str:
    if not valid_client_id(client):
        raise CredentialsError(f"invalid client id {client!r}: 1-64 of A-Z a-z 0-9 _ . -")
    return client


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())


async def _command(redis: Redis, *args: str) -> Any:
    """Runs one command; a refusal by the server becomes a :class:`CredentialsError`."""
    try:
        return await redis.execute_command(*args)
    except NoPermissionError as error:
        raise CredentialsError(f"the Redis user may not run {' '.join(args[:2])}: connect as "
                               f"the operator ({_one_line(error)})") from None
    except ResponseError as error:
        raise CredentialsError(f"{' '.join(args[:2])} failed: {_one_line(error)}") from None


async def _acl(redis: Redis, *args: str) -> list[Any]:
    """One ACL command on the server, or on every node of a cluster; its replies, one a node.
    A refusal by any node becomes a :class:`CredentialsError` naming the command."""
    if not isinstance(redis, RedisCluster):
        return [await _command(redis, *args)]
    made: list[ClusterNode] = []
    try:
        nodes = await _every_node(redis, made)
        # The nodes themselves, not the ALL_NODES flag: redis-py 8.1 looks for a key in an
        # ACL command sent with a flag, and finds none.
        replies = await redis.execute_command(*args, target_nodes=nodes)
    except NoPermissionError as error:
        raise CredentialsError(f"the Redis user may not run {' '.join(args[:2])}: connect as "
                               f"the operator ({_one_line(error)})") from None
    except ResponseError as error:
        raise CredentialsError(f"{' '.join(args[:2])} failed: {_one_line(error)}") from None
    except RedisConnectionError as error:  # a node the cluster still lists, down since
        raise CredentialsError(f"{' '.join(args[:2])} failed: a node did not answer "
                               f"({_one_line(error)}); run it again once every node is up, "
                               "or the cluster has marked it failed") from None
    finally:
        for node in made:
            await node.disconnect()
    # redis-py answers a command sent to several nodes with a reply per node name (one node:
    # the reply itself).
    return list(replies.values()) if isinstance(replies, dict) else [replies]


async def _every_node(redis: RedisCluster, made: list[ClusterNode]) -> list[ClusterNode]:
    """Every node of the cluster that is up, replicas included, as the cluster itself lists
    them (CLUSTER NODES: redis-py knows only the replicas that CLUSTER SLOTS lists, which
    leaves out one still syncing); nodes redis-py does not know are made and added to
    ``made``, for the caller to close."""
    await redis.initialize()  # no-op once the nodes are known
    listing = await redis.execute_command("CLUSTER", "NODES",
                                          target_nodes=redis.get_default_node())
    nodes: list[ClusterNode] = []
    for line in _text(listing).splitlines():
        fields = line.split()
        if len(fields) < 3 or {"fail", "handshake", "noaddr"} & set(fields[2].split(",")):
            continue
        host, _, port = fields[1].split("@")[0].rpartition(":")
        node = redis.get_node(host=host, port=int(port))
        if node is None:
            node = ClusterNode(host, int(port), **redis.get_connection_kwargs())
            made.append(node)
        nodes.append(node)
    return nodes


async def _user_exists(redis: Redis, client: str) -> bool:
    return any(reply is not None
               for reply in await _acl(redis, "ACL", "GETUSER", user_name(client)))


DOORBELL_MAXLEN = 1_000
"""Rings kept (about) on the doorbell, as the services keep it
(``siegeworks.transport.bounds.DOORBELL_MAXLEN``, which a test holds equal): the registry
itself is the record, a ring only says "read it again"."""


async def _ring(redis: Redis, client: str) -> None:
    await _command(redis, "XADD", CLIENTS_CHANGED_STREAM, "MAXLEN", "~", DOORBELL_MAXLEN, "*",
                   "c", client)


async def _save(redis: Redis, warn: Warn) -> None:
    """ACL SAVE (on every node of a cluster); a refusal (no aclfile, a read-only one) is a
    warning: the change is live."""
    try:
        await _acl(redis, "ACL", "SAVE")
    except CredentialsError as error:
        reason = str(error).removeprefix("ACL SAVE failed: ").split(". ")[0]
        warn(f"the change lasts until Redis restarts: ACL SAVE refused ({reason})")


async def _set_password(redis: Redis, client: str, *rules: str) -> str:
    password = secrets.token_urlsafe(PASSWORD_BYTES)
    await _acl(redis, "ACL", "SETUSER", user_name(client), *rules, f">{password}")
    return password


async def issue(redis: Redis, client: str, *, replace: bool = False,
                warn: Warn = _ignore) -> str:
    """Creates the client's user with a fresh password, which is returned, and registers it.

    A client that has a user already is refused (:class:`ClientExistsError`) unless
    ``replace``: then the old user is deleted first, in the same transaction, so its password
    and its open connections are gone as with :func:`revoke`. An id under a gateway's people
    prefix is refused: only that gateway speaks for it (``siege.eventlog.keys.GATEWAYS``)."""
    _checked(client)
    if gateway_of(client) is not None:
        raise CredentialsError(f"client id {client!r} is under gateway {gateway_of(client)}'s "
                               "people prefix: only that gateway speaks for such ids")
    if await _user_exists(redis, client):
        if not replace:
            raise ClientExistsError(f"client {client!r} exists already: rotate its password "
                                    "or replace the client")
        if isinstance(redis, RedisCluster):
            await _acl(redis, "ACL", "DELUSER", user_name(client))
            return await _registered(redis, client, await _set_password(
                redis, client, "reset", *client_rules(client)), warn)
        password = secrets.token_urlsafe(PASSWORD_BYTES)
        async with redis.pipeline(transaction=True) as tx:
            tx.execute_command("ACL", "DELUSER", user_name(client))
            tx.execute_command("ACL", "SETUSER", user_name(client), "reset",
                               *client_rules(client), f">{password}")
            try:
                await tx.execute()
            except ResponseError as error:
                raise CredentialsError(f"ACL SETUSER failed: {_one_line(error)}") from None
    else:
        password = await _set_password(redis, client, "reset", *client_rules(client))
    return await _registered(redis, client, password, warn)


async def _registered(redis: Redis, client: str, password: str, warn: Warn) -> str:
    """After a client's user is made: registers it, rings the doorbell and saves the users."""
    await _command(redis, "SADD", CLIENTS_KEY, client)
    await _ring(redis, client)
    await _save(redis, warn)
    return password


async def rotate(redis: Redis, client: str, *, warn: Warn = _ignore) -> str:
    """Replaces the client's password with a fresh one, which is returned; its rules stay.

    The old password no longer authenticates; connections already signed in with it stay
    open. Unknown clients are refused (:class:`UnknownClientError`)."""
    _checked(client)
    if not await _user_exists(redis, client):
        raise UnknownClientError(f"unknown client {client!r}: issue it first")
    password = await _set_password(redis, client, "resetpass")
    await _save(redis, warn)
    return password


async def revoke(redis: Redis, client: str, *, warn: Warn = _ignore) -> None:
    """Deletes the client's user, which closes its open connections at once, and takes it out
    of the registry. A client with neither a user nor a registry entry is refused
    (:class:`UnknownClientError`)."""
    _checked(client)
    deleted = sum(await _acl(redis, "ACL", "DELUSER", user_name(client)))
    removed = await _command(redis, "SREM", CLIENTS_KEY, client)
    if not deleted and not removed:
        raise UnknownClientError(f"unknown client {client!r}: nothing to revoke")
    await _ring(redis, client)
    await _save(redis, warn)


async def list_clients(redis: Redis) -> list[ClientEntry]:
    """Every client with a ``client-<id>`` user or a registry entry, by id.

    A user without an entry cannot be heard by the services (e.g. one loaded from an ACL file
    without ``siege acl issue``); an entry without a user is a client that added itself on a
    server without ACLs."""
    users = {name.removeprefix(USER_PREFIX)
             for names in await _acl(redis, "ACL", "USERS") for name in map(_text, names)
             if name.startswith(USER_PREFIX)}
    registered = {_text(c) for c in await _command(redis, "SMEMBERS", CLIENTS_KEY)}
    return [ClientEntry(client=c, has_user=c in users, registered=c in registered)
            for c in sorted(users | registered)]
