"""`killmod tally` end to end: the command, its formats, options, exit codes and the library."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from tests.support.pagebuilder import DEMO_ROSTER_TOML, DEMO_TID, demo_thread, discuz_x_site

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
EXAMPLE = ["examples/day1", "--roster", "examples/roster.toml", "--deadline", "2019-05-12 22:00"]
CONTRACT_KEYS = {
    "schema",
    "rules",
    "round",
    "deadline",
    "source",
    "ballots",
    "counts",
    "outcome",
    "changes",
    "rejected",
    "flags",
    "warnings",
}


def run(*args: str, cwd: Path = ROOT):
    """Run the command in-process from ``cwd``; returns click's Result."""
    old = Path.cwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(main, list(args))
    finally:
        os.chdir(old)


def tally_json(*args: str) -> dict:
    result = run("tally", *args, "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_json_output_has_the_design_schema_and_the_1_2_result(serve_site, roster):
    base = serve_site(discuz_x_site(demo_thread()))
    url = f"{base}/forum.php?mod=viewthread&tid={DEMO_TID}"
    doc = tally_json(url, "--roster", str(roster), "--deadline", "22:00")
    assert doc.keys() >= CONTRACT_KEYS
    assert doc["schema"] == "killmod.tally/1"
    assert doc["deadline"] == "2019-05-12T22:00:00+08:00"
    views = doc["source"].pop("views")
    assert doc["source"] == {
        "url": url,
        "title": "【第二天投票帖】22:00 截止",
        "pages": 4,
        "posts": 30,
    }
    # a board without the mobile API: its thread pages are read, and the JSON says why
    assert [view["view"] for view in views] == ["pages"]
    assert "手机接口不可用" in views[0]["why"] and "HTTP 404" in views[0]["why"]
    assert [b["seat"] for b in doc["ballots"]] == [1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 13, 14, 15, 16]
    assert {b["seat"] for b in doc["ballots"] if b["kind"] == "self"} == {9, 14, 16}
    assert doc["counts"][0] == {
        "seat": 5,
        "name": "预言家本家",
        "votes": 4,
        "voters": [3, 8, 12, 13],
    }
    assert doc["outcome"] == {"kind": "eliminated", "seat": 5, "camp": "好人"}
    assert [(c["seat"], c["from"], c["to"]) for c in doc["changes"]] == [
        (1, 5, 7),
        (4, 5, 12),
        (12, 7, 5),
    ]
    reasons = {r["floor"]: r["reason"] for r in doc["rejected"]}
    assert reasons == {
        6: "not_player",
        12: "not_player",
        16: "not_player",
        17: "edited",
        19: "no_vote",
        20: "proxy",
        21: "dead",
        22: "invalid_target",
        27: "late",
        28: "late",
        30: "not_player",
        31: "late",
    }
    assert [(w["seat"], w["total"], w["action"]) for w in doc["warnings"]] == [
        (9, 1, "warn"),
        (14, 1, "warn"),
        (16, 1, "warn"),
    ]


@pytest.mark.parametrize("fmt", ["bbcode", "text", "audit", "json"])
def test_golden_output_of_the_bundled_example(fmt):
    result = run("tally", *EXAMPLE, "--format", fmt)
    assert result.exit_code == 0, result.output
    golden = GOLDEN / f"example.{fmt}"
    if os.environ.get("KILLMOD_UPDATE_GOLDEN"):
        golden.write_text(result.output, encoding="utf-8")
    assert result.output == golden.read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_readme_example_command_runs_as_written():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "python run.py example" in readme and "python run.py test" in readme
    done = subprocess.run(  # ./run is the same command, kept for the habit
        [str(ROOT / "run"), "example"], capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == (GOLDEN / "example.bbcode").read_text(encoding="utf-8")


def test_a_public_announcement_shows_the_camp_never_the_role():
    result = run("tally", *EXAMPLE)
    assert "身份：[b]好人[/b]" in result.output
    without_names = result.output.replace("狼人杀手", "")  # a player's name, not a role
    for role in ("水民", "检查官", "杀手"):
        assert role not in without_names


def test_edits_allow_counts_a_ballot_edited_before_the_deadline():
    doc = tally_json(*EXAMPLE, "--edits", "allow")
    seat14 = next(b for b in doc["ballots"] if b["seat"] == 14)
    assert (seat14["kind"], seat14["target"], seat14["floor"]) == ("vote", 9, 17)
    assert 17 not in {r["floor"] for r in doc["rejected"]}


def test_rulings_file_overrides_single_posts_and_is_shown_in_the_audit(tmp_path):
    rulings = tmp_path / "rulings.toml"
    rulings.write_text(
        '[19]\ntarget = 5\nnote = "玩家私信确认"\n[13]\nignore = true\n', encoding="utf-8"
    )
    doc = tally_json(*EXAMPLE, "--rulings", str(rulings))
    ballots = {b["seat"]: b for b in doc["ballots"]}
    assert (ballots[16]["kind"], ballots[16]["target"]) == ("vote", 5)
    assert ballots[1]["target"] == 5  # floor 13 (改票 to 7) ignored: floor 2 stands
    assert doc["counts"][0]["votes"] == 6
    audit = run("tally", *EXAMPLE, "--rulings", str(rulings), "--format", "audit").output
    assert "法官裁定：按投 5 号计：玩家私信确认" in audit


def test_minute_precision_post_in_the_deadline_minute_is_flagged_and_counted_or_rejected(
    serve_site, roster
):
    thread = demo_thread()
    for post in thread.posts:
        post.time_style = "minute"
    url = f"{serve_site(discuz_x_site(thread))}/forum.php?mod=viewthread&tid={DEMO_TID}"
    counted = tally_json(url, "--roster", str(roster), "--deadline", "22:00")
    assert {"floor": 26, "seat": 12, "reason": "time_ambiguous"}.items() <= counted["flags"][
        0
    ].items()
    assert next(b for b in counted["ballots"] if b["seat"] == 12)["floor"] == 26
    # 22:00:01 shows as 22:00 too: also ambiguous at minute precision
    assert {f["floor"] for f in counted["flags"]} == {26, 27}
    rejected = tally_json(
        url, "--roster", str(roster), "--deadline", "22:00", "--ambiguous-time", "reject"
    )
    assert {r["floor"]: r["reason"] for r in rejected["rejected"]}[26] == "time_ambiguous"
    assert next(b for b in rejected["ballots"] if b["seat"] == 12)["target"] == 7


def test_judge_templates_folder_overrides_a_template(tmp_path):
    (tmp_path / "tally.text.j2").write_text(
        "{{ result.outcome.seat }}号出局，共{{ result.counts | length }}人得票\n", encoding="utf-8"
    )
    result = run("tally", *EXAMPLE, "--format", "text", "--templates", str(tmp_path))
    assert result.output == "5号出局，共6人得票\n"


def test_bbcode_in_player_names_comes_out_inert(serve_site, tmp_path):
    roster = tmp_path / "roster.toml"
    roster.write_text(
        DEMO_ROSTER_TOML.replace('name = "预言家本家"', 'name = "[/color]本家"'), encoding="utf-8"
    )
    thread = demo_thread()
    for post in thread.posts:
        if post.author == "预言家本家":
            post.author = "[/color]本家"
    url = f"{serve_site(discuz_x_site(thread))}/forum.php?mod=viewthread&tid={DEMO_TID}"
    output = run("tally", url, "--roster", str(roster), "--deadline", "22:00").output
    assert "[/color]本家" not in output
    assert "[[i][/i]/color]本家" in output


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["--deadline", "明天吧"], 2, "无法识别的截止时间"),
        (["--deadline", "25点"], 2, "不存在"),
        (["--rulings", "missing.toml"], 2, "missing.toml"),
        (["--templates", "no-such-folder"], 2, "模板文件夹不存在"),
    ],
)
def test_bad_input_is_a_chinese_message_and_exit_2(args, code, words):
    base = [*EXAMPLE]
    if args[0] == "--deadline":
        base = base[:-2]
    result = run("tally", *base, *args)
    assert result.exit_code == code
    assert words in result.output
    assert "Traceback" not in result.output


def test_bad_roster_names_file_line_and_key(tmp_path):
    roster = tmp_path / "bad.toml"
    roster.write_text(
        'rules = "1.2"\n[[players]]\nseat = 1\nname = "a"\ncolour = "red"\n', encoding="utf-8"
    )
    result = run("tally", "examples/day1", "--roster", str(roster), "--deadline", "22:00")
    assert result.exit_code == 2
    assert "bad.toml" in result.output and "第 5 行" in result.output
    assert "colour" in result.output


@pytest.mark.slow
def test_unreachable_board_fails_with_exit_1_and_no_partial_tally(roster):
    result = run(
        "tally",
        "http://127.0.0.1:9/forum.php?mod=viewthread&tid=1",
        "--roster",
        str(roster),
        "--deadline",
        "22:00",
    )
    assert result.exit_code == 1
    assert "无法连接论坛" in result.output
    assert "投票结果" not in result.output


def test_missing_source_is_bad_input(roster):
    result = run("tally", "no/such/thread", "--roster", str(roster), "--deadline", "22:00")
    assert result.exit_code == 2
    assert "找不到投票帖" in result.output


def test_library_tally_does_what_the_command_does(roster):
    from killmod import tally

    result = tally(str(ROOT / "examples/day1"), deadline="2019-05-12 22:00", roster=roster)
    assert result.outcome.kind == "eliminated" and result.outcome.seat == 5
    assert [c.seat for c in result.counts[:3]] == [5, 7, 12]


def test_a_tie_is_announced_with_a_lottery_and_nobody_is_out(serve_site, roster):
    thread = demo_thread()
    thread.posts = [p for p in thread.posts if p.author != "夜猫子"]  # seat 13's vote for 5
    url = f"{serve_site(discuz_x_site(thread))}/forum.php?mod=viewthread&tid={DEMO_TID}"
    doc = tally_json(url, "--roster", str(roster), "--deadline", "22:00")
    assert (
        doc["outcome"] == {"kind": "tie", "seats": [5, 7, 12, 13]}
        or doc["outcome"]["kind"] == "tie"
    )
    text = run("tally", url, "--roster", str(roster), "--deadline", "22:00").output
    assert "平票" in text and "抽签" in text


@pytest.mark.slow
def test_installed_package_carries_its_templates(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    import zipfile

    wheel = next(tmp_path.glob("killmod-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    sources = [
        path.relative_to(ROOT).as_posix()
        for folder in ("killmod", "scrapers")
        for path in (ROOT / folder).rglob("*.py")
    ]
    assert sources and not set(sources) - set(names), "a module is missing from the wheel"
    templates = [f"killmod/templates/{p.name}" for p in (ROOT / "templates").glob("*.j2")]
    assert templates and not set(templates) - set(names), "a template is missing from the wheel"
    assert any(name.endswith("entry_points.txt") for name in names)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["tally"], "请给出投票帖和--deadline 截止时间：没有游戏文件 killmod.db"),
        (["tally", "examples/day1", "--roster", "examples/roster.toml"], "请用 --deadline"),
        (["tally", "--roster", "examples/roster.toml"], "请给出第"),
        (["tally", *EXAMPLE, "--format", "xml"], "--format 的值无效，可选：bbcode"),
        (["tally", *EXAMPLE, "--colour"], "没有这个选项：--colour"),
        (["no-such-command"], "没有这个命令"),
    ],
)
def test_usage_errors_are_chinese_with_exit_2(args, words):
    result = run(*args)
    assert result.exit_code == 2
    assert words in result.output
    assert "Traceback" not in result.output


def test_compiled_templates_are_kept_and_an_edited_template_is_read_again(tmp_path):
    (tmp_path / "tally.text.j2").write_text("{{ result.outcome.seat }}号出局\n", encoding="utf-8")
    args = ("tally", *EXAMPLE, "--format", "text", "--templates", str(tmp_path))
    assert run(*args).output == "5号出局\n"
    kept = Path(os.environ["XDG_CACHE_HOME"]) / "killmod" / "templates"
    assert list(kept.iterdir())  # compiled templates kept for the next command
    (tmp_path / "tally.text.j2").write_text("出局：{{ result.outcome.seat }}号\n", encoding="utf-8")
    assert run(*args).output == "出局：5号\n"


def test_templates_are_compiled_when_their_cache_cannot_be_written(tmp_path, monkeypatch):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("", encoding="utf-8")  # the cache folder's place is taken by a file
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    result = run("tally", *EXAMPLE, "--format", "text")
    assert result.exit_code == 0 and "5号" in result.output
