"""`killmod lottery make|reveal|verify`: the 1.2 tie lottery (四、平票处理) on a real game file."""

from __future__ import annotations

import hashlib
import re
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from killmod.core.errors import BadInput
from killmod.game.store import Game
from killmod.usecases.lottery import canonical, commitment, parse_mapping, verify

ROOT = Path(__file__).resolve().parent.parent
ROSTER = ROOT / "examples" / "roster.toml"
DAY1 = ROOT / "examples" / "day1"
ROLES = ("杀手", "水民", "检查官")
COMMITMENT = re.compile(r"承诺（SHA-256）：\[b\]([0-9a-f]{64})\[/b\]")


def run(*args: str):
    return CliRunner().invoke(main, [str(arg) for arg in args])


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A game file from the example roster (roles known; 6 and 11 out)."""
    path = tmp_path / "game.db"
    assert run("init", "--roster", ROSTER, "--db", path).exit_code == 0
    return path


@pytest.fixture
def tied(db: Path, tmp_path: Path) -> Path:
    """Round 1 recorded by the real tally: a ruling turns the example into a 5–7 tie."""
    rulings = tmp_path / "rulings.toml"
    rulings.write_text("[19]\ntarget = 7\n", encoding="utf-8")
    done = tally(db, "--rulings", rulings)
    assert done.exit_code == 0, done.output
    return db


def tally(db: Path, *extra: object):
    """Record round 1 from the example vote thread."""
    return run(
        "tally",
        DAY1,
        "--db",
        db,
        "--record",
        "--round",
        1,
        "--deadline",
        "2019-05-12 22:00",
        *extra,
    )


def record_tie(db: Path, round_no: int, seats: list[int]) -> None:
    """A recorded tie as the tally writes it, for states the example thread cannot give."""
    game = Game.open(db)
    with game.transaction():
        game.record(round_no, "day", None, {"outcome": "tie", "seat": None, "seats": seats})
    game.close()


def make(db: Path, round_no: int = 1, *extra: str) -> tuple[str, str]:
    """Make the lots; returns (private message, public post): the message is the file the
    command names on stderr, in the private folder beside the game file; the post is stdout."""
    done = run("lottery", "make", "--round", round_no, "--db", db, *extra)
    assert done.exit_code == 0, done.output
    (written,) = re.findall(r"写在 (\S+)，只有你能读", done.stderr)
    path = Path(written)
    assert path.parent == db.parent / f"{db.stem}-private"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    return path.read_text(encoding="utf-8"), done.stdout


def lots(db: Path, round_no: int = 1) -> dict:
    (event,) = [e for e in Game.open(db).events("lottery") if e.round == round_no]
    return event.data


def without_names(text: str, db: Path) -> str:
    """The text with every player's name taken out (a name like 狼人杀手 is not a role)."""
    for player in sorted(Game.open(db).roster().players, key=lambda p: -len(p.name)):
        text = text.replace(player.name, "")
    return text


# --- the commitment ---------------------------------------------------------------------


def test_the_commitment_is_sha256_of_the_documented_canonical_string():
    salt = "00112233445566778899aabbccddeeff"
    text = f"killmod-lottery/1|round=3|1=5,2=7|{salt}"
    assert canonical(3, {2: 7, 1: 5}, salt) == text
    assert commitment(3, {1: 5, 2: 7}, salt) == hashlib.sha256(text.encode()).hexdigest()
    documented = (ROOT / "docs" / "rules" / "1.2.md").read_text(encoding="utf-8")
    assert text in documented


def test_verify_says_consistent_and_a_wrong_salt_or_mapping_fails():
    salt = "ab" * 16
    digest = commitment(2, {1: 9, 2: 3, 3: 12}, salt)
    good = ("lottery", "verify", "--round", 2, "--commitment", digest, "--salt", salt)
    done = run(*good, "--mapping", "1=9, 2=3, 3=12")
    assert done.exit_code == 0 and "结果：一致" in done.output
    for args in (
        ("--mapping", "1=3,2=9,3=12"),  # lots swapped
        ("--mapping", "1=9,2=3,3=12", "--salt", "cd" * 16),  # another salt
    ):
        done = run(*good, *args)
        assert done.exit_code == 1 and "结果：不一致" in done.output
    assert not verify(digest, 3, {1: 9, 2: 3, 3: 12}, salt)  # another round
    assert run(*good, "--mapping", "1=9,3=3").exit_code == 2  # lots must be 1..k


def test_parse_mapping_refuses_what_is_not_a_lot_list():
    assert parse_mapping(" 2=7 ,1=5") == {1: 5, 2: 7}
    for text in ("1=5;2=7", "1=5,1=7", "1=5,2=5", "0=5,1=7", ""):
        with pytest.raises(BadInput, match="签"):
            parse_mapping(text)


# --- making the lots ----------------------------------------------------------------------


def test_make_is_refused_without_a_recorded_tie(db: Path):
    done = run("lottery", "make", "--round", 1, "--db", db)
    assert done.exit_code == 2 and "第 1 轮没有记录平票" in done.output
    assert tally(db).exit_code == 0  # round 1: 5号 is voted out, no tie
    done = run("lottery", "make", "--round", 1, "--db", db)
    assert done.exit_code == 2 and "第 1 轮没有记录平票" in done.output
    assert not Game.open(db).events("lottery")


def test_make_is_refused_twice(tied: Path):
    make(tied)
    done = run("lottery", "make", "--round", 1, "--db", tied)
    assert done.exit_code == 2 and "已经做过签" in done.output
    assert len(Game.open(tied).events("lottery")) == 1


def test_make_draws_the_tied_seats_of_the_recorded_tally(tied: Path):
    make(tied)
    data = lots(tied)
    assert sorted(data["mapping"]) == ["1", "2"] and sorted(data["mapping"].values()) == [5, 7]
    assert re.fullmatch(r"[0-9a-f]{32}", data["salt"])
    mapping = {int(lot): seat for lot, seat in data["mapping"].items()}
    assert data["commitment"] == commitment(1, mapping, data["salt"])
    assert data["tally_id"] == Game.open(tied).tally_record(1)["id"]
    status = run("status", "--db", tied).output
    assert "已做签，等待第四人抽签" in status


def test_a_seed_makes_the_lots_reproducible_but_not_the_salt(db: Path, tmp_path: Path):
    other = tmp_path / "other.db"
    assert run("init", "--roster", ROSTER, "--db", other).exit_code == 0
    for path in (db, other):
        record_tie(path, 1, [1, 2, 3, 4, 5, 7])
        make(path, 1, "--seed", 42)
    assert lots(db)["mapping"] == lots(other)["mapping"]
    assert lots(db)["salt"] != lots(other)["salt"]


def test_a_tied_player_already_out_gets_no_lot(db: Path):
    record_tie(db, 1, [6, 9])  # 6号 is out in the roster
    make(db)
    assert lots(db)["mapping"] == {"1": 9}


def test_the_private_message_has_the_mapping_and_the_public_post_does_not(tied: Path):
    private, public = make(tied)
    data = lots(tied)
    for lot, seat in data["mapping"].items():
        name = {5: "预言家本家", 7: "花生米"}[seat]
        assert f"{lot} 号签：{seat}号 {name}" in private
    assert data["commitment"] in private and data["commitment"] in public
    assert "号签" not in public and data["salt"] not in public
    mapping_text = ",".join(f"{lot}={seat}" for lot, seat in sorted(data["mapping"].items()))
    assert mapping_text not in public
    assert COMMITMENT.search(public)[1] == data["commitment"]
    assert "[b]1–2[/b]" in public and "5号 预言家本家" in public and "7号 花生米" in public


def test_private_dir_takes_the_lots_and_stdout_the_post(tied: Path, tmp_path: Path):
    folder = tmp_path / "lots"
    done = run("lottery", "make", "--round", 1, "--db", tied, "--private", folder)
    assert done.exit_code == 0, done.output
    assert lots(tied)["salt"] not in done.output
    assert "号签：" not in done.output and lots(tied)["commitment"] in done.stdout
    (private,) = folder.iterdir()
    assert private.name == "round1-lottery-private.txt"
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert "1 号签" in private.read_text(encoding="utf-8")
    assert str(private) in done.stderr


def test_the_old_out_option_still_names_the_folder(tied: Path, tmp_path: Path):
    done = run("lottery", "make", "--round", 1, "--db", tied, "--out", tmp_path / "old")
    assert done.exit_code == 0, done.output
    assert [p.name for p in (tmp_path / "old").iterdir()] == ["round1-lottery-private.txt"]


def test_printing_the_lots_takes_an_option_that_says_so(tied: Path):
    done = run("lottery", "make", "--round", 1, "--db", tied, "--print-secrets")
    assert done.exit_code == 0, done.output
    public, secret = done.stdout.split("—— 保密：round1-lottery-private.txt（不要贴到论坛）——")
    assert "号签：" not in public and "1 号签：" in secret and lots(tied)["salt"] in secret
    assert not (tied.parent / "game-private").exists()


# --- revealing the draw ---------------------------------------------------------------------


def test_reveal_records_the_death_and_reveals_the_camp_only(tied: Path):
    make(tied)
    data = lots(tied)
    seat = data["mapping"]["2"]
    done = run("lottery", "reveal", "--round", 1, "--lot", 2, "--db", tied)
    assert done.exit_code == 0, done.output
    game = Game.open(tied)
    assert not game.roster().seat(seat).alive
    (death,) = [e for e in game.events("death") if e.data.get("how") == "lottery"]
    assert (death.round, death.seat, death.data["lot"]) == (1, seat, 2)
    (reveal,) = game.events("lottery_reveal")
    assert reveal.data["salt"] == data["salt"]
    assert "身份：[b]好人[/b]" in done.output  # 5号 and 7号 are 水民
    assert "水民" not in without_names(done.output, tied)
    assert data["salt"] in done.output and data["commitment"] in done.output
    mapping_text = ",".join(f"{lot}={s}" for lot, s in sorted(data["mapping"].items()))
    verify_line = re.search(r"killmod lottery verify .*", done.output)[0]
    assert f'--mapping "{mapping_text}"' in verify_line
    checked = run(*(arg.strip('"') for arg in verify_line.split()[1:]))
    assert checked.exit_code == 0 and "结果：一致" in checked.output
    assert "等待第四人" not in run("status", "--db", tied).output


def test_reveal_refuses_a_lot_out_of_range_a_missing_lottery_and_a_second_reveal(tied: Path):
    done = run("lottery", "reveal", "--round", 1, "--lot", 1, "--db", tied)
    assert done.exit_code == 2 and "还没有做签" in done.output
    make(tied)
    done = run("lottery", "reveal", "--round", 1, "--lot", 3, "--db", tied)
    assert done.exit_code == 2 and "签号应为 1–2" in done.output
    assert run("lottery", "reveal", "--round", 1, "--lot", 1, "--db", tied).exit_code == 0
    done = run("lottery", "reveal", "--round", 1, "--lot", 2, "--db", tied)
    assert done.exit_code == 2 and "已经公布过" in done.output
    assert len(Game.open(tied).events("death")) == 1


def test_a_reveal_that_ends_the_game_prints_the_game_over_post(db: Path):
    assert run("night", "--round", 1, "--veto", 9, "--kill", 1, "--db", db).exit_code == 0
    record_tie(db, 1, [14, 2])  # 14号 is the last killer
    make(db)
    lot = next(int(lot) for lot, seat in lots(db)["mapping"].items() if seat == 14)
    done = run("lottery", "reveal", "--round", 1, "--lot", lot, "--db", db)
    assert done.exit_code == 0, done.output
    assert "身份：[b]杀手[/b]" in done.output
    assert "游戏结束：好人方胜利" in done.output
    (over,) = Game.open(db).events("game_over")
    assert over.data["winner"] == "好人"
    done = run("lottery", "make", "--round", 1, "--db", db)
    assert done.exit_code == 2 and "游戏已经结束" in done.output


def test_re_recording_the_tie_voids_its_lottery(tied: Path, tmp_path: Path):
    make(tied)
    assert run("lottery", "reveal", "--round", 1, "--lot", 1, "--db", tied).exit_code == 0
    rulings = tmp_path / "again.toml"
    rulings.write_text("[19]\ntarget = 7\n", encoding="utf-8")
    assert tally(tied, "--rulings", rulings, "--replace").exit_code == 0  # the same tie
    game = Game.open(tied)
    assert not game.events("lottery") and not game.events("lottery_reveal")
    assert len(game.events("lottery", include_void=True)) == 1
    assert all(player.seat in (6, 11) or player.alive for player in game.roster().players)
    private, _ = make(tied)  # the new record's tie gets new lots, in a file of their own
    assert lots(tied)["salt"] in private
    assert (tied.parent / "game-private" / "round1-lottery-private-2.txt").exists()


def test_public_lottery_posts_never_show_a_living_players_role(db: Path):
    """The vote-thread posts in several states: only a dead killer's camp says 杀手."""
    posts = []
    record_tie(db, 1, [4, 8, 9])  # 狼人杀手 (水民), the 检查官, a killer
    posts.append((make(db)[1], 0))
    lot = next(int(lot) for lot, seat in lots(db)["mapping"].items() if seat == 8)
    posts.append((run("lottery", "reveal", "--round", 1, "--lot", lot, "--db", db).stdout, 0))
    record_tie(db, 2, [9, 14, 4])
    posts.append((make(db, 2)[1], 0))
    lot = next(int(lot) for lot, seat in lots(db, 2)["mapping"].items() if seat == 9)
    posts.append((run("lottery", "reveal", "--round", 2, "--lot", lot, "--db", db).stdout, 1))
    for text, dead_killers in posts:
        text = without_names(text, db)
        assert "水民" not in text and "检查官" not in text
        assert text.count("杀手") == dead_killers
