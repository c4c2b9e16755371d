"""Where archives are kept: a local folder, or a bucket of S3-compatible object storage.

A store is named by a URL: a path or ``file:///srv/siege/archive`` for a folder;
``s3://bucket/prefix`` for object storage through boto3, which takes its credentials and region
the usual way (``AWS_ACCESS_KEY_ID``, ``~/.aws``, an instance role) and its endpoint from
``AWS_ENDPOINT_URL`` or the URL's ``?endpoint=http://host:port`` (MinIO, Ceph, moto, R2...).

Both stores write whole objects or nothing: the folder writes beside the name and renames (an
archiver killed mid-write leaves no half archive under the name), and an S3 PUT is atomic.
boto3 blocks, so its calls run in a thread; one client is shared (boto3 clients are
thread-safe).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qsl, urlsplit


class StoreError(RuntimeError):
    """A store that cannot be reached, read or written; the message is one line."""


class ArchiveStore(Protocol):
    url: str

    async def put(self, name: str, data: bytes) -> None: ...

    async def get(self, name: str) -> bytes | None:
        """The object's bytes, or None when there is none of that name."""
        ...

    async def names(self, prefix: str = "") -> list[str]:
        """Every object name under ``prefix``, sorted."""
        ...

    def where(self, name: str) -> str:
        """The object's address, for people (and the tombstone)."""
        ...


class FolderStore:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.url = root.resolve().as_uri()

    def _path(self, name: str) -> Path:
        if name.startswith("/") or ".." in Path(name).parts:
            raise StoreError(f"{name!r} is no archive name")
        return self.root / name

    async def put(self, name: str, data: bytes) -> None:
        path = self._path(name)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".part-")
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())  # on disk before the log may leave Redis
                os.replace(temp, path)
            finally:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(temp)
        except OSError as error:
            raise StoreError(f"cannot write {path}: {error.strerror or error}") from None

    async def get(self, name: str) -> bytes | None:
        path = self._path(name)
        try:
            return path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as error:
            raise StoreError(f"cannot read {path}: {error.strerror or error}") from None

    async def names(self, prefix: str = "") -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(str(p.relative_to(self.root)) for p in self.root.rglob("*")
                      if p.is_file() and not p.name.startswith(".part-")
                      and str(p.relative_to(self.root)).startswith(prefix))

    def where(self, name: str) -> str:
        return str(self._path(name))


class S3Store:
    def __init__(self, bucket: str, prefix: str = "", endpoint: str | None = None,
                 client: Any = None) -> None:
        import boto3  # only a deployment on object storage pays for importing it

        self.bucket = bucket
        self.prefix = prefix.strip("/") + "/" if prefix.strip("/") else ""
        self.url = f"s3://{bucket}/{self.prefix}"
        self._client = client or boto3.client("s3", endpoint_url=endpoint)

    async def _call(self, what: str, method: str, **kwargs: Any) -> Any:
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            return await asyncio.to_thread(getattr(self._client, method), **kwargs)
        except ClientError as error:
            code = error.response.get("Error", {}).get("Code", "")
            if code in ("NoSuchKey", "404"):
                return None
            raise StoreError(f"{what}: {code or error}") from None
        except BotoCoreError as error:
            raise StoreError(f"{what}: {error}") from None

    async def put(self, name: str, data: bytes) -> None:
        await self._call(f"cannot write {self.where(name)}", "put_object", Bucket=self.bucket,
                         Key=self.prefix + name, Body=data)

    async def get(self, name: str) -> bytes | None:
        reply = await self._call(f"cannot read {self.where(name)}", "get_object",
                                 Bucket=self.bucket, Key=self.prefix + name)
        if reply is None:
            return None
        return await asyncio.to_thread(reply["Body"].read)

    async def names(self, prefix: str = "") -> list[str]:
        found: list[str] = []
        token: str | None = None
        while True:
            args: dict[str, Any] = {"Bucket": self.bucket, "Prefix": self.prefix + prefix}
            if token:
                args["ContinuationToken"] = token
            page = await self._call(f"cannot list {self.url}", "list_objects_v2", **args)
            if page is None:
                break
            found.extend(item["Key"][len(self.prefix):] for item in page.get("Contents", []))
            if not page.get("IsTruncated"):
                break
            token = page.get("NextContinuationToken")
        return sorted(found)

    def where(self, name: str) -> str:
        return f"s3://{self.bucket}/{self.prefix}{name}"


def open_store(url: str) -> ArchiveStore:
    """The store a URL names (see the module notes); StoreError for one it cannot name."""
    parts = urlsplit(url)
    if parts.scheme == "s3":
        if not parts.netloc:
            raise StoreError(f"{url!r}: an S3 archive URL is s3://bucket[/prefix]")
        options = dict(parse_qsl(parts.query))
        return S3Store(parts.netloc, parts.path, options.get("endpoint"))
    if parts.scheme == "file":
        return FolderStore(Path(parts.path))
    if parts.scheme in ("", ) or (len(parts.scheme) == 1 and os.name == "nt"):
        return FolderStore(Path(url))
    raise StoreError(f"{url!r}: an archive is a folder (a path or file:///path) or "
                     "s3://bucket[/prefix]")
