"""Fetched pages kept on disk, one file per URL, with what was read from them.

Each page is one file named by the SHA-256 of its URL, ``HASH.page``: a first line of
JSON (``url``, ``fetched_at``, ``exact_clock`` (``fetched_at`` is the board's HTTP
``Date``), ``machine_at`` (our clock when the answer came), ``header_charset`` and, once
the page has been parsed, ``parsed``: by which scraper, in which time zones, the
fingerprint of what was parsed, the posts it read and the zone the page declared),
then the bytes as the board sent them.  Only a page that was the page asked for is kept.
The file is written to a temporary file and moved into place (``os.replace``): a reader
never sees half a page.

A warm read of a long game thread takes the unchanged pages' posts from the first lines
alone, and parses only the pages that changed.

A URL's login (``user:password@``) is kept out of the cache: the file's name and its
first line are of the URL without it (``killmod.core.redact``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from killmod.core.errors import BadInput
from killmod.core.model import Page, Post
from killmod.core.redact import redact_url


@dataclass(frozen=True)
class Fetched:
    """One fetched page: its bytes, the charset the header declared, when, and whether it
    came from the cache rather than the board.

    ``exact_clock``: ``fetched_at`` is the board's own clock to the second (the response's
    HTTP ``Date``), not ours or a file's time; ``machine_at`` is our clock when the answer
    came (None for a saved page), which the ``Date`` is checked against.  ``final_url`` is
    where the board's redirects led, when they led elsewhere than ``url``.
    """

    url: str
    body: bytes
    header_charset: str | None
    fetched_at: datetime
    cached: bool = False
    exact_clock: bool = False
    final_url: str | None = None
    machine_at: datetime | None = None


@dataclass(frozen=True)
class ParsedPage:
    """A page as the scraper ``scraper`` parsed it in the time zone ``tz`` (its key), and
    the ``fingerprint`` of what was parsed (``killmod.fetch.pages``): a page fetched again with the
    same fingerprint holds the same posts."""

    scraper: str
    tz: str
    page: Page
    fingerprint: str | None = None


def default_cache_dir() -> Path:
    """The user's cache directory for killmod's pages (``~/.cache/killmod/pages`` on Linux)."""
    from platformdirs import user_cache_path

    return user_cache_path("killmod") / "pages"


class PageCache:
    """Pages by URL in the folder ``root`` (created when first written)."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def get(self, url: str) -> Fetched | None:
        """The cached page at ``url``, or None when it is not cached (or unreadable)."""
        try:
            with self._path(url).open("rb") as file:
                meta = _meta(file.readline(), url)
                body = file.read()
        except OSError:
            return None
        if meta is None:
            return None
        fetched_at = datetime.fromisoformat(meta["fetched_at"])
        exact = meta.get("exact_clock") is True
        machine = meta.get("machine_at")
        machine_at = datetime.fromisoformat(machine) if isinstance(machine, str) else None
        charset = meta.get("header_charset")
        return Fetched(url, body, charset, fetched_at, True, exact, machine_at=machine_at)

    def get_parsed(self, url: str, tz: str | tuple[str, ...]) -> ParsedPage | None:
        """The cached page at ``url`` as parsed in the time zone ``tz`` (or any of several:
        ``killmod.fetch.pages`` names the zones a page was read in); its bytes are not read."""
        try:
            with self._path(url).open("rb") as file:
                meta = _meta(file.readline(), url)
        except OSError:
            return None
        kept = meta.get("parsed") if meta else None
        if not isinstance(kept, dict) or kept.get("tz") not in (
            (tz,) if isinstance(tz, str) else tz
        ):
            return None
        try:
            page = _page_from_json(kept["page"])
            return ParsedPage(kept["scraper"], kept["tz"], page, kept.get("fingerprint"))
        except (KeyError, TypeError, ValueError):  # another killmod's: parse afresh
            return None

    def put(self, page: Fetched, parsed: ParsedPage | None = None) -> None:
        """Keep ``page`` (and what it was parsed into), replacing what was kept for its URL."""
        meta: dict = {
            "url": redact_url(page.url),
            "fetched_at": page.fetched_at.isoformat(),
            "exact_clock": page.exact_clock,
            "machine_at": page.machine_at.isoformat() if page.machine_at else None,
            "header_charset": page.header_charset,
        }
        if parsed is not None:
            meta["parsed"] = {
                "scraper": parsed.scraper,
                "tz": parsed.tz,
                "fingerprint": parsed.fingerprint,
                "page": _page_json(parsed.page),
            }
        line = json.dumps(meta, ensure_ascii=False).encode("utf-8") + b"\n"
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            _write_atomically(self._path(page.url), line + page.body)
        except OSError as error:
            raise BadInput(f"无法写入缓存文件夹：{self.root}（{error.strerror}）") from None

    def _path(self, url: str) -> Path:
        import hashlib

        key = redact_url(url).encode("utf-8")
        return self.root / f"{hashlib.sha256(key).hexdigest()}.page"


def _meta(line: bytes, url: str) -> dict | None:
    """The first line's JSON, when it is the page of ``url``."""
    try:
        meta = json.loads(line)
        datetime.fromisoformat(meta["fetched_at"])
    except (KeyError, TypeError, ValueError):
        return None
    return meta if meta.get("url") == redact_url(url) else None


def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then move it into place."""
    import tempfile

    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


_FIELDS = list(Post.__dataclass_fields__)
_TIMES = [_FIELDS.index("posted_at"), _FIELDS.index("edited_at")]
_TUPLES = [_FIELDS.index("quotes"), _FIELDS.index("hidden")]


def _page_json(page: Page) -> dict:
    """A page as JSON: its posts as rows of their fields, in the order ``fields`` names,
    what it declares of the whole thread, and the zone it declared (its offset in
    seconds)."""
    rows = []
    for post in page.posts:
        row = [getattr(post, name) for name in _FIELDS]
        for index in _TIMES:
            row[index] = row[index].isoformat() if row[index] else None
        for index in _TUPLES:
            row[index] = list(row[index])
        rows.append(row)
    return {
        "fields": _FIELDS,
        "posts": rows,
        "page_no": page.page_no,
        "page_count": page.page_count,
        "title": page.title,
        "thread_id": page.thread_id,
        "partial": page.partial,
        "declared": [page.counted, page.replies, page.per_page, page.hidden, list(page.vacant)],
        "edits_shown": page.edits_shown,
        "zone": page.zone.utcoffset(None).total_seconds() if page.zone else None,
        "local_times": page.local_times,
    }


def _page_from_json(kept: dict) -> Page:
    if kept["fields"] != _FIELDS or "zone" not in kept:
        raise ValueError("posts kept with other fields, or without the zone")
    posts = []
    for row in kept["posts"]:
        for index in _TIMES:
            row[index] = datetime.fromisoformat(row[index]) if row[index] else None
        for index in _TUPLES:
            row[index] = tuple(row[index])
        posts.append(Post(*row))
    counted, replies, per_page, hidden, vacant = kept["declared"]  # an older killmod's: KeyError
    return Page(
        tuple(posts),
        kept["page_no"],
        kept["page_count"],
        kept["title"],
        kept["thread_id"],
        kept.get("partial") is True,
        counted=counted is True,
        replies=replies,
        per_page=per_page,
        hidden=hidden,
        vacant=tuple(vacant),
        edits_shown=kept["edits_shown"] is True,
        zone=timezone(timedelta(seconds=kept["zone"])) if kept["zone"] is not None else None,
        local_times=kept.get("local_times") is not False,
    )
