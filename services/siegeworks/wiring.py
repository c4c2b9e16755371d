"""Wires the four services' handlers onto one bus (the in-process main job and tests)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from functools import partial

from siege.eventlog.log import EventLog
from siege.hosting.clock import Clock
from siege.hosting.signing import Keyring, new_key, record_of, seeded_key
from siegeworks import bus as topics
from siegeworks.bus import InMemoryBus
from siegeworks.context import ServiceContext
from siegeworks.dice import handlers as dice
from siegeworks.match import handlers as match
from siegeworks.rules import handlers as rules
from siegeworks.scoring import handlers as scoring


@dataclass
class Wired:
    bus: InMemoryBus
    results: scoring.ResultsProjection
    vault: dice.SeedVault
    contexts: dict[str, ServiceContext]
    keyring: Keyring  # the signing key's public half: audits check the seals against it


def wire_in_process(log: EventLog, clock: Clock, master_seed: bytes | None) -> Wired:
    bus = InMemoryBus()
    ctx = {name: ServiceContext.create(name, log, bus, clock)
           for name in ("match", "rules", "dice", "scoring")}
    # Tokens live as long as this process; the match service signs them, the rules check them.
    ctx["match"].seat_secret = ctx["rules"].seat_secret = secrets.token_bytes(32)
    vault = dice.SeedVault(master_seed)
    results = scoring.ResultsProjection()
    # A seeded run signs with a key of its seed, so its logs are the same bytes every time.
    signer = new_key() if master_seed is None else seeded_key(master_seed)
    ctx["dice"].signing_key = lambda: signer
    record = record_of(signer, clock.now_ms())

    bus.subscribe(topics.COMMANDS, partial(match.on_command, ctx["match"]))
    bus.subscribe(topics.COMMANDS, partial(rules.on_command, ctx["rules"]))
    bus.subscribe(topics.LOG, partial(rules.on_log_appended, ctx["rules"]))
    bus.subscribe(topics.LOG, partial(dice.on_log_appended, ctx["dice"], vault))
    bus.subscribe(topics.LOG, partial(scoring.on_log_appended, ctx["scoring"], results))
    return Wired(bus, results, vault, ctx, {record.key: record})
