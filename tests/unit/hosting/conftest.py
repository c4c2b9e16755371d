from __future__ import annotations

import asyncio

import pytest

from siege.engine.registry import register
from siege.eventlog.log import MemoryEventLog
from siege.hosting.export import dump
from siege.hosting.signing import Keyring
from siege.testing.toy import DiceRace
from siegeworks.runner import RunConfig, play_matches

register(DiceRace())


def toy_export(seed: int = 3) -> bytes:
    return toy_export_and_keys(seed)[0]


def toy_export_and_keys(seed: int = 3) -> tuple[bytes, Keyring]:
    """A finished toy match's export, and the keyring its seal verifies against."""
    async def play() -> tuple[bytes, Keyring]:
        log = MemoryEventLog()
        cfg = RunConfig(
            game="dice-race",
            matches=1,
            players=2,
            bots=["random"],
            seed=seed,
            fixed_clock_ms=1_700_000_000_000,
        )
        result = await play_matches(cfg, log)
        assert result.wired is not None
        return dump(await log.read(result.match_ids[0])), result.wired.keyring

    return asyncio.run(play())


@pytest.fixture(scope="session")
def small_export() -> bytes:
    return toy_export()


@pytest.fixture(scope="session")
def small_keyring() -> Keyring:
    return toy_export_and_keys()[1]
