"""Every ``siege`` command's help shows an example, and the options that mean the same thing
are spelt and defaulted the same way everywhere."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer.main

from siegeworks.cli import app


def commands(command: Any = None, prefix: str = "") -> Iterator[tuple[str, Any]]:
    command = command or typer.main.get_command(app)
    subs = getattr(command, "commands", None)
    if subs:
        for name, sub in subs.items():
            yield from commands(sub, f"{prefix}{name} ")
    else:
        yield prefix.strip(), command


def test_every_command_has_an_example() -> None:
    missing = [name for name, command in commands() if "Example" not in (command.help or "")]
    assert missing == []


def test_shared_options_agree_across_commands() -> None:
    """The same name, spelling and default wherever an option means the same thing (``acl``
    names the client it administers as an argument: it is the subject, not you)."""
    seen: dict[str, set[tuple[Any, ...]]] = {}
    for name, command in commands():
        for param in command.params:
            if param.name == "client" and name.startswith("acl "):
                continue
            if param.name in ("seed", "bots", "bot", "redis_url", "client", "players"):
                seen.setdefault(param.name, set()).add((tuple(param.opts), param.default))
    assert seen["seed"] == {(("--seed",), None)}  # unseeded unless asked
    assert seen["bots"] == {(("--bots",), "greedy,random")}
    assert seen["bot"] == {(("--bot",), "random")}
    assert {opts for opts, _ in seen["redis_url"]} == {("--redis-url",)}
    assert {opts for opts, _ in seen["client"]} == {("--client",)}
    assert {opts for opts, _ in seen["players"]} == {("--players",)}
