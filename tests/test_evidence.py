"""Any player can check the count: ``killmod evidence`` and ``killmod verify`` (README, “Evidence”).

A recorded vote keeps its count document — the posts as read, the views, the deadline
and its zone, the roster without roles, the rulings, the rule set, killmod's version and
the result — and its announcement prints the document's SHA-256.  ``evidence`` packs a
round into one zip; ``verify`` counts it again from the zip alone, with no game file and
no network, and says 一致 or names each difference.  A bundle edited after the fact is
caught, by the recount or by the hash.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import sqlite3
import zipfile
from pathlib import Path

import pytest

from killmod.usecases.evidence import canonical, pack
from killmod.usecases.verify import recount, verify
from tests.support.gamefiles import (
    LATER,
    new_game,
    ok,
    point_all,
    refused,
    run,
    serve,
    tally,
    votes,
)
from tests.support.gamesteps import console
from tests.support.pagebuilder import DEMO_ROSTER_TOML
from tests.support.publicgames import (
    SETS,
    Chooser,
    Game2,
    compare_twins,
    fixed_salt,
    leaks,
    role_words,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "day1"
DEADLINE = "2019-05-12 22:00"
EVIDENCE_LINE = re.compile(r"计票证据 SHA-256：([0-9a-f]{64})")


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """The example's 1.2 game (roles in the roster), day 1 not recorded yet."""
    roster = tmp_path / "roster.toml"
    roster.write_text(DEMO_ROSTER_TOML, encoding="utf-8")
    db = tmp_path / "game.db"
    ok(run("init", "--roster", roster, "--db", db))
    return db


def record_example(db: Path, *more: object) -> str:
    """Day 1 of the example recorded; the announcement printed."""
    return ok(
        run("tally", EXAMPLE, "--deadline", DEADLINE, "--db", db, "--record", "--round", 1, *more)
    )


def export(db: Path, round_no: int = 1) -> Path:
    out = db.parent / f"round{round_no}.zip"
    done = run("evidence", "--round", round_no, "--db", db, "--out", out)
    assert done.exit_code == 0, done.output
    return out


def members(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def count_of(path: Path, number: int = 1) -> dict:
    return json.loads(members(path)[f"vote{number}/count.json"])


def rewritten(path: Path, change, number: int = 1) -> Path:
    """The bundle with its count document changed by ``change`` (the hashes left as they were)."""
    files = members(path)
    document = json.loads(files[f"vote{number}/count.json"])
    change(document)
    files[f"vote{number}/count.json"] = canonical(document)
    out = path.with_name("tampered.zip")
    out.write_bytes(pack(files))
    return out


def forged(path: Path, change, announcement: str, printed: str, number: int = 1) -> Path:
    """A forger's bundle: vote ``number``'s count document changed by ``change`` and its
    result counted again (the forger's own killmod), its new SHA-256 written in the manifest
    and, in place of ``printed``, in its ``announcement``."""
    files = members(path)
    document = json.loads(files[f"vote{number}/count.json"])
    change(document)
    document["result"] = recount(document)
    forgery = canonical(document)
    digest = hashlib.sha256(forgery).hexdigest()
    files[f"vote{number}/count.json"] = forgery
    manifest = json.loads(files["manifest.json"])
    manifest["votes"][number - 1]["sha256"] = digest
    files["manifest.json"] = json.dumps(manifest).encode()
    files[f"vote{number}/announcement.txt"] = announcement.replace(printed, digest).encode()
    out = path.with_name("forgery.zip")
    out.write_bytes(pack(files))
    return out


def checked(path: Path, *args: object):
    return run("verify", path, *args)


def parts(path: Path) -> list[str]:
    return [d.part for vote in verify(path).votes for d in vote.differences]


# --- the bundle and its hash in the announcement --------------------------------------------


def test_the_announcement_prints_the_sha256_of_the_count_document_in_the_bundle(game):
    posted = record_example(game)
    printed = EVIDENCE_LINE.search(posted)[1]
    path = export(game)
    files = members(path)
    assert sorted(files) == [
        "README.txt",
        "manifest.json",
        "vote1/announcement.txt",
        "vote1/count.json",
    ]
    assert hashlib.sha256(files["vote1/count.json"]).hexdigest() == printed
    assert files["vote1/announcement.txt"].decode() == posted  # as printed, whole
    assert "killmod verify" in posted and "killmod evidence --round 1" in posted
    manifest = json.loads(files["manifest.json"])
    assert manifest["schema"] == "killmod.evidence/1"
    assert manifest["votes"][0]["sha256"] == printed


def test_verify_recounts_from_the_bundle_alone_and_shows_the_announcement(game, tmp_path):
    posted = record_example(game)
    path = export(game)
    alone = tmp_path / "elsewhere"
    alone.mkdir()
    moved = Path(shutil.move(path, alone / "bundle.zip"))
    game.unlink()  # no game file anywhere near
    done = checked(moved, "--hash", EVIDENCE_LINE.search(posted)[1])
    assert done.exit_code == 0, done.output
    assert "一致：只用证据包里的帖子、名单和裁定重新计票" in done.stdout
    assert "结论：一致。你给的 SHA-256 也与证据包相符。" in done.stdout
    assert done.stdout.endswith(posted)  # 一致, then the announcement text


def test_the_count_document_holds_everything_the_count_depends_on(game, tmp_path):
    rulings = tmp_path / "rulings.toml"
    rulings.write_text('[19]\ntarget = 7\nnote = "错别字，按 7 号计"\n', encoding="utf-8")
    record_example(game, "--rulings", rulings)
    document = count_of(export(game))
    assert document["schema"] == "killmod.evidence/1" and document["killmod"]
    assert document["rules"] == {"name": "1.2", "variants": [], "code": None}
    assert (document["deadline"], document["timezone"]) == (
        "2019-05-12T22:00:00+08:00",
        "Asia/Shanghai",
    )
    assert document["options"] == {"edits": "strict", "ambiguous_time": "count"}
    (ruling,) = document["rulings"]
    assert (ruling["floor"], ruling["target"], ruling["note"]) == (19, 7, "错别字，按 7 号计")
    assert ruling["pid"] == next(p["pid"] for p in document["posts"] if p["floor"] == 19)
    post = next(p for p in document["posts"] if p["floor"] == 4)
    assert set(post) >= {"pid", "floor", "author", "uid", "posted_at", "body", "quotes"}
    assert post["posted_at"].endswith("+08:00") and len(post["posted_at"]) == 25  # seconds
    assert any(p["quotes"] for p in document["posts"]) and any(
        p["edited_at"] for p in document["posts"]
    )
    thread = document["thread"]
    assert thread["views"] and thread["read_at"] and thread["pages"] == 4
    players = document["roster"]["players"]
    assert len(players) == 16 and all("role" not in p for p in players)
    assert players[0]["aliases"] == ["米儿"] and players[0]["uid"] == 2000
    assert document["roster"]["substitutes"] == ["替补甲"]
    assert document["result"]["outcome"]["kind"] == "tie"
    assert document["vote"]["kind"] == "vote"


def test_no_role_is_in_the_bundle_but_the_camp_the_announcement_shows(game):
    record_example(game)
    text = b"".join(members(export(game)).values()).decode()
    assert "水民" not in text and "检查官" not in text and '"role"' not in text
    assert "好人" in text  # the voted-out 5号's camp, as announced


def test_the_same_round_packs_to_the_same_bytes_and_the_api_gives_them(game):
    import killmod
    from killmod.game.store import Game
    from killmod.usecases.evidence import evidence_bytes

    record_example(game)
    first = export(game).read_bytes()
    with Game.open(game) as opened:
        assert evidence_bytes(opened, 1) == first
        made = killmod.evidence(opened, 1)
    assert made.name == "killmod-round1-evidence.zip" and made.data == first
    assert killmod.verify(first).same


def test_evidence_writes_beside_the_game_file_and_never_over_another_file(game):
    record_example(game)
    done = run("evidence", "--round", 1, "--db", game)
    assert done.exit_code == 0, done.output
    assert (game.parent / "killmod-round1-evidence.zip").exists()
    assert "killmod verify killmod-round1-evidence.zip" in done.stderr and done.stdout == ""
    again = run("evidence", "--round", 1, "--db", game)  # an earlier bundle is replaced
    assert again.exit_code == 0, again.output
    other = game.parent / "notes.txt"
    other.write_text("法官的笔记", encoding="utf-8")
    refused(run("evidence", "--round", 1, "--db", game, "--out", other), "不是 killmod 的证据包")
    assert other.read_text(encoding="utf-8") == "法官的笔记"


def test_evidence_of_a_round_without_a_recorded_vote_is_refused(game):
    refused(run("evidence", "--round", 1, "--db", game), "第 1 轮没有记录过投票")


def test_a_vote_recorded_by_an_older_killmod_has_no_evidence(game):
    record_example(game)
    with sqlite3.connect(game) as db:
        db.execute("delete from evidence")
    refused(run("evidence", "--round", 1, "--db", game), "旧版 killmod 记录的，没有留下证据")


def test_an_undone_vote_leaves_no_evidence_and_a_vote_recorded_again_its_own(game, tmp_path):
    record_example(game)
    first = count_of(export(game))
    ok(run("undo", "--db", game))
    refused(run("evidence", "--round", 1, "--db", game), "第 1 轮没有记录过投票")
    rulings = tmp_path / "rulings.toml"
    rulings.write_text("[19]\ntarget = 7\n", encoding="utf-8")
    posted = record_example(game, "--rulings", rulings)
    path = export(game)
    assert count_of(path)["rulings"] != first["rulings"]
    assert hashlib.sha256(members(path)["vote1/count.json"]).hexdigest() in posted
    assert verify(path).same


# --- a bundle edited after the fact ----------------------------------------------------------


def test_a_post_moved_after_the_deadline_is_caught(game):
    record_example(game)

    def later(document):
        post = next(p for p in document["posts"] if p["floor"] == 4)
        post["posted_at"] = "2019-05-12T22:00:05+08:00"

    tampered = rewritten(export(game), later)
    done = checked(tampered)
    assert done.exit_code == 1
    assert "投票 3号 路人甲：记录的是 5号 预言家本家（4楼" in done.stdout
    assert "重新计票是 超过截止时间" in done.stdout
    assert "SHA-256：公告上印的是" in done.stdout and "结论：不一致" in done.stdout
    assert {"hash", "ballots", "counts", "verdicts", "rejected"} <= set(parts(tampered))


def test_a_ruling_removed_is_caught(game, tmp_path):
    rulings = tmp_path / "rulings.toml"
    rulings.write_text('[19]\ntarget = 7\nnote = "错别字"\n', encoding="utf-8")
    record_example(game, "--rulings", rulings)
    tampered = rewritten(export(game), lambda document: document["rulings"].clear())
    done = checked(tampered)
    assert done.exit_code == 1
    assert "结果：记录的是 平票（5号 预言家本家、7号 花生米），重新计票是 5号 预言家本家 出局" in (
        done.stdout
    )
    assert "outcome" in parts(tampered)


def test_a_ballot_added_is_caught(game):
    record_example(game)

    def added(document):
        ballot = dict(document["posts"][-1])
        ballot.update(pid=99999, floor=31, author="小明", uid=2008, body="投7号")
        ballot.update(posted_at="2019-05-12T21:59:00+08:00", edited_at=None, quotes=[])
        document["posts"].append(ballot)

    tampered = rewritten(export(game), added)
    done = checked(tampered)
    assert done.exit_code == 1
    assert "帖子 pid 99999（31楼 小明）：记录的是 没有这个帖子，重新计票是 计票：7号" in done.stdout
    assert "投票 9号 小明：记录的是 未投票，视为自投" in done.stdout


def test_a_forgery_that_rewrites_the_result_too_is_caught_by_the_hash(game):
    """Posts and result rewritten to agree, the manifest and the announcement's hash line
    too: the recount agrees, so only the SHA-256 the board shows catches it."""
    posted = record_example(game)
    on_board = EVIDENCE_LINE.search(posted)[1]

    def late(document: dict) -> None:
        for post in document["posts"]:
            if post["floor"] == 4:
                post["posted_at"] = "2019-05-12T22:00:05+08:00"

    forgery = forged(export(game), late, posted, on_board)
    assert verify(forgery).same  # consistent in itself…
    done = checked(forgery, "--hash", on_board)  # …but not the bundle the board names
    assert done.exit_code == 1
    assert f"你给的 {on_board} 不是证据包里任何一次投票的计票证据" in done.stdout


def test_an_announcement_swapped_for_another_is_caught(game):
    record_example(game)
    path = export(game)
    files = members(path)
    files["vote1/announcement.txt"] = b"[b]5 out[/b]\n" + b"0" * 64
    swapped = path.with_name("swapped.zip")
    swapped.write_bytes(pack(files))
    done = checked(swapped)
    assert done.exit_code == 1
    assert "公告上印的是 " + "0" * 64 in done.stdout


def test_the_announcement_shown_is_labelled_as_the_bundles_copy_whose_hash_alone_is_checked(
    game,
):
    """Only the hash line of voteN/announcement.txt can be checked offline: its wording
    changed, verify still agrees (exit 0), so it must not call the text the original."""
    posted = record_example(game)
    path = export(game)
    files = members(path)
    assert "verify 只核对它印的\n  SHA-256" in files["README.txt"].decode()
    assert "公告原文" not in files["README.txt"].decode()
    reworded = posted.replace("得票最高，被投出局", "得票最低，平安无事")
    assert reworded != posted
    files["vote1/announcement.txt"] = reworded.encode()
    edited = path.with_name("reworded.zip")
    edited.write_bytes(pack(files))
    done = console("verify", edited, "--hash", EVIDENCE_LINE.search(posted)[1])
    assert done.returncode == 0, done.stdout + done.stderr
    label = (
        "—— 证据包里第 1 次投票的公告（只核对了其中的 SHA-256；与论坛上的公告逐字比对请自己看）——"
    )
    assert f"{label}\n{reworded}" in done.stdout
    assert "公告原文" not in done.stdout
    assert "证据包里的公告上印的正是这个 SHA-256" in done.stdout


# --- unreadable, older and newer bundles -----------------------------------------------------


def test_what_is_not_a_bundle_is_refused_naming_it(tmp_path):
    text = tmp_path / "notes.zip"
    text.write_text("not a zip", encoding="utf-8")
    refused(checked(text), "不是 zip 文件")
    empty = tmp_path / "empty.zip"
    empty.write_bytes(pack({"a.txt": b"x"}))
    refused(checked(empty), "没有 manifest.json")
    refused(checked(tmp_path / "missing.zip"), "无法读取证据包")


def test_a_bundle_of_a_newer_schema_is_refused_with_what_to_do(game):
    record_example(game)
    path = export(game)
    files = members(path)
    manifest = json.loads(files["manifest.json"])
    manifest["schema"] = "killmod.evidence/2"
    files["manifest.json"] = json.dumps(manifest).encode()
    newer = path.with_name("newer.zip")
    newer.write_bytes(pack(files))
    done = checked(newer)
    refused(done, "是更新版本的 killmod 写的（格式 killmod.evidence/2")
    assert "pip install -U killmod" in done.output


def test_a_damaged_field_is_refused_naming_the_member_and_the_field(game):
    record_example(game)

    def damaged(document):
        document["posts"][3]["posted_at"] = "yesterday"

    refused(
        checked(rewritten(export(game), damaged)), "vote1/count.json 读不懂：posts[3].posted_at"
    )

    def missing(document):
        del document["roster"]["players"][0]["seat"]

    refused(checked(rewritten(export(game), missing)), "roster.players[0].seat 缺少")


def test_fields_a_later_killmod_adds_are_ignored(game):
    """Within ``killmod.evidence/1`` fields may be added: a verifier that does not know
    them counts the same."""
    record_example(game)
    path = export(game)

    def added(document):
        document["hidden_text"] = {"90028": "……"}
        for post in document["posts"]:
            post["reading"] = "plain"

    grown = rewritten(path, added)
    files = members(grown)
    digest = hashlib.sha256(files["vote1/count.json"]).hexdigest()
    old = json.loads(files["manifest.json"])["votes"][0]["sha256"]
    files["manifest.json"] = files["manifest.json"].replace(old.encode(), digest.encode())
    files["vote1/announcement.txt"] = files["vote1/announcement.txt"].replace(
        old.encode(), digest.encode()
    )
    grown.write_bytes(pack(files))
    assert verify(grown).same


@pytest.mark.parametrize("name", ["evidence-v1.zip", "evidence-v1-knife.zip"])
def test_a_bundle_of_schema_1_checked_in_still_verifies(name):
    """``tests/data/evidence-v1*.zip`` were made by ``tests/data/make_v1_evidence.py`` (a
    1.2 day with a ruling, a leave, a tie and its lottery; a 1.0 pointing and its knife):
    every later killmod must verify them, or refuse them saying why."""
    check = verify(ROOT / "tests" / "data" / name)
    assert check.same, [vote.differences for vote in check.votes]
    if name == "evidence-v1.zip":
        assert check.lottery is not None and check.lottery.drawn is not None
    else:
        assert [vote.stage for vote in check.votes] == ["point", "knife"]


def test_a_game_file_of_killmod_0_1_has_no_evidence_to_export(tmp_path):
    db = tmp_path / "old.db"
    shutil.copy(ROOT / "tests" / "data" / "v1-game.db", db)
    ok(run("upgrade", "--db", db))
    refused(run("evidence", "--round", 1, "--db", db), "旧版 killmod 记录的，没有留下证据")


# --- knife, pointing, a silenced voter, the lottery -----------------------------------------


def pointing_and_knife(tmp_path: Path, serve_site, first_killer: str) -> tuple[Path, str]:
    """A 1.0 game (killers 1 and 2) and its vote thread: 1 pointed by 2–4 (5 and 6 point
    2 and 3), then at 22:30 the knife's ballots, seat 1's ``first_killer``."""
    db = new_game(
        tmp_path, "1.0", {1: "杀手", 2: "杀手", 3: "平民", 4: "平民", 5: "平民", 6: "平民"}
    )
    url = serve(
        serve_site,
        point_all("20:00:00", 1, (2, 3, 4))
        + votes("20:10:00", {5: "投2", 6: "投3"})
        + votes("22:30:00", {1: first_killer, 2: "过", 3: "动刀", 4: "刀", 5: "不杀"}),
    )
    return db, url


def test_a_pointing_and_its_knife_are_one_bundle_both_verified(tmp_path, serve_site):
    db, url = pointing_and_knife(tmp_path, serve_site, first_killer="刀")
    pointed = ok(tally(db, url, "--record", "--phase", "point"))
    knifed = ok(tally(db, url, "--record", "--phase", "knife", deadline=LATER))
    path = export(db)
    check = verify(path)
    assert check.same, [vote.differences for vote in check.votes]
    assert [vote.stage for vote in check.votes] == ["point", "knife"]
    assert [vote.sha256 for vote in check.votes] == [
        EVIDENCE_LINE.search(pointed)[1],
        EVIDENCE_LINE.search(knifed)[1],
    ]
    knife = count_of(path, 2)
    assert knife["vote"]["defender"] == 1 and knife["result"]["day"]["knife"]["knives"] == [3, 4]

    def one_more_knife(document):
        post = next(p for p in document["posts"] if p["author"] == "玩家5" and "杀" in p["body"])
        post["body"] = "刀"

    done = checked(rewritten(path, one_more_knife, number=2))
    assert done.exit_code == 1 and "动刀计数" in done.stdout
    assert "结果：记录的是 无人出局，重新计票是 1号 玩家1 出局" in done.stdout


def test_a_silenced_players_uncounted_ballot_verifies_and_says_nothing_of_why(tmp_path, serve_site):
    from tests.test_v4_game import ROLES

    db = new_game(tmp_path, "v4", ROLES)
    ok(run("night", "--round", 0, "--db", db, "--silence", 13))
    url = serve(
        serve_site,
        votes("20:00:00", {1: "投11", 2: "投11", 3: "投11", 6: "投12", 7: "弃权", 13: "投2号"}),
    )
    ok(tally(db, url, "--record", "--round", 1))
    path = export(db)
    document = count_of(path)
    assert document["uncounted"] == [13]  # as public as the announcement's 不计票
    text = b"".join(members(path).values()).decode()
    assert not any(word in text for word in ("癫狂", "沉默", "frenzy", "森林老人"))
    assert verify(path).same

    def uncounted_dropped(document):
        document["uncounted"] = []

    assert "ballots" in parts(rewritten(path, uncounted_dropped))


def test_text_the_board_renders_invisible_is_in_the_bundle_and_counted_the_same(
    tmp_path, serve_site
):
    """A ballot only in white text (``Post.hidden``) is rejected ``hidden_text``: the bundle
    keeps the invisible text apart, as the reader saw it, and the recount agrees."""
    white = '今天天气不错<font color="white">改票 投6号</font>'
    db = new_game(tmp_path, "1.2", dict.fromkeys(range(1, 9)))
    url = serve(serve_site, [(3, "20:00:00", "投5号"), (3, "20:05:00", white)])
    ok(tally(db, url, "--record", "--round", 1, "--view", "pages"))
    path = export(db)
    post = next(p for p in count_of(path)["posts"] if p["hidden"])
    assert (post["body"], post["hidden"]) == ("今天天气不错", ["改票 投6号"])
    assert verify(path).same

    def shown(document):
        for each in document["posts"]:
            each["body"] += "".join(each.pop("hidden"))

    assert "verdicts" in parts(rewritten(path, shown))


def test_the_lottery_is_in_the_bundle_its_lots_only_once_drawn(game, tmp_path):
    rulings = tmp_path / "rulings.toml"
    rulings.write_text("[19]\ntarget = 7\n", encoding="utf-8")
    record_example(game, "--rulings", rulings)  # a 5–7 tie
    ok(run("lottery", "make", "--round", 1, "--seed", 3, "--db", game))
    made = members(export(game))
    lottery = json.loads(made["lottery.json"])
    assert lottery["seats"] == [5, 7] and lottery["reveal"] is None
    assert lottery["settles"] == "vote1/count.json"
    with sqlite3.connect(game) as db:
        (data,) = db.execute("select data from events where kind = 'lottery'").fetchone()
    salt = json.loads(data)["salt"]
    assert salt.encode() not in b"".join(made.values())
    done = checked(export(game))
    assert done.exit_code == 0 and "还没有抽签" in done.stdout
    drawn = ok(run("lottery", "reveal", "--round", 1, "--lot", 2, "--db", game))
    path = export(game)
    lottery = json.loads(members(path)["lottery.json"])
    assert lottery["reveal"]["salt"] == salt and salt in drawn
    done = checked(path)
    assert done.exit_code == 0, done.output
    assert "抽到 2 号签" in done.stdout and "与抽签前的承诺值相符" in done.stdout
    files = members(path)
    forged = json.loads(files["lottery.json"])
    one, two = (pair.split("=")[1] for pair in forged["reveal"]["mapping"].split(","))
    forged["reveal"]["mapping"] = f"1={two},2={one}"  # the lots swapped after the draw
    files["lottery.json"] = json.dumps(forged).encode()
    path.write_bytes(pack(files))
    done = checked(path)
    assert done.exit_code == 1 and "不是抽签前公布的承诺值" in done.stdout


def test_verify_needs_no_network_and_no_game_file(game, tmp_path, monkeypatch):
    import socket

    record_example(game)
    data = export(game).read_bytes()

    def no_network(*args, **kwargs):
        raise AssertionError("verify opened a connection")

    monkeypatch.setattr(socket, "create_connection", no_network)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.chdir(tmp_path)
    assert verify(io.BytesIO(data).getvalue()).same


# --- no secret in any bundle, whatever the rule set -----------------------------------------


class EvidenceGame(Game2):
    """Twin games (``publicgames``) whose every recorded vote, lottery made and lottery drawn
    is followed by ``killmod evidence`` on both files: each bundle's text is kept as one
    more public output, and must verify."""

    def run(self, label: str, *args: object, extra_b: tuple = (), on_file: bool = True) -> int:
        code = super().run(label, *args, extra_b=extra_b, on_file=on_file)
        words = [str(arg) for arg in args]
        recorded = label.startswith("tally ") and "--record" in words
        if code == 0 and (recorded or label in ("lottery make", "lottery reveal")):
            self.bundles(int(words[words.index("--round") + 1]))
        return code

    def bundles(self, round_no: int) -> None:
        for twin in self.twins:
            out = twin.folder / f"round{round_no}-{len(twin.seen)}.zip"
            done = run("evidence", "--round", round_no, "--db", twin.db, "--out", out)
            assert done.exit_code == 0, done.output
            check = verify(out)
            assert check.same, [vote.differences for vote in check.votes]
            text = "\n".join(f"### {name}\n{data.decode()}" for name, data in members(out).items())
            twin.seen.append(self._seen(twin, f"evidence {round_no}", text, 0))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", sorted(SETS))
def test_no_bundle_of_any_rule_set_tells_a_secret(tmp_path, name, seed):
    """No living role, hidden night effect or night target (the twins' bundles are the
    same), no lot or salt before the draw; and every bundle verifies."""
    game = EvidenceGame(tmp_path, name, templates=None)
    game.tie_once = seed == 1  # a tie: its lottery (1.2) or a re-vote
    with fixed_salt():
        game.play(Chooser.seeded(seed))
    bundles = [seen for seen in game.twins[0].seen if seen.label.startswith("evidence")]
    assert bundles, "the game recorded no vote"
    words = role_words(game.rules, game.variants)
    problems = [problem for seen in bundles for problem in leaks(seen, words, game.rules)]
    problems += [problem for problem in compare_twins(game) if problem.startswith("evidence")]
    salt = "ab" * 16  # fixed_salt's
    for seen in bundles:
        drawn = any(name.startswith(f"round{seen.label.split()[1]}-") for name in seen.lots_open)
        if not drawn and (salt in seen.stdout or '"mapping"' in seen.stdout):
            problems.append(f"{seen.label}: the lots or the salt before the draw")
    assert not problems, "\n".join(problems)


# --- any edit, any shape ---------------------------------------------------------------------

ODD_VALUES = (None, 0, -1, 10**20, "", "x", [], {}, True, 1.5, "2019-05-12T22:00:00", [1, "a"])


def nodes(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from nodes(item, (*path, index))


@pytest.mark.slow
def test_any_edit_of_a_count_document_is_caught_or_refused_never_a_traceback(game):
    """Random edits (a value replaced by one of another kind, a key removed, up to three at
    once) anywhere in the count document: verify exits 1 (a difference) or 2 (unreadable,
    naming the field), never 0, never with a traceback."""
    import random

    record_example(game)
    path = export(game)
    original = count_of(path)
    rng = random.Random(29)
    tried = 0
    while tried < 300:
        document = json.loads(json.dumps(original))
        for _ in range(rng.randint(1, 3)):
            where = rng.choice([found for found, _ in nodes(document) if found])
            parent = document
            for key in where[:-1]:
                parent = parent[key]
            if isinstance(parent, dict) and rng.random() < 0.3:
                del parent[where[-1]]
            else:
                parent[where[-1]] = rng.choice(ODD_VALUES)
        if canonical(document) == canonical(original):
            continue
        tried += 1
        done = checked(rewritten(path, lambda d, new=document: d.clear() or d.update(new)))
        assert done.exit_code in (1, 2), (where, done.output)
        assert done.exception is None or isinstance(done.exception, SystemExit), (
            where,
            done.exception,
        )


def test_a_hash_given_for_one_vote_vouches_for_no_other_vote_of_the_bundle(tmp_path, serve_site):
    """A pointing and its knife: the forger rewrites the knife's posts, result, manifest and
    announcement; the player gives the pointing's hash, the one he copied. verify said
    “你给的 SHA-256 也与证据包相符” of the whole bundle; it now says which vote the hash is,
    and that the other one's is still to be compared with the board."""
    db, url = pointing_and_knife(tmp_path, serve_site, first_killer="过")
    pointed = EVIDENCE_LINE.search(ok(tally(db, url, "--record", "--phase", "point")))[1]
    knifed_post = ok(tally(db, url, "--record", "--phase", "knife", deadline=LATER))
    knifed = EVIDENCE_LINE.search(knifed_post)[1]
    path = export(db)

    def knife(document: dict) -> None:
        for post in document["posts"]:
            if post["author"] == "玩家5" and "杀" in post["body"]:
                post["body"] = "刀"  # the defender now dies 3 to 2

    forgery = forged(path, knife, knifed_post, knifed, number=2)

    done = checked(forgery, "--hash", pointed)
    assert done.exit_code == 0 and "你给的 SHA-256 也与证据包相符" not in done.stdout
    assert "你给的 SHA-256 是第 1 次投票的" in done.stdout
    assert "第 2 次投票的 SHA-256 你没有给出" in done.stdout
    both = checked(forgery, "--hash", pointed, "--hash", knifed)
    assert both.exit_code == 1
    assert f"你给的 {knifed} 不是证据包里任何一次投票的计票证据" in both.stdout
    genuine = checked(path, "--hash", pointed, "--hash", knifed)
    assert genuine.exit_code == 0 and "你给的 SHA-256 也与证据包相符" in genuine.stdout


def test_the_lotterys_commitment_given_with_hash_checks_the_lottery(game, tmp_path):
    """The lottery post prints 签位承诺（SHA-256）: a player gives it to --hash with the
    announcement's. verify called it 不是证据包里任何一次投票的计票证据 (exit 1, a false
    alarm); and a lottery forged whole (new lots, salt and commitment) was 一致 with the
    announcement's hash alone."""
    rulings = tmp_path / "rulings.toml"
    rulings.write_text("[19]\ntarget = 7\n", encoding="utf-8")
    announced = EVIDENCE_LINE.search(record_example(game, "--rulings", rulings))[1]
    made = ok(run("lottery", "make", "--round", 1, "--seed", 3, "--db", game))
    commitment = re.search(r"签位承诺（SHA-256）：\[b\]([0-9a-f]{64})", made)[1]
    ok(run("lottery", "reveal", "--round", 1, "--lot", 2, "--db", game))
    path = export(game)
    done = checked(path, "--hash", announced, "--hash", commitment)
    assert done.exit_code == 0, done.stdout
    assert "你给的 SHA-256 也与证据包相符" in done.stdout

    from killmod.usecases.lottery import commitment as commit
    from killmod.usecases.lottery import parse_mapping

    files = members(path)
    forged = json.loads(files["lottery.json"])
    one, two = (pair.split("=")[1] for pair in forged["reveal"]["mapping"].split(","))
    forged["reveal"]["mapping"] = f"1={two},2={one}"
    forged["reveal"]["salt"] = "0" * 32
    lots = parse_mapping(forged["reveal"]["mapping"])
    forged["commitment"] = commit(1, lots, "0" * 32)
    forged["reveal"]["seat"] = lots[forged["reveal"]["lot"]]  # the other seat dies
    files["lottery.json"] = json.dumps(forged).encode()
    forgery = tmp_path / "forged-lottery.zip"
    forgery.write_bytes(pack(files))
    alone = checked(forgery, "--hash", announced)
    assert "你给的 SHA-256 也与证据包相符" not in alone.stdout
    assert "抽签的承诺值请与论坛上抽签前公布的比对" in alone.stdout
    both = checked(forgery, "--hash", announced, "--hash", commitment)
    assert both.exit_code == 1
    assert f"你给的 {commitment} 不是" in both.stdout
