"""The helpers every scraper shares."""

from __future__ import annotations

import pytest

from scrapers.base import has_html_end

PAGE = "<html><body>" + "<p>投 5号</p>\n" * 5000 + "</body></html>"


@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_page_end_is_found_near_the_end_or_anywhere(as_bytes):
    def page(text: str):
        return text.encode("utf-8") if as_bytes else text

    assert has_html_end(page(PAGE))
    assert has_html_end(page(PAGE.replace("</html>", "</HTML >")))
    # a host that appends 20 KB of its own scripts after the page's end
    assert has_html_end(page(PAGE + "<script>track();</script>\n" * 800))
    assert not has_html_end(page(PAGE[: len(PAGE) // 2]))
    assert not has_html_end(page(PAGE.replace("</html>", "</htm")))
