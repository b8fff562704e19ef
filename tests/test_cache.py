"""The page cache: files per URL, offline reading, refreshing, and reading only the tail."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from killmod.core.errors import TallyFailed
from killmod.core.model import Page
from killmod.fetch.cache import Fetched, PageCache, ParsedPage
from killmod.fetch.http import Fetcher, FetchOptions
from killmod.fetch.pages import parse_page, saved_page
from killmod.fetch.thread import read_thread
from tests.support.pagebuilder import (
    DEMO_TID,
    SHANGHAI,
    FakePost,
    Response,
    demo_thread,
    discuz_x_site,
)

VIEWTHREAD = f"/forum.php?mod=viewthread&tid={DEMO_TID}"


def page(n: int) -> str:
    return f"{VIEWTHREAD}&page={n}"


def options(cache: Path, **changes) -> FetchOptions:
    return replace(FetchOptions(delay=0, retries=0, cache=cache, view="pages"), **changes)


def read(url: str, cache: Path, *, tail: bool = False, **changes):
    with Fetcher(options(cache, **changes)) as fetcher:
        return read_thread(url, tz=SHANGHAI, fetcher=fetcher, tail=tail)


def first_line(path: Path) -> dict:
    with path.open("rb") as file:
        return json.loads(file.readline())


def test_a_page_is_kept_as_one_file_written_whole(tmp_path):
    cache = PageCache(tmp_path)
    fetched_at = datetime(2019, 5, 12, 14, 10, tzinfo=UTC)
    cache.put(Fetched("http://bbs.example.com/t?page=1", b"<html>1</html>", "gbk", fetched_at))
    second = Fetched("http://bbs.example.com/t?page=1", b"<html>2</html>", "gbk", fetched_at)
    ours = datetime(2019, 5, 12, 14, 10, 20, tzinfo=UTC)
    cache.put(replace(second, exact_clock=True, machine_at=ours))
    files = list(tmp_path.iterdir())
    assert [file.suffix for file in files] == [".page"]  # no temporary file left behind
    assert first_line(files[0]) == {
        "url": "http://bbs.example.com/t?page=1",
        "fetched_at": "2019-05-12T14:10:00+00:00",
        "exact_clock": True,
        "machine_at": "2019-05-12T14:10:20+00:00",
        "header_charset": "gbk",
    }
    kept = cache.get("http://bbs.example.com/t?page=1")
    assert (kept.body, kept.header_charset, kept.fetched_at, kept.cached, kept.exact_clock) == (
        b"<html>2</html>",
        "gbk",
        fetched_at,
        True,
        True,
    )
    assert kept.machine_at == ours
    assert cache.get("http://bbs.example.com/t?page=2") is None


def test_what_a_page_read_as_is_kept_for_the_same_way_of_reading_it(tmp_path):
    cache = PageCache(tmp_path)
    posts = demo_thread_read(tmp_path)
    page_read = Page(posts[:3], 1, 4, "【投票帖】", "7001")
    url = "http://bbs.example.com/t?page=1"
    body = b"<html>\n\xe6\x8a\x95 5\xe5\x8f\xb7\n</html>"  # lines and UTF-8 in the body
    fetched = Fetched(url, body, None, datetime(2019, 5, 12, 14, 10, tzinfo=UTC))
    cache.put(fetched, ParsedPage("discuz_x", "Asia/Shanghai", page_read))
    kept = cache.get_parsed(url, "Asia/Shanghai")
    assert (kept.scraper, kept.page) == ("discuz_x", page_read)
    assert cache.get_parsed(url, "Asia/Taipei") is None  # another time zone: parse again
    assert cache.get(url).body == body


def test_a_damaged_cache_file_is_no_answer(tmp_path):
    cache = PageCache(tmp_path)
    url = "http://bbs.example.com/t?page=1"
    cache.put(Fetched(url, b"<html></html>", None, datetime(2019, 5, 12, tzinfo=UTC)))
    (file,) = tmp_path.iterdir()
    file.write_bytes(b'{"url": "' + url.encode() + b'", "fetched_at": "yesterday"}\n<html>')
    assert cache.get(url) is None and cache.get_parsed(url, "Asia/Shanghai") is None
    file.write_bytes(b"\x00\x01 not json\n<html>")
    assert cache.get(url) is None


def demo_thread_read(tmp_path: Path) -> tuple:
    """The posts of the demo thread's first page as killmod reads them from a saved page."""
    saved = tmp_path / "saved.html"
    saved.write_bytes(discuz_x_site(demo_thread())(page(1)).body)
    return parse_page(saved_page(saved), tz=SHANGHAI)[1].posts


def test_offline_reads_the_cache_alone_after_one_fetch(serve_site, roster, tmp_path):
    base = serve_site(discuz_x_site(demo_thread(), charset="gbk"))
    args = [base + VIEWTHREAD, "--roster", str(roster), "--deadline", "22:00"]
    args += ["--cache", str(tmp_path / "cache"), "--delay", "0", "--format", "json"]
    args += ["--view", "pages"]
    online = CliRunner().invoke(main, ["tally", *args])
    assert online.exit_code == 0, online.output
    asked = len(base.server.requests)
    offline = CliRunner().invoke(main, ["tally", *args, "--offline"])
    assert offline.exit_code == 0, offline.output
    assert len(base.server.requests) == asked  # nothing fetched
    # the same tally: GBK pages decoded by the charset their header declared
    assert json.loads(offline.stdout) == json.loads(online.stdout)


def test_offline_fails_naming_a_page_missing_from_the_cache(serve_site, roster, tmp_path):
    base = serve_site(discuz_x_site(demo_thread()))
    read(base + VIEWTHREAD, tmp_path)
    (tmp_path / "gone").mkdir()
    for kept in tmp_path.glob("*.page"):
        if first_line(kept)["url"].endswith("page=3"):
            kept.rename(tmp_path / "gone" / kept.name)
    with pytest.raises(TallyFailed) as failure:
        read(base + VIEWTHREAD, tmp_path, offline=True)
    assert "缓存" in failure.value.message and page(3) in failure.value.message
    args = [base + VIEWTHREAD, "--roster", str(roster), "--deadline", "22:00"]
    result = CliRunner().invoke(main, ["tally", *args, "--cache", str(tmp_path), "--offline"])
    assert result.exit_code == 1 and page(3) in result.stderr and result.stdout == ""


def test_tally_fetches_every_page_afresh_even_with_a_cache(serve_site, tmp_path):
    base = serve_site(discuz_x_site(demo_thread()))
    read(base + VIEWTHREAD, tmp_path)
    base.server.requests.clear()
    read(base + VIEWTHREAD, tmp_path)
    assert sorted(base.server.requests) == sorted([VIEWTHREAD, *map(page, (1, 2, 3, 4))])


def test_tail_fetches_only_from_the_last_known_page(serve_site, tmp_path):
    thread = demo_thread()
    base = serve_site(discuz_x_site(thread))
    first = read(base + VIEWTHREAD, tmp_path, tail=True)  # nothing cached yet: every page
    base.server.requests.clear()
    again = read(base + VIEWTHREAD, tmp_path, tail=True)
    assert base.server.requests == [page(4)]
    assert again.posts == first.posts

    # the thread grows past page 4: page 4 and the new page 5 are fetched
    last = thread.posts[-1]
    thread.posts += [
        FakePost(last.pid + n, "meer", 2000, last.posted_at, f"第 {n} 帖") for n in range(1, 11)
    ]
    base.server.requests.clear()
    grown = read(base + VIEWTHREAD, tmp_path, tail=True)
    assert sorted(base.server.requests) == [page(4), page(5)]
    assert len(grown.posts) == len(first.posts) + 10


def test_refresh_fetches_every_page_again(serve_site, tmp_path):
    base = serve_site(discuz_x_site(demo_thread()))
    read(base + VIEWTHREAD, tmp_path)
    base.server.requests.clear()
    read(base + VIEWTHREAD, tmp_path, tail=True, refresh=True)
    assert sorted(base.server.requests) == sorted([VIEWTHREAD, *map(page, (1, 2, 3, 4))])


def test_a_cached_page_that_no_longer_reads_is_fetched_again(serve_site, tmp_path):
    base = serve_site(discuz_x_site(demo_thread()))
    whole = read(base + VIEWTHREAD, tmp_path)
    cache = PageCache(tmp_path)
    broken = cache.get(base + page(2))
    cache.put(replace(broken, body=broken.body[:5000], cached=False))
    base.server.requests.clear()
    assert read(base + VIEWTHREAD, tmp_path, tail=True).posts == whole.posts
    assert sorted(base.server.requests) == [page(2), page(4)]


def test_a_failed_page_is_not_what_the_cache_answers_with(serve_site, tmp_path):
    site = discuz_x_site(demo_thread())
    failing = {"on": True}

    def flaky(path: str) -> Response:
        if failing["on"] and path.endswith("page=4"):
            return Response(500, {}, b"oops")
        return site(path)

    base = serve_site(flaky)
    with pytest.raises(TallyFailed):
        read(base + VIEWTHREAD, tmp_path)
    assert PageCache(tmp_path).get(base + page(4)) is None
    failing["on"] = False
    assert len(read(base + VIEWTHREAD, tmp_path, tail=True).posts) == 30


def test_the_default_cache_is_the_user_cache_directory(serve_site, roster, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    base = serve_site(discuz_x_site(demo_thread()))
    args = [base + VIEWTHREAD, "--roster", str(roster), "--deadline", "22:00", "--delay", "0"]
    assert CliRunner().invoke(main, ["tally", *args]).exit_code == 0
    kept = tmp_path / "xdg" / "killmod" / "pages"
    assert len(list(kept.glob("*.page"))) == 5  # the first page, then pages 4 to 1
