"""Every scraper's own examples (its ``TESTS``), fetched over HTTP from the pages they name.

A scraper module carries its examples as plain data (the yt-dlp habit): which page
builder of ``tests/support/`` serves the thread (by name, with its arguments), the
thread, the URL to read and the posts it must yield.  The scraper modules never import
the tests; the builder is found here by its name.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import scrapers
from killmod.core.model import Post
from killmod.fetch.http import Fetcher, FetchOptions
from killmod.fetch.pages import parse_fetched, read_page
from scrapers import profile
from scrapers.base import Scraper
from scrapers.profile import ProfileScraper, load_profile
from tests.support import pagebuilder, pagebuilder_api, pagebuilder_dz72, pagebuilder_more
from tests.support.pagebuilder import SHANGHAI, FakePost, FakeThread

ROOT = Path(__file__).resolve().parent.parent
BUILDERS = (pagebuilder, pagebuilder_api, pagebuilder_dz72, pagebuilder_more)
FORMATS: tuple[ModuleType, ...] = (*scrapers.every(), profile)


def builder(name: str) -> Any:
    """The page builder of ``tests/support/`` called ``name``."""
    found = {id(f): f for module in BUILDERS if (f := getattr(module, name, None))}
    assert len(found) == 1, f"no one page builder called {name}"
    return next(iter(found.values()))


def fake_thread(data: dict) -> FakeThread:
    """The thread an example describes, as the page builders take it."""
    posts = [
        FakePost(**{**post, "posted_at": datetime.fromisoformat(post["posted_at"])})
        for post in data["posts"]
    ]
    now = datetime.fromisoformat(data["now"])
    return FakeThread(data["tid"], data["title"], posts, now, **data.get("options", {}))


def shown(post: Post, wanted: dict) -> dict:
    """What ``post`` shows of the facts an example names."""
    facts = {
        "floor": post.floor,
        "pid": post.pid,
        "author": post.author,
        "uid": post.uid,
        "time": post.posted_at.isoformat(),
        "precision": post.precision,
        "text": post.body,
    }
    return {key: facts[key] for key in wanted}


def expected(wanted: dict) -> dict:
    """An example's post with its time as the same instant written in the board's zone."""
    if "time" not in wanted:
        return wanted
    moment = datetime.fromisoformat(wanted["time"]).astimezone(SHANGHAI)
    return {**wanted, "time": moment.isoformat()}


def examples() -> list:
    return [
        pytest.param(module, example, id=f"{module.__name__}-{index}")
        for module in FORMATS
        for index, example in enumerate(module.TESTS)
    ]


@pytest.mark.parametrize("module", FORMATS, ids=lambda module: module.__name__)
def test_every_scraper_carries_its_own_examples(module: ModuleType) -> None:
    assert module.TESTS, f"{module.__name__} has no TESTS"
    for example in module.TESTS:
        assert example["posts"], "an example names the posts it must yield"


@pytest.mark.parametrize("module, example", examples())
def test_a_scrapers_example_yields_its_posts(module, example, serve_site) -> None:
    thread = fake_thread(example["thread"])
    base = serve_site(builder(example["site"])(thread, **example.get("args", {})))
    url = base + example["url"]
    with Fetcher(FetchOptions(retries=0)) as fetcher:
        if "profile" in example:
            board = load_profile(ROOT / example["profile"])
            _, page = parse_fetched(
                fetcher.fetch(url), fetcher, tz=SHANGHAI, forum=None, profile=board
            )
        else:
            named, page = read_page(url, fetcher, tz=SHANGHAI, forum=module.NAME)
            recognised, _ = read_page(url, fetcher, tz=SHANGHAI)
            assert (named.NAME, recognised.NAME) == (module.NAME, module.NAME)
    wanted = example["posts"]
    assert [shown(post, want) for post, want in zip(page.posts, wanted, strict=False)] == [
        expected(want) for want in wanted
    ]
    assert len(page.posts) == len(wanted)


def test_every_scraper_offers_the_whole_interface() -> None:
    """And is listed by its NAME, the name of its module (``scrapers.find`` imports it)."""
    members = {name for name in vars(Scraper) if not name.startswith("_")}
    members |= set(Scraper.__annotations__)
    board = ProfileScraper(load_profile(ROOT / "examples" / "profiles" / "phpbb3.toml"))
    for scraper in (*scrapers.every(), board):
        missing = sorted(name for name in members if not hasattr(scraper, name))
        assert not missing, f"{scraper.NAME} lacks {missing}"
    assert [s.__name__ for s in scrapers.every()] == [f"scrapers.{n}" for n in scrapers.names()]
    assert [s.NAME for s in scrapers.every()] == scrapers.names()
    assert {"board_message", "seconds_view", "views", "page_url", "address"} <= members
