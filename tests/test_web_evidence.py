"""The evidence bundle on the judge's page (issue 29.5): chosen where it goes when the vote is
recorded — attached to the announcement where the board takes it, as ``tally --record
--post`` attaches it; else at an address the judge gives (``--evidence-url``); else asked of
the judge — and offered for download on the count, 今天 and 历程: the bytes ``killmod
evidence`` writes, which ``killmod verify`` confirms."""

from __future__ import annotations

import re
from pathlib import Path

from killmod.game.store import Game
from killmod.usecases.verify import verify
from tests.support.gamefiles import TID
from tests.support.webday import (
    DEADLINE,
    FIVE_OUT,
    Day,
    error_beside,
    read_at_one_moment,
    run,
)
from tests.support.webpage import text_box

EVIDENCE_LINE = re.compile(r"计票证据 SHA-256：([0-9a-f]{64})（证据包：([^。]*)。")
NAME = "killmod-round1-evidence.zip"


def vote(day: Day, **more: str) -> dict[str, str]:
    return {"thread": day.vote_url, "deadline": DEADLINE, "round": "1", **more}


def posted_key(html: str) -> str:
    return html.split('name="key" value="')[1].split('"')[0]


def recorded_rounds(db: Path) -> list[int]:
    with Game.open(db) as opened:
        return [row["round"] for row in opened.tallies()]


def test_signed_in_the_bundle_goes_out_attached_as_tally_record_post_attaches_it(
    tmp_path: Path, serve_site, monkeypatch
):
    read_at_one_moment(monkeypatch)
    day = Day(tmp_path, serve_site, FIVE_OUT)
    cookies = day.sign_in()
    asked = day.page.post("/vote/confirm", vote(day)).get_data(as_text=True)
    assert 'name="evidence" value="attach" checked' in asked  # signed in: attached
    twin = day.twin()

    recorded = day.page.post("/vote/record", vote(day, evidence="attach"))
    html = recorded.get_data(as_text=True)
    assert recorded.status_code == 200, html
    announcement = text_box(html, "step-post")
    digest, where = EVIDENCE_LINE.search(announcement).groups()
    assert where == "本帖附件" and NAME in html
    # the command records the same vote (its reply goes to the game thread: the vote thread
    # stays as the page read it) and prints the same announcement, to the byte
    printed = run(
        "tally", day.vote_url, "--deadline", DEADLINE, "--record", "--post", day.game_url,
        "--cookies", cookies, "--interval", 0, "--yes", "--db", twin,
    )  # fmt: skip
    assert printed.exit_code == 0, printed.output
    assert printed.stdout == announcement
    day.board.replies.clear()

    preview = day.page.post("/post/preview", {"key": posted_key(html), "thread": day.vote_url})
    assert f"，附件 {NAME}（" in preview.get_data(as_text=True)  # shown before it goes
    assert day.board.replies == []
    sent = day.page.post("/post/send", {"key": posted_key(html), "thread": day.vote_url})
    assert "已回复帖子" in sent.get_data(as_text=True)
    ((tid, pid, message),) = day.board.replies
    assert (tid, message) == (TID, announcement)
    ((name, data),) = day.board.attachments_of(pid)
    assert name == NAME
    bundle = tmp_path / name
    bundle.write_bytes(data)
    assert verify(bundle, published=(digest,)).same

    downloaded = day.page.get("/evidence/1")
    assert downloaded.headers["Content-Type"] == "application/zip"
    assert f'filename="{NAME}"' in downloaded.headers["Content-Disposition"]
    assert downloaded.data == data
    exported = run("evidence", "--round", 1, "--out", tmp_path / "exported.zip", "--db", day.db)
    assert exported.exit_code == 0, exported.output
    assert (tmp_path / "exported.zip").read_bytes() == data  # what killmod evidence writes


def test_a_board_that_takes_no_attachment_is_refused_beside_the_choice_then_an_address_is_given(
    tmp_path: Path, serve_site, monkeypatch
):
    read_at_one_moment(monkeypatch)
    day = Day(tmp_path, serve_site, FIVE_OUT, attach_types=None)
    day.sign_in()
    twin = day.twin()
    refused = day.page.post("/vote/record", vote(day, evidence="attach"))
    assert refused.status_code == 422
    html = refused.get_data(as_text=True)
    assert "论坛不让法官在这个帖子里上传附件" in error_beside(html, "evidence")
    assert 'name="evidence_url"' in html and "确认记录" in html  # the confirmation again
    assert recorded_rounds(day.db) == [] and day.board.uploads == {}
    empty = day.page.post("/vote/record", vote(day, evidence="url", evidence_url=" "))
    assert "证据包公布的网址" in error_beside(empty.get_data(as_text=True), "evidence_url")
    assert recorded_rounds(day.db) == []

    address = "https://pan.example.com/s/abc"
    recorded = day.page.post("/vote/record", vote(day, evidence="url", evidence_url=address))
    html = recorded.get_data(as_text=True)
    assert recorded.status_code == 200, html
    announcement = text_box(html, "step-post")
    assert EVIDENCE_LINE.search(announcement)[2] == address
    printed = run(
        "tally", day.vote_url, "--deadline", DEADLINE, "--record", "--evidence-url", address,
        "--db", twin,
    )  # fmt: skip
    assert printed.exit_code == 0, printed.output
    assert printed.stdout == announcement
    day.page.post("/post/send", {"key": posted_key(html), "thread": day.vote_url})
    ((_, pid, _),) = day.board.replies
    assert day.board.uploads == {} and day.board.attachments_of(pid) == []


def test_not_signed_in_the_announcement_says_ask_the_judge_and_the_pages_offer_the_bundle(
    tmp_path: Path, serve_site
):
    day = Day(tmp_path, serve_site, FIVE_OUT)
    assert day.page.get("/evidence/1").status_code == 404  # nothing recorded yet
    assert "第 1 轮没有记录过投票" in day.page.get("/evidence/1").get_data(as_text=True)
    assert 'id="evidence-1"' not in day.page.get("/").get_data(as_text=True)
    asked = day.page.post("/vote/confirm", vote(day)).get_data(as_text=True)
    assert 'name="evidence" value="ask" checked' in asked
    unsigned = day.page.post("/vote/record", vote(day, evidence="attach"))
    assert "还没有登录论坛" in error_beside(unsigned.get_data(as_text=True), "evidence")
    assert recorded_rounds(day.db) == []

    recorded = day.page.post("/vote/record", vote(day))
    html = recorded.get_data(as_text=True)
    assert "向法官索取" in EVIDENCE_LINE.search(text_box(html, "step-post"))[2]
    assert 'href="/evidence/1"' in html
    for page in ("/", "/history"):
        shown = day.page.get(page).get_data(as_text=True)
        assert 'href="/evidence/1" download id="evidence-1"' in shown, page
    bundle = tmp_path / NAME
    bundle.write_bytes(day.page.get("/evidence/1").data)
    checked = run("verify", bundle)
    assert checked.exit_code == 0, checked.output
    assert "结论：一致" in checked.stdout
