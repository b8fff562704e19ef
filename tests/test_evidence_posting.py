"""The evidence bundle on the board: ``tally --record --post`` attaches it to the
announcement where the board takes attachments, and says so; elsewhere the announcement
names where the judge published it (``--evidence-url``).  Against the fake Discuz! X3.4
board, whose reply box carries X3.4's uploader (``scrapers.discuz_x_upload``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from killmod.game.store import Game
from killmod.usecases.verify import verify
from scrapers.discuz_x_upload import attachment_fields, upload_answer, uploader
from tests.support.boardgames import BoardGame, board_game
from tests.support.fakeboard import FakeBoard
from tests.support.gamefiles import TID, vote_thread

ROLES = {seat: "杀手" if seat <= 3 else "检查官" if seat == 4 else "水民" for seat in range(1, 17)}
EVIDENCE_LINE = re.compile(r"计票证据 SHA-256：([0-9a-f]{64})（证据包：([^。]*)。")


def playing(tmp_path: Path, serve_site, board: FakeBoard | None = None) -> BoardGame:
    game = board_game(tmp_path, serve_site, "1.2", ROLES, board=board)
    rows = [(seat, f"20:{seat:02d}:00", "投5号") for seat in range(1, 17)]
    game.board.add_thread(vote_thread(rows))
    return game


def record_and_post(game: BoardGame, *more: object):
    url = game.thread_url(TID)
    return game.run(
        "tally", url, "--deadline", "2024-03-01 22:00", "--record", "--post", url,
        "--interval", 0, "--yes", *more,
    )  # fmt: skip


def test_the_announcement_goes_out_with_its_bundle_attached(tmp_path, serve_site):
    game = playing(tmp_path, serve_site)
    done = record_and_post(game)
    assert done.exit_code == 0, done.output
    ((_, pid, message),) = game.board.replies
    digest, where = EVIDENCE_LINE.search(message).groups()
    assert where == "本帖附件" and message == done.stdout
    ((name, data),) = game.board.attachments_of(pid)
    assert name == "killmod-round1-evidence.zip"
    assert "附件 killmod-round1-evidence.zip" in done.stderr  # shown before it went out
    path = tmp_path / name
    path.write_bytes(data)
    check = verify(path, published=(digest,))
    assert check.same and check.votes[0].announcement == message
    exported = game.run("evidence", "--round", 1, "--out", tmp_path / "again.zip")
    assert exported.exit_code == 0, exported.output
    assert (tmp_path / "again.zip").read_bytes() == data  # the same file the judge exports


def test_a_board_without_attachments_refuses_before_anything_is_recorded(tmp_path, serve_site):
    game = playing(tmp_path, serve_site, FakeBoard(attach_types=None))
    done = record_and_post(game)
    assert done.exit_code == 1
    assert "没有记录：论坛不让法官在这个帖子里上传附件" in done.output
    assert "--evidence-url" in done.output
    assert game.board.replies == [] and game.board.uploads == {}
    with Game.open(game.db) as opened:
        assert opened.tallies() == []


def test_a_board_that_takes_no_zip_refuses_naming_what_it_takes(tmp_path, serve_site):
    game = playing(tmp_path, serve_site, FakeBoard(attach_types="jpg,png"))
    done = record_and_post(game)
    assert done.exit_code == 1 and "论坛不收 zip 附件（只收 jpg、png）" in done.output
    assert game.board.replies == []


def test_the_announcement_names_where_the_judge_published_the_bundle(tmp_path, serve_site):
    game = playing(tmp_path, serve_site, FakeBoard(attach_types=None))
    done = record_and_post(game, "--evidence-url", "https://pan.example.com/s/abc")
    assert done.exit_code == 0, done.output
    ((_, pid, message),) = game.board.replies
    assert EVIDENCE_LINE.search(message)[2] == "https://pan.example.com/s/abc"
    assert game.board.uploads == {} and game.board.attachments_of(pid) == []


def test_a_bundle_over_the_boards_limit_is_not_posted_and_the_record_stays(tmp_path, serve_site):
    game = playing(tmp_path, serve_site, FakeBoard(attach_kb=1))
    done = record_and_post(game)
    assert done.exit_code == 1
    assert "超过论坛的附件上限 1 KB" in done.output and "本步已经记录" in done.output
    assert game.board.replies == []
    with Game.open(game.db) as opened:
        assert len(opened.tallies()) == 1


def test_evidence_url_is_for_a_recorded_vote(tmp_path, serve_site):
    game = playing(tmp_path, serve_site)
    url = game.thread_url(TID)
    done = game.run("tally", url, "--deadline", "2024-03-01 22:00", "--evidence-url", "x")
    assert done.exit_code == 2 and "要和 --record 一起用" in done.output


# --- the uploader and its answers, as X3.4 writes them ----------------------------------------

# viewthread_fastpost.htm's two uploaders, as a logged-in member's thread page has them.
PAGE = """<script type="text/javascript">
var imgUpload = new SWFUpload({
upload_url: "http://bbs.example.com/misc.php?mod=swfupload&action=swfupload&operation=upload&fid=7",
post_params: {"uid" : "900", "hash":"0f1e2d3c4b5a69788796a5b4c3d2e1f0", "type":"image"},
file_size_limit : "2048",
file_types : "*.jpg;*.jpeg;*.gif;*.png",
debug: false
});
var upload = new SWFUpload({
upload_url: "http://bbs.example.com/misc.php?mod=swfupload&action=swfupload&operation=upload&fid=7",
post_params: {"uid":"900", "hash":"0f1e2d3c4b5a69788796a5b4c3d2e1f0"},
file_size_limit : "2048",
file_types : "*.chm;*.pdf;*.zip;*.rar",
debug: false
});
</script>"""


def test_the_attachment_uploader_is_read_not_the_image_one():
    found = uploader(PAGE)
    assert (found.fid, found.uid, found.max_bytes) == (7, 900, 2048 * 1024)
    assert found.takes("killmod-round1-evidence.zip") and not found.takes("a.json")
    assert found.url("http://bbs.example.com/") == (
        "http://bbs.example.com/misc.php?mod=swfupload&operation=upload&simple=1&fid=7"
    )
    assert uploader(PAGE.replace("*.chm;*.pdf;*.zip;*.rar", "*.*")).takes("a.json")
    assert uploader(PAGE.split("var upload")[0]) is None  # images only: no attachments
    assert uploader("<html>no box</html>") is None


@pytest.mark.parametrize(
    ("text", "aid", "said"),
    [
        ("DISCUZUPLOAD|0|123|0|0", 123, "上传成功"),
        ("DISCUZUPLOAD|1|0|0|0", None, "不支持此类扩展名"),
        (
            "DISCUZUPLOAD|3|0|0|1024000",
            None,
            "用户组限制无法上传那么大的附件（不能超过 1024000 字节）",
        ),
        ("DISCUZUPLOAD|4|0|0|ban", None, "不支持此类扩展名（附件类型被禁止）"),
        ("", None, "非法操作"),
    ],
)
def test_the_boards_answer_to_an_upload(text, aid, said):
    answer = upload_answer(text)
    assert (answer.aid, answer.message) == (aid, said)


def test_the_reply_names_the_attachment_as_updateattach_reads_it():
    assert attachment_fields(123, "证据包") == {"attachnew[123][description]": "证据包"}
