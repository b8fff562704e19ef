"""Reading a thread page by page, in the view a URL names (thread pages, printable,
archiver, or any board's pages a profile describes).

Every page is fetched and parsed; posts are deduplicated by pid (Discuz serves the last
page for page numbers past the end, and floors shift when a post is deleted between
fetches), and the thread fails whole if any page fails.  Every page must be the page asked
for: its number, and the thread id and title the first page showed
(``killmod.fetch.identity``).  The first page tells how many pages there are; that count is
believed only up to ``FetchOptions.max_pages``, and only once the last page itself has been
read and shows it is that page.  Then the other pages are fetched from the last to the
first, the first again too: a post deleted meanwhile moves posts onto pages not read yet,
never off them, so no post is lost.  The pages must then make a whole
(``killmod.fetch.whole``).  Long threads are read in worker processes
(``killmod.fetch.workers``); one page is read by ``killmod.fetch.pages``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from killmod.core.errors import TallyFailed
from killmod.core.model import Page
from killmod.fetch.http import Fetched, Fetcher
from killmod.fetch.identity import Expected, expected_after
from killmod.fetch.pages import again_on_redirect, parse_fetched, parsed_before, read_at
from killmod.fetch.whole import Thread, assemble
from killmod.fetch.workers import Assignment, page_workers

if TYPE_CHECKING:  # a profile's module loads only for a board a profile describes
    from scrapers.profile import Profile


def read_pages(
    url: str,
    fetcher: Fetcher,
    *,
    tz: ZoneInfo,
    forum: str | None,
    profile: Profile | None,
    tail: bool,
) -> Thread:
    """Every page of the thread at ``url``, in the view the URL (or ``forum``) names, each
    the page asked for; ``tail``: the pages before the last one known come from the cache."""
    scraper, page, cached, landed = read_at(
        url, fetcher, cached=tail, tz=tz, forum=forum, profile=profile
    )
    # Pages before the last one known (from the cache) may come from the cache.
    known = page.page_count if cached else 0
    pages = [page]
    # The first page is read again with the others, last to first, unless it is all there is.
    requested = set() if cached or page.page_count > 1 else {page.page_no}
    same_thread = expected_after(page, scraper.address(landed).thread)
    # Worker processes, when the board is not paced (a profile's pages are read here).
    unpaced = profile is None and not fetcher.pacer.waits_for(url)
    assignment = Assignment(fetcher.options, tz, scraper.NAME)
    workers_for = page.page_count - known if unpaced else 0

    def expected(n: int) -> Expected:
        return replace(same_thread, page=n)

    def parse(fetched: Fetched, n: int) -> Page:
        return parse_fetched(
            fetched, fetcher, tz=tz, forum=scraper.NAME, profile=profile, expected=expected(n)
        )[1]

    def kept(page_url: str, n: int) -> Page | None:
        found = parsed_before(
            page_url,
            fetcher,
            cached=True,
            tz=tz,
            forum=scraper.NAME,
            profile=profile,
            expected=expected(n),
        )
        return found[1] if found else None

    def read(numbers: list[int]) -> list[Page]:
        urls = {n: scraper.page_url(landed, n) for n in numbers}
        numbered = {page_url: n for n, page_url in urls.items()}
        cached_urls = {u for n, u in urls.items() if n < known}
        done = {u: found for u in cached_urls if (found := kept(u, numbered[u]))}
        rest = [u for u in urls.values() if u not in done]
        if workers is None:

            def then(fetched: Fetched) -> Page:
                return parse(fetched, numbered[fetched.url])

            again = again_on_redirect(scraper.NAME) if profile is None else False
            fresh = fetcher.fetch_all(rest, cached=cached_urls, then=then, again_on_redirect=again)
        else:
            wanted = [expected(numbered[u]) for u in rest]
            fresh = workers.fetch(rest, cached_urls, wanted, progress=fetcher.options.progress)
        done.update(zip(rest, fresh, strict=True))
        return [done[urls[n]] for n in numbers]

    with page_workers(workers_for, fetcher.options.jobs, assignment) as workers:
        # A page fetched later may show more pages than the first one did (new posts).
        while missing := sorted(
            set(range(1, page_count(pages, fetcher, url) + 1)) - requested, reverse=True
        ):
            # The last page first, alone: a page bar's count is believed once that page
            # has been read and shows it is that page.
            last, *others = missing
            requested.add(last)
            pages += read([last])
            if page_count(pages, fetcher, url) > last:
                continue
            requested.update(others)
            pages += read(others)
    return assemble(landed, pages, scraper.NAME, lambda n: scraper.page_url(landed, n))


def page_count(pages: list[Page], fetcher: Fetcher, url: str) -> int:
    """The most pages any page read shows, within the fetcher's ``max_pages``."""
    count = max(page.page_count for page in pages)
    cap = fetcher.options.max_pages
    if count > cap:
        raise TallyFailed(
            f"帖子的页码栏显示有 {count} 页，超过上限 {cap} 页（可用 --max-pages 调整）：{url}"
        )
    return count
