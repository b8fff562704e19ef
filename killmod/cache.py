"""Fetched pages kept on disk, one file per URL, with the time they were fetched.

Each page is two files named by the SHA-256 of its URL: ``HASH.html`` (the bytes as the
board sent them) and ``HASH.json`` (``url``, ``fetched_at``, ``header_charset``).  Both are
written to a temporary file and moved into place (``os.replace``), the JSON last: a page
is in the cache once its JSON is, so a reader never sees half a page.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from platformdirs import user_cache_path

from killmod.errors import BadInput


@dataclass(frozen=True)
class Fetched:
    """One fetched page: its bytes, the charset the header declared, when, and whether it
    came from the cache rather than the board."""

    url: str
    body: bytes
    header_charset: str | None
    fetched_at: datetime
    cached: bool = False


def default_cache_dir() -> Path:
    """The user's cache directory for killmod's pages (``~/.cache/killmod/pages`` on Linux)."""
    return user_cache_path("killmod") / "pages"


class PageCache:
    """Pages by URL in the folder ``root`` (created when first written)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def get(self, url: str) -> Fetched | None:
        """The cached page at ``url``, or None when it is not cached (or unreadable)."""
        body_path, meta_path = self._paths(url)
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            body = body_path.read_bytes()
        except (OSError, ValueError):
            return None
        if meta.get("url") != url:
            return None
        fetched_at = datetime.fromisoformat(meta["fetched_at"])
        return Fetched(url, body, meta.get("header_charset"), fetched_at, cached=True)

    def put(self, page: Fetched) -> None:
        """Keep ``page``, replacing what was kept for its URL."""
        body_path, meta_path = self._paths(page.url)
        meta = {
            "url": page.url,
            "fetched_at": page.fetched_at.isoformat(),
            "header_charset": page.header_charset,
        }
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            _write_atomically(body_path, page.body)
            _write_atomically(meta_path, json.dumps(meta, ensure_ascii=False).encode("utf-8"))
        except OSError as error:
            raise BadInput(f"无法写入缓存文件夹：{self.root}（{error.strerror}）") from None

    def _paths(self, url: str) -> tuple[Path, Path]:
        name = hashlib.sha256(url.encode("utf-8")).hexdigest()
        return self.root / f"{name}.html", self.root / f"{name}.json"


def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then move it into place."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
