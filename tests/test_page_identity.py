"""Every scraper reports what its page says about itself, for the one identity check.

For each format the page builder makes: the page's own number, the thread's id on the board
and its title, as a page served over HTTP shows them; and ``address`` reads back the thread
and page of the URLs ``page_url`` makes.  ``killmod.fetch.identity`` compares them with what was
asked for (tested against a hostile board in ``test_hostile_board.py``).
"""

from __future__ import annotations

import pytest

import scrapers
from killmod.fetch.http import Fetcher, FetchOptions
from killmod.fetch.identity import Expected, mismatch
from killmod.fetch.pages import read_page
from scrapers.base import Address
from tests.support.pagebuilder import DEMO_TID, SHANGHAI, demo_thread, discuz_x_site
from tests.support.pagebuilder_dz72 import dz72_site
from tests.support.pagebuilder_more import (
    SOHU_BOARD,
    discuz_x_archiver_site,
    discuz_x_printable_site,
    sohu_site,
    sohu_thread_id,
)

DEMO = demo_thread()
SOHU_ID = sohu_thread_id(DEMO)
# (scraper, site, the URL path of the thread, the page to read, the thread id it shows)
FORMATS = [
    ("discuz_x", discuz_x_site(DEMO), f"/forum.php?mod=viewthread&tid={DEMO_TID}", 3, "7001"),
    (
        "discuz_x_printable",
        discuz_x_printable_site(DEMO),
        f"/forum.php?mod=viewthread&action=printable&tid={DEMO_TID}",
        1,
        "7001",
    ),
    (
        "discuz_x_archiver",
        discuz_x_archiver_site(DEMO),
        f"/archiver/?tid-{DEMO_TID}.html",
        2,
        "7001",
    ),
    ("discuz7", dz72_site(DEMO), f"/viewthread.php?tid={DEMO_TID}", 2, "7001"),
    (
        "discuz7_printable",
        dz72_site(DEMO),
        f"/viewthread.php?action=printable&tid={DEMO_TID}",
        1,
        None,  # 7.2's printable view shows no thread id
    ),
    ("discuz7_archiver", dz72_site(DEMO), f"/archiver/?tid-{DEMO_TID}.html", 2, "7001"),
    ("sohu", sohu_site(DEMO, per_page=10), f"/{SOHU_BOARD}/thread/{SOHU_ID}", 2, SOHU_ID),
]


@pytest.mark.parametrize(("name", "site", "path", "page", "thread"), FORMATS)
def test_every_scraper_reports_its_page_number_thread_and_title(
    serve_site, name, site, path, page, thread
):
    scraper = scrapers.by_name(name)
    url = scraper.page_url(serve_site(site) + path, page)
    assert scraper.address(url) == Address(scraper.address(url).thread, page)
    with Fetcher(FetchOptions(delay=0)) as fetcher:
        _, read = read_page(url, fetcher, tz=SHANGHAI, forum=name)
    assert (read.page_no, read.thread_id) == (page, thread)
    if name != "discuz7":  # 7.2 shows the title on page 1 only
        assert read.title == DEMO.title
    assert mismatch(read, Expected(page=page, thread=thread, title=DEMO.title)) is None
    assert mismatch(read, Expected(page=page + 1)) is not None


@pytest.mark.parametrize(
    ("name", "url", "address"),
    [
        ("discuz_x", "http://b/forum.php?mod=viewthread&tid=12&extra=&page=3", Address("12", 3)),
        ("discuz_x", "http://b/forum.php?mod=viewthread&tid=12", Address("12", 1)),
        ("discuz_x", "http://b/thread-12-4-1.html", Address("12", 4)),
        ("discuz_x_archiver", "http://b/archiver/?tid-12.html&page=5", Address("12", 5)),
        ("discuz_x_archiver", "http://b/archiver/tid-12.html", Address("12", 1)),
        ("discuz7", "http://b/viewthread.php?tid=12&extra=page%3D1&page=2", Address("12", 2)),
        ("discuz7_archiver", "http://b/archiver/?tid-12-page-3.html", Address("12", 3)),
        ("sohu", "http://club.sohu.com/zz1/thread/abc12/p4", Address("abc12", 4)),
        ("sohu", "http://club.sohu.com/zz1/thread/abc12", Address("abc12", 1)),
    ],
)
def test_a_url_says_which_thread_and_page_it_asks_for(name, url, address):
    assert scrapers.by_name(name).address(url) == address


def test_a_page_past_the_end_is_the_page_asked_for_only_from_the_judges_url():
    from killmod.core.model import Page

    last = Page((), page_no=4, page_count=4)
    assert mismatch(last, Expected(page=9, past_end=True)) is None
    assert mismatch(last, Expected(page=9)) == "这是第 4 页，要读的是第 9 页"
    assert mismatch(last, Expected(page=3, past_end=True)) is not None
