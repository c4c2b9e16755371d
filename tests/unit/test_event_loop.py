"""Every command and service process runs on uvloop (where it is installed), the loop the
figures in docs/performance.md were measured on."""

from __future__ import annotations

import asyncio
import gc
import sys

import pytest

from siegeworks.cli.common import GC_THRESHOLDS, run_loop


async def loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__


@pytest.mark.skipif(sys.platform == "win32", reason="uvloop has no Windows build")
def test_commands_run_on_uvloop() -> None:
    assert run_loop(loop_module()).startswith("uvloop")


def test_the_loop_returns_what_the_work_returned() -> None:
    async def work() -> int:
        await asyncio.sleep(0)
        return 42

    assert run_loop(work()) == 42


def test_the_collector_runs_less_while_a_loop_runs_and_as_before_after() -> None:
    before = gc.get_threshold()

    async def seen() -> tuple[tuple[int, int, int], int]:
        return gc.get_threshold(), gc.get_freeze_count()

    thresholds, frozen = run_loop(seen())
    assert thresholds == GC_THRESHOLDS != before
    assert frozen > 0  # what existed before the loop is never scanned while it runs
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
