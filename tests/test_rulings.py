"""Reading the judge's rulings file, and the messages its mistakes give."""

import pytest

from killmod.ballots.rulings import Ruling, load_rulings, parse_rulings, resolve
from killmod.core.errors import BadInput

EXAMPLE = """\
[12]
ignore = true
note = "重复发帖，按第 30 楼为准"
[30]
target = 5
note = "错别字，按 5 号计"
[41]
target = "abstain"
"""


def toml(*lines: str) -> str:
    """A TOML text whose line N is ``lines[N - 1]``, so tests can name lines."""
    return "\n".join(lines) + "\n"


def rejected(text: str) -> str:
    """The message of the ``BadInput`` the rulings ``text`` gives (exit code 2)."""
    with pytest.raises(BadInput) as caught:
        parse_rulings(text)
    assert caught.value.exit_code == 2
    return caught.value.message


def test_example_rulings_load_by_floor():
    assert parse_rulings(EXAMPLE) == (
        Ruling(floor=12, ignore=True, note="重复发帖，按第 30 楼为准"),
        Ruling(floor=30, target=5, note="错别字，按 5 号计"),
        Ruling(floor=41, abstain=True),
    )


def test_rulings_by_post_id_come_first_and_name_no_floor():
    text = toml("[30]", "target = 5", "[pid.90119]", "ignore = true", "[pid.7]", "target = 3")
    assert parse_rulings(text) == (
        Ruling(floor=None, target=3, pid=7),
        Ruling(floor=None, ignore=True, pid=90119),
        Ruling(floor=30, target=5),
    )
    assert parse_rulings("[pid]\n90119 = { ignore = true }\n") == (
        Ruling(floor=None, ignore=True, pid=90119),
    )


def test_abstain_ruling_has_no_target():
    ruling = parse_rulings(EXAMPLE)[2]
    assert ruling.abstain is True
    assert ruling.target is None
    assert ruling.ignore is False
    assert ruling.note == ""


def test_rulings_come_in_floor_order():
    text = toml("[30]", "target = 5", "[12]", "ignore = true", "[7]", 'target = "abstain"')
    assert [ruling.floor for ruling in parse_rulings(text)] == [7, 12, 30]


def test_empty_rulings_file_rules_nothing():
    assert parse_rulings("") == ()
    assert parse_rulings("# 暂无裁定\n") == ()


def test_ruling_may_be_an_inline_table():
    assert parse_rulings('12 = { ignore = true, note = "刷屏" }') == (
        Ruling(floor=12, ignore=True, note="刷屏"),
    )


def test_rulings_file_loads_like_its_text(tmp_path):
    path = tmp_path / "rulings.toml"
    path.write_text(EXAMPLE, encoding="utf-8")
    assert load_rulings(path) == parse_rulings(EXAMPLE)


@pytest.mark.parametrize(
    ("text", "line", "key", "words"),
    [
        # Exactly one of ignore / target.
        (toml("[12]", 'note = "？"'), 1, "ignore 或 target", ["[12]", "缺少"]),
        (toml("[12]", "ignore = true", "target = 3"), 3, "target", ["只能写一个"]),
        (toml("[12]", "ignore = false"), 2, "ignore", ["只能写 true"]),
        (toml("[12]", 'ignore = "是"'), 2, "ignore", ["「是」"]),
        # A target is a seat or "abstain".
        (toml("[12]", "target = 0"), 2, "target", ["座位号", '"abstain"', "「0」"]),
        (toml("[12]", 'target = "弃权"'), 2, "target", ['"abstain"', "「弃权」"]),
        (toml("[12]", 'target = "5号"'), 2, "target", ["「5号」"]),
        (toml("[12]", "target = true"), 2, "target", ["「true」"]),
        (toml("[12]", "target = 5", "note = 3"), 3, "note", ["字符串"]),
        # Unknown keys, on their own line.
        (toml("[3]", "ignore = true", "[12]", "targte = 5"), 4, "targte", ["是不是 target"]),
        # Tables are named by floor.
        (toml("[3]", "ignore = true", "[abc]", "ignore = true"), 3, "[abc]", ["楼层号"]),
        (toml("[012]", "ignore = true"), 1, "[012]", ["楼层号"]),
        (toml("[0]", "ignore = true"), 1, "[0]", ["楼层号"]),
        (toml("ignore = true", "[12]", "target = 5"), 1, "ignore", ["[12]"]),
        (toml("12 = 5"), 1, "12", ["[12]"]),
        (toml("[pid.abc]", "ignore = true"), 1, "[pid.abc]", ["帖子编号"]),
        (toml("[pid.90119]", "target = 0"), 2, "target", ["[pid.90119]", "座位号"]),
    ],
)
def test_rulings_mistake_names_the_file_line_and_key(text, line, key, words):
    message = rejected(text)
    assert message.startswith(f"rulings.toml 第 {line} 行：")
    assert key in message
    for word in words:
        assert word in message


def test_the_same_floor_twice_is_a_syntax_error_on_its_second_line():
    message = rejected(toml("[12]", "ignore = true", "[12]", "target = 5"))
    assert message.startswith("rulings.toml 第 3 行：TOML 格式错误")
    assert "同一个表写了两次" in message


def test_loading_names_the_file_it_read(tmp_path):
    path = tmp_path / "第一天裁定.toml"
    path.write_text(toml("[12]", "target = -1"), encoding="utf-8")
    with pytest.raises(BadInput) as caught:
        load_rulings(path)
    assert caught.value.message.startswith(f"{path} 第 2 行：[12] 的 target")


def test_missing_rulings_file_is_bad_input(tmp_path):
    path = tmp_path / "rulings.toml"
    with pytest.raises(BadInput) as caught:
        load_rulings(path)
    assert caught.value.exit_code == 2
    assert str(path) in caught.value.message
    assert "找不到" in caught.value.message


# --- rulings resolved to posts (pid) ----------------------------------------------------------


def test_a_ruling_by_floor_rules_on_the_one_post_with_that_floor():
    rulings = parse_rulings(toml("[12]", "target = 5"))
    assert resolve(rulings, [(90077, 11), (90084, 12)]) == {
        90084: Ruling(floor=12, target=5, pid=90084)
    }


def test_a_ruling_by_pid_needs_no_floor():
    rulings = parse_rulings(toml("[pid.90084]", "ignore = true"))
    assert resolve(rulings, [(90084, None)]) == {90084: Ruling(None, ignore=True, pid=90084)}


def test_a_floor_two_posts_share_after_a_renumbering_is_refused():
    """A moderator's deletion renumbers later floors on X3.4: read around it, two posts
    show floor 12.  One ruling must never hit both: bad input, pointing to pids."""
    rulings = parse_rulings(toml("[12]", "target = 5"))
    with pytest.raises(BadInput) as caught:
        resolve(rulings, [(90084, 12), (90091, 12)])
    assert caught.value.exit_code == 2
    message = caught.value.message
    assert "第 12 楼" in message and "pid=90084" in message and "pid=90091" in message
    assert "[pid.90084]" in message


def test_a_ruling_for_a_floor_nobody_shows_is_refused():
    with pytest.raises(BadInput, match="第 40 楼在投票帖里找不到"):
        resolve(parse_rulings(toml("[40]", "ignore = true")), [(1, 1)])


def test_two_rulings_on_one_post_are_refused():
    rulings = parse_rulings(toml("[12]", "ignore = true", "[pid.90084]", "target = 5"))
    with pytest.raises(BadInput, match="两条裁定"):
        resolve(rulings, [(90084, 12)])
