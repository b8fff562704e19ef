"""Private files (notices, lots, judge's notes): new files only, never through a link."""

from __future__ import annotations

import os
import stat

import pytest

from killmod.core.errors import BadInput
from killmod.game.private_files import write_private_files


def test_a_private_file_is_readable_by_its_owner_only(tmp_path):
    (path,) = write_private_files(tmp_path / "notes", {"night1.txt": "仅发给警察：5号是好人\n"})
    assert path.read_text(encoding="utf-8") == "仅发给警察：5号是好人\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_a_planted_symlink_is_refused_and_not_followed(tmp_path):
    elsewhere = tmp_path / "elsewhere.txt"
    folder = tmp_path / "shared"
    folder.mkdir()
    (folder / "03-killer.txt").symlink_to(elsewhere)
    with pytest.raises(BadInput, match="符号链接"):
        write_private_files(folder, {"03-killer.txt": "你是杀手"})
    assert not elsewhere.exists()
    assert sorted(os.listdir(folder)) == ["03-killer.txt"]


def test_an_existing_file_is_not_overwritten(tmp_path):
    (tmp_path / "01-a.txt").write_text("上一局的通知", encoding="utf-8")
    with pytest.raises(BadInput, match="已经存在"):
        write_private_files(tmp_path, {"01-a.txt": "新通知"})
    assert (tmp_path / "01-a.txt").read_text(encoding="utf-8") == "上一局的通知"


def test_several_files_are_placed_all_or_none(tmp_path):
    (tmp_path / "02-b.txt").write_text("old", encoding="utf-8")
    with pytest.raises(BadInput, match=r"02-b\.txt"):
        write_private_files(tmp_path, {"01-a.txt": "a", "02-b.txt": "b", "03-c.txt": "c"})
    assert sorted(os.listdir(tmp_path)) == ["02-b.txt"]


def test_a_file_in_place_of_the_folder_is_bad_input(tmp_path):
    (tmp_path / "notices").write_text("", encoding="utf-8")
    with pytest.raises(BadInput, match="notices"):
        write_private_files(tmp_path / "notices", {"01-a.txt": "a"})
