"""Every ``siege`` command imports the whole command line to find itself: the services'
machinery (runners, clients, supervisor, web app) is imported only by the commands that use
it, or ``siege --help`` and every light command would take twice as long to start."""

from __future__ import annotations

import json
import subprocess
import sys

# Imported by a command that plays, serves or watches, never by the command line itself.
HEAVY = ("siegeworks.serve", "siegeworks.supervisor", "siegeworks.runner",
         "siegeworks.remote_run", "siegeworks.tournament_run", "siegeworks.web.app",
         "siegeworks.clients.remote", "siegeworks.clients.human", "siegeworks.clients.joiner",
         "siegeworks.clients.watcher", "siegeworks.conformance", "siegeworks.context",
         "uvicorn", "starlette")


def test_the_command_line_imports_no_service_machinery() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import json, sys; import siegeworks.cli; "
         "print(json.dumps(sorted(sys.modules)))"],
        capture_output=True, text=True, timeout=60, check=True)
    loaded = set(json.loads(done.stdout))
    assert "siegeworks.cli.matches" in loaded and "siegeworks.cli.web" in loaded
    assert sorted(m for m in HEAVY if m in loaded) == []

