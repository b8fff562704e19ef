"""Reading a whole thread from where the judge points: a URL, a saved page or a folder.

A URL is read by the board's read plan (``killmod.fetch.plan``: which views of the thread
to ask, in the fewest requests that give every fact the rules need).  Saved pages are read
as they are, without the network: the first one tells the format, and together they must
be one whole thread (``killmod.fetch.identity.check_saved``, ``killmod.fetch.whole``); a
folder's pages are parsed in worker processes (``killmod.fetch.workers``).  Every reader
returns a ``Thread`` (``killmod.fetch.whole``).
"""

from __future__ import annotations

import re
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from killmod.core.errors import BadInput
from killmod.core.model import Post, ViewRead
from killmod.fetch.whole import EditsNeeded, Thread, assemble

if TYPE_CHECKING:  # what a URL or a profile needs loads only when one is given
    from killmod.fetch.http import Fetcher, FetchOptions
    from scrapers.profile import Profile

__all__ = ["EditsNeeded", "Thread", "read_game_thread", "read_thread"]


def read_thread(
    source: str,
    *,
    tz: ZoneInfo,
    forum: str | None = None,
    jobs: int = 4,
    profile: Profile | None = None,
    fetcher: Fetcher | None = None,
    tail: bool = False,
    edits: EditsNeeded | None = None,
    texts: bool = True,
) -> Thread:
    """Read every post of the thread at ``source`` (http(s) URL, HTML file or folder).

    ``forum`` names the format instead of recognising it; ``profile`` reads the pages as
    the board a profile describes (``scrapers.profile``).  A URL is read with ``fetcher``
    (default: one fetching ``jobs`` pages at once, no cache) by the board's read plan
    (``killmod.fetch.plan``: the views its ``options.view`` allows, in the fewest requests that
    give the posts, their exact times and the edits of the posts ``edits`` names); ``tail``
    takes the pages before the last one the cache knows from the cache and fetches only the
    rest; without ``texts`` the mobile API's posts are who posted when alone, their messages
    not read (``killmod.fetch.api``).  A folder's pages are parsed ``jobs`` at once (the
    fetcher's, when given).
    """
    if forum and profile:
        raise BadInput("--forum 与 --profile 只能选一个")
    if re.match(r"https?://", source):
        from killmod.fetch.http import Fetcher, FetchOptions
        from killmod.fetch.plan import read_url

        with Fetcher(FetchOptions(jobs=jobs)) if fetcher is None else nullcontext(fetcher) as used:
            return read_url(
                source,
                used,
                tz=tz,
                forum=forum,
                profile=profile,
                tail=tail,
                edits=edits,
                texts=texts,
            )
    if fetcher is not None and fetcher.options.view != "auto":
        raise BadInput(f"--view {fetcher.options.view} 只用于论坛网址，保存的页面按其本身读取")
    path = Path(source)
    jobs = fetcher.options.jobs if fetcher is not None else jobs
    if path.is_dir():
        files = sorted((p for p in path.iterdir() if _is_saved_page(p)), key=_natural_key)
        if not files:
            raise BadInput(f"文件夹里没有保存的页面：{path}")
        return _read_files(source, files, tz=tz, forum=forum, profile=profile, jobs=jobs)
    if path.is_file():
        return _read_files(source, [path], tz=tz, forum=forum, profile=profile, jobs=jobs)
    raise BadInput(f"找不到投票帖：{source}（应为网址、保存的网页文件或文件夹）")


def read_game_thread(
    source: str,
    *,
    tz: ZoneInfo,
    forum: str | None,
    profile: Path | None,
    fetching: FetchOptions | None,
) -> Thread:
    """Read the game thread (for the lurkers count and the audit), the pages the cache
    already holds from the cache; ``profile`` is a profile file.  Who posted when is all a
    game thread is read for: no post's edits are looked at, and the mobile API's messages
    are not read (a thread page's are: its posts are cached for the tally too)."""
    from killmod.fetch.http import Fetcher, FetchOptions

    loaded = None
    if profile is not None:
        from scrapers.profile import load_profile

        loaded = load_profile(profile)
    with Fetcher(fetching or FetchOptions()) as fetcher:
        return read_thread(
            source,
            tz=tz,
            forum=forum,
            profile=loaded,
            fetcher=fetcher,
            tail=True,
            edits=_no_edits,
            texts=False,
        )


def _no_edits(posts: tuple[Post, ...]) -> tuple[int, ...]:
    """No post's edits are needed."""
    return ()


def _read_files(
    source: str,
    files: list[Path],
    *,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
    jobs: int,
) -> Thread:
    """The saved pages ``files``: the first one tells the format, unless ``forum`` does.
    Together they must be one whole thread (``killmod.fetch.identity.check_saved``)."""
    from killmod.fetch.identity import check_saved
    from killmod.fetch.pages import parse_page, saved_page

    scraper, first = parse_page(saved_page(files[0]), tz=tz, forum=forum, profile=profile)
    rest = files[1:]
    pages = [first]
    if rest:  # worker processes parse a long thread's folder
        from killmod.fetch.workers import Assignment, page_workers

        workers_for = len(rest) if profile is None else 0
        with page_workers(workers_for, jobs, Assignment(None, tz, scraper.NAME)) as workers:
            if workers is not None:
                pages += workers.parse_files(rest)
            else:
                pages += [
                    parse_page(saved_page(file), tz=tz, forum=scraper.NAME, profile=profile)[1]
                    for file in rest
                ]
    check_saved(files, pages)
    by_number = {page.page_no: file for file, page in zip(files, pages, strict=True)}
    thread = assemble(source, pages, scraper.NAME, lambda n: str(by_number.get(n, source)))
    return replace(thread, views=(ViewRead("saved", len(files), "按保存的页面本身读取，不联网"),))


def _is_saved_page(path: Path) -> bool:
    """A file in the folder that holds a web page or an API answer (a roster or notes
    beside it do not)."""
    if not path.is_file():
        return False
    with path.open("rb") as file:
        start = file.read(512).lstrip(b"\xef\xbb\xbf \t\r\n")
    return start.startswith((b"<", b"{"))  # a web page, or an answer of the mobile API


def _natural_key(path: Path) -> list:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.name)]
