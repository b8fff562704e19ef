"""Fetched pages kept on disk, one file per URL, with the time they were fetched.

Each page is two files named by the SHA-256 of its URL: ``HASH.html`` (the bytes as the
board sent them) and ``HASH.json`` (``url``, ``fetched_at``, ``header_charset``).  Both are
written to a temporary file and moved into place (``os.replace``), the JSON last: a page
is in the cache once its JSON is, so a reader never sees half a page.

A third file, ``HASH.posts`` (JSON), keeps what a scraper read from those bytes: a warm
read of a long game thread then parses only the pages that changed.  It names the
bytes' SHA-256 and the way they were read (scraper and time zone), and counts only
for exactly those.
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
from killmod.model import Page, Post


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

    def get_page(self, page: Fetched, reading: str) -> tuple[str, Page] | None:
        """The scraper's name and what it read from ``page``'s bytes the same way before."""
        try:
            kept = json.loads(self._parsed_path(page.url).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if kept.get("sha256") != _digest(page.body) or kept.get("reading") != reading:
            return None
        return kept["scraper"], _page_from_json(kept["page"])

    def put_page(self, page: Fetched, reading: str, scraper: str, parsed: Page) -> None:
        """Keep what ``scraper`` read from ``page``'s bytes, asked the ``reading`` way."""
        kept = {
            "sha256": _digest(page.body),
            "reading": reading,
            "scraper": scraper,
            "page": _page_json(parsed),
        }
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            data = json.dumps(kept, ensure_ascii=False).encode("utf-8")
            _write_atomically(self._parsed_path(page.url), data)
        except OSError as error:
            raise BadInput(f"无法写入缓存文件夹：{self.root}（{error.strerror}）") from None

    def _parsed_path(self, url: str) -> Path:
        return self.root / f"{hashlib.sha256(url.encode('utf-8')).hexdigest()}.posts"

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


def _digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


_TIMES = ("posted_at", "edited_at")


def _page_json(page: Page) -> dict:
    posts = []
    for post in page.posts:
        row = {name: getattr(post, name) for name in Post.__dataclass_fields__}
        for name in _TIMES:
            row[name] = row[name].isoformat() if row[name] else None
        row["quotes"] = list(post.quotes)
        posts.append(row)
    return {
        "posts": posts,
        "page_no": page.page_no,
        "page_count": page.page_count,
        "title": page.title,
    }


def _page_from_json(kept: dict) -> Page:
    posts = []
    for row in kept["posts"]:
        for name in _TIMES:
            row[name] = datetime.fromisoformat(row[name]) if row[name] else None
        row["quotes"] = tuple(row["quotes"])
        posts.append(Post(**row))
    return Page(tuple(posts), kept["page_no"], kept["page_count"], kept["title"])
