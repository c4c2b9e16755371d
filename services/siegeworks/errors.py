"""Errors that end a command with one line for a person (``siegeworks.cli.common.run_async``),
kept apart from the code that raises them: the command line names them without importing the
services' machinery, which would cost every ``siege`` command its start-up time."""

from __future__ import annotations


class StalledError(RuntimeError):
    """Matches played through the services stopped advancing."""


class ServiceStartError(RuntimeError):
    """A service process exited or did not report healthy in time."""


class JoinRefusedError(RuntimeError):
    """The match service refused a client's join (the reason is the message)."""


class InputEndedError(EOFError):
    """The terminal's input ended (Ctrl-D, a closed pipe) while a decision was open."""
