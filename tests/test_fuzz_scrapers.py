"""Every scraper fed damaged pages: a correct reading or a clear error, never fewer posts.

A bounded run of the mutation fuzzer of ``tests/support/fuzzing.py`` (its docstring states the
invariants checked): ``PER_KIND`` mutations of each kind for each scraper, the same every
run (seeded).  ``python -m bench.fuzz --minutes N`` runs it for longer with fresh seeds.  Below
the fuzzing, one example of each kind of damage the fuzzer found slipping through, each
read the way the judge reads it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from killmod.core.errors import KillmodError, TallyFailed
from killmod.fetch.thread import read_thread
from killmod.game.roster import parse_roster
from killmod.usecases.tally import tally
from tests.support import fuzzing
from tests.support.pagebuilder import (
    DEMO_ROSTER_TOML,
    DEMO_TID,
    SHANGHAI,
    demo_thread,
    discuz_x_site,
    render_discuz_x_page,
)
from tests.support.pagebuilder_more import render_archiver_page, render_printable_page

# Fuzz tests: run by CI and the full suite, left out of the inner loop (-m "not slow").
pytestmark = pytest.mark.slow

PER_KIND = 30
SEED = 20190512
SCRAPERS = sorted(fuzzing.pages_by_scraper())


def test_every_scraper_has_pages_to_fuzz():
    assert set(SCRAPERS) == {
        "discuz_x",
        "discuz_x_printable",
        "discuz_x_archiver",
        "sohu",
        "discuz7",
        "discuz7_printable",
        "discuz7_archiver",
        "phpbb3",
        "tieba",
    }


@pytest.mark.parametrize("kind", fuzzing.KINDS)
@pytest.mark.parametrize("scraper", SCRAPERS)
def test_damaged_pages_read_right_or_fail_clearly(scraper, kind):
    tally = fuzzing.run(scraper, kind, PER_KIND, SEED)
    outcomes = {outcome: n for (_, _, outcome), n in tally.counts.items()}
    assert sum(outcomes.values()) == PER_KIND
    assert not tally.examples, "\n".join(tally.examples)
    # the damage is real: some of it must be caught
    if kind in ("truncate", "encoding"):
        assert outcomes.get("error", 0) >= PER_KIND // 2, outcomes


# --- what the fuzzer found, one example each ----------------------------------------------------


def save(folder: Path, pages: dict[str, bytes]) -> Path:
    folder.mkdir()
    for name, body in pages.items():
        (folder / name).write_bytes(body)
    return folder


def demo_pages(charset: str = "utf-8") -> dict[str, bytes]:
    demo = demo_thread()
    return {f"page{n}.html": render_discuz_x_page(demo, n, charset=charset) for n in range(1, 5)}


def test_a_saved_page_cut_off_is_an_error_not_a_shorter_thread(tmp_path):
    pages = demo_pages()
    pages["page2.html"] = pages["page2.html"][:30000]
    with pytest.raises(TallyFailed, match="页面不完整"):
        read_thread(str(save(tmp_path / "saved", pages)), tz=SHANGHAI)


def test_a_half_loaded_page_saved_by_a_browser_is_an_error(tmp_path):
    """Cut off, then closed with </body></html>: a well-formed page missing its last posts."""
    pages = demo_pages()
    pages["page3.html"] = pages["page3.html"][:40000] + b"</div></div></body></html>"
    with pytest.raises(TallyFailed, match="页面不完整"):
        read_thread(str(save(tmp_path / "saved", pages)), tz=SHANGHAI)


@pytest.mark.parametrize(
    ("charset", "declared"), [("utf-8", b"charset=gbk"), ("gbk", b"charset=utf-8")]
)
def test_a_page_in_another_charset_than_declared_is_an_error_not_mojibake(
    tmp_path, charset, declared
):
    pages = {
        name: body.replace(f"charset={charset}".encode(), declared)
        for name, body in demo_pages(charset).items()
    }
    with pytest.raises(TallyFailed, match="字符编码与声明不符"):
        read_thread(str(save(tmp_path / "saved", pages)), tz=SHANGHAI)


def test_a_post_whose_container_lost_its_id_is_an_error(tmp_path):
    pages = demo_pages()
    pages["page1.html"] = pages["page1.html"].replace(b'<div id="post_90035" >', b"<div>")
    with pytest.raises(TallyFailed, match="pid=90035"):
        read_thread(str(save(tmp_path / "saved", pages)), tz=SHANGHAI)


def test_a_damaged_page_bar_is_an_error_not_a_one_page_thread(serve_site):
    """Page bars the scraper cannot read used to make a 4-page thread a 1-page one."""
    site = discuz_x_site(demo_thread())

    def damaged(path: str):
        response = site(path)
        body = response.body.replace(b'<div class="pg">', b'<div class="pager">')
        return type(response)(response.status, response.headers, body)

    base = serve_site(damaged)
    with pytest.raises(TallyFailed, match="页码栏"):
        read_thread(f"{base}/forum.php?mod=viewthread&tid={DEMO_TID}", tz=SHANGHAI)


def test_a_post_whose_message_cell_lost_its_id_is_an_error_not_an_empty_post(tmp_path):
    pages = demo_pages()
    pages["page1.html"] = pages["page1.html"].replace(
        b'id="postmessage_90014"', b'id="postmsg_90014"'
    )
    with pytest.raises(TallyFailed, match="读不出正文"):
        read_thread(str(save(tmp_path / "saved", pages)), tz=SHANGHAI)


def test_only_the_boards_own_edit_notice_element_marks_a_ballot_edited(tmp_path):
    """An ``<i>`` without the board's ``pstatus`` class is what a player gets by typing
    "[i]本帖最后由 … 编辑[/i]": it changes nothing, so an edit notice that lost its class
    cannot be told from one, and reads as the player's text: the price of a typed notice
    never rejecting a good ballot (README, Robustness)."""
    pages = demo_pages()
    assert b'<i class="pstatus">' in pages["page2.html"]
    pages["page2.html"] = pages["page2.html"].replace(b'<i class="pstatus">', b"<i>")
    roster = parse_roster(DEMO_ROSTER_TOML)
    result = tally(str(save(tmp_path / "saved", pages)), deadline="2019-05-12 22:00", roster=roster)
    assert (17, "edited") not in {(r.floor, r.reason) for r in result.rejected}


def test_printable_view_with_a_lost_rule_is_an_error(tmp_path):
    page = render_printable_page(demo_thread())
    first_rule = page.index(b"<hr noshade")
    second = page.index(b"<hr noshade", first_rule + 1)
    damaged = page[:second] + page[page.index(b">", second) + 1 :]
    path = tmp_path / "printable.html"
    path.write_bytes(damaged)
    with pytest.raises(TallyFailed, match="发帖标记"):
        read_thread(str(path), tz=SHANGHAI, forum="discuz_x_printable")


def test_archiver_with_a_lost_author_line_is_an_error(tmp_path):
    page = render_archiver_page(demo_thread(), 1)
    damaged = page.replace(b'<p class="author">', b"<p>", 1)
    path = tmp_path / "archiver.html"
    path.write_bytes(damaged)
    with pytest.raises(KillmodError, match="发帖标记"):
        read_thread(str(path), tz=SHANGHAI, forum="discuz_x_archiver")
