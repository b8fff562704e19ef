"""Shared fixtures: fake Discuz! boards served over HTTP on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.support.forumserver import BaseUrl, serve
from tests.support.pagebuilder import DEMO_ROSTER_TOML, Site, demo_thread, discuz_x_site


@pytest.fixture(autouse=True)
def _temporary_user_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Commands under test cache fetched pages in a temporary folder, not the user's: one
    folder per test, since the pages are cached by URL and a later test's local board may
    get an earlier one's port (the same thread id, another thread)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))


@pytest.fixture
def serve_site() -> Iterator[Callable[[Site], BaseUrl]]:
    """Serve any site callable for the test: ``base_url = serve_site(site)``."""
    with ExitStack() as stack:
        yield lambda site: stack.enter_context(serve(site))


@pytest.fixture
def demo_site(serve_site: Callable[[Site], BaseUrl]) -> BaseUrl:
    """Base URL of a board serving the UTF-8 demo vote thread (tid ``DEMO_TID``)."""
    return serve_site(discuz_x_site(demo_thread()))


@pytest.fixture
def roster(tmp_path: Path) -> Path:
    """The demo game's roster (``DEMO_ROSTER_TOML``) written in the test's folder."""
    path = tmp_path / "roster.toml"
    path.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    return path
