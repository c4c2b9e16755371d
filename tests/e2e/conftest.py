"""The four services as separate processes, for end-to-end tests."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio

from siegeworks.supervisor import ServiceProcesses


@pytest.fixture
def services(redis_url: str, redis_client: redis.asyncio.Redis, tmp_path: Path,
             run: Callable[[Awaitable[Any]], Any]) -> Iterator[ServiceProcesses]:
    """Match, rules, dice and scoring on the test's Redis; each must exit cleanly at the end."""
    procs = ServiceProcesses(redis_url, tmp_path / "logs", {"SIEGE_CLAIM_IDLE_MS": "500"})
    procs.start_all()
    try:
        run(procs.wait_healthy(redis_client))
    except BaseException:
        procs.stop_all()  # never left running for the tests after this one
        raise
    yield procs
    codes = procs.stop_all()
    assert all(code == 0 for service, code in codes.items() if service in procs.procs)
