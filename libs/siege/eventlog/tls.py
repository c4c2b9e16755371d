"""Certificates for running Redis over TLS (``rediss://``) in tests and local runs.

:func:`make_certificates` writes a throw-away certificate authority and one certificate it
signed, valid for ``localhost`` and ``127.0.0.1`` and usable by both ends: the server presents
it, and a client presents it too where the server asks clients for one (Redis does by default,
``tls-auth-clients yes``). They are made with the ``openssl`` command line, so no Python
package is needed. A deployment uses certificates of its own CA instead (deploy/redis/tls.md).
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

DAYS = 30
_EXTENSIONS = (
    "basicConstraints=critical,CA:FALSE\n"
    "keyUsage=critical,digitalSignature,keyEncipherment\n"
    "extendedKeyUsage=serverAuth,clientAuth\n"
    "subjectAltName=DNS:localhost,IP:127.0.0.1\n"
)


class TlsError(RuntimeError):
    """No ``openssl`` command, or it failed to make the certificates."""


@dataclass(frozen=True)
class TlsFiles:
    """PEM files for one TLS setup: the CA that both ends trust, and a certificate with its key."""

    ca_cert: Path
    cert: Path
    key: Path


def _openssl(*args: str) -> None:
    binary = shutil.which("openssl")
    if binary is None:
        raise TlsError("no openssl command on PATH")
    done = subprocess.run([binary, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise TlsError(f"openssl {args[0]} failed:\n{done.stderr.strip()}")


def make_certificates(directory: Path, days: int = DAYS) -> TlsFiles:
    """A fresh CA and a certificate for localhost/127.0.0.1 it signed, written in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    files = TlsFiles(ca_cert=directory / "ca.crt", cert=directory / "redis.crt",
                     key=directory / "redis.key")
    ca_key, csr, extensions = directory / "ca.key", directory / "redis.csr", directory / "ext.cnf"
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", str(days),
             "-subj", "/CN=siegeworks test CA", "-keyout", str(ca_key),
             "-out", str(files.ca_cert))
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-sha256", "-subj", "/CN=localhost",
             "-keyout", str(files.key), "-out", str(csr))
    extensions.write_text(_EXTENSIONS)
    _openssl("x509", "-req", "-in", str(csr), "-CA", str(files.ca_cert), "-CAkey", str(ca_key),
             "-CAcreateserial", "-days", str(days), "-sha256", "-extfile", str(extensions),
             "-out", str(files.cert))
    return files
