"""The README's first hour, run as written: every ``$ killmod …`` block of “Help in Chinese”
and “A first game in ten commands”, in order, in a folder of its own beside a copy of
``examples/``, by the installed ``killmod`` — and its output must be the one shown
(``…`` stands for lines the README leaves out).  ``KILLMOD_UPDATE_GOLDEN=1`` writes the
real outputs into the README instead (keeping as many lines around each ``…``).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KILLMOD = Path(sys.executable).parent / "killmod"
BLOCK = re.compile(r"^```\n(\$ .*?)^```$", re.MULTILINE | re.DOTALL)


def readme_blocks() -> list[tuple[str, list[str]]]:
    """(command, the output lines shown) of each ``$`` block of the first hour."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    part = readme[readme.index("### Help in Chinese") : readme.index("What the players got")]
    blocks = []
    for found in BLOCK.finditer(part):
        command, *shown = found[1].rstrip("\n").split("\n")
        blocks.append((command.removeprefix("$ "), shown))
    return blocks


def matches(shown: list[str], output: list[str]) -> bool:
    """Whether ``output`` is ``shown``, a ``…`` line standing for any lines."""
    pattern = "\n".join(".*?" if line == "…" else re.escape(line) for line in shown)
    return re.fullmatch(pattern, "\n".join(output), re.DOTALL) is not None


def test_the_first_hour_is_ten_commands_and_a_typo():
    commands = [command for command, _ in readme_blocks()]
    assert len(commands) == 11
    assert commands[0].startswith("killmod tally") and "--deadlin " in commands[0]
    assert all(command.startswith("killmod ") for command in commands)


@pytest.mark.slow
def test_the_readmes_first_game_runs_as_written(tmp_path):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    folder = tmp_path / "第一局"
    folder.mkdir()
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    updating = bool(os.environ.get("KILLMOD_UPDATE_GOLDEN"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for command, shown in readme_blocks():
        argv = shlex.split(command)
        done = subprocess.run(
            [str(KILLMOD), *argv[1:]],
            cwd=folder,
            env=env,
            capture_output=True,
            text=True,
            encoding="utf-8",
        )
        output = (done.stdout + done.stderr).rstrip("\n").split("\n")
        if updating:
            old = "\n".join([f"$ {command}", *shown])
            readme = readme.replace(old, "\n".join([f"$ {command}", *abridged(shown, output)]), 1)
            continue
        assert matches(shown, output), f"$ {command}\n" + "\n".join(output)
    if updating:
        (ROOT / "README.md").write_text(readme, encoding="utf-8")
    assert (folder / "名单.toml").exists() and (folder / "killmod.db").exists()
    assert len(list((folder / "killmod-private").glob("*.txt"))) == 16


def abridged(shown: list[str], output: list[str]) -> list[str]:
    """``output`` with as many lines before and after the ``…`` as ``shown`` keeps."""
    if "…" not in shown:
        return output
    head = shown.index("…")
    tail = len(shown) - head - 1
    return [*output[:head], "…", *output[len(output) - tail :]]


def test_the_ellipsis_stands_for_lines_and_nothing_else():
    assert matches(["a", "…", "z"], ["a", "b", "c", "z"])
    assert not matches(["a", "…", "z"], ["a", "b", "y"])
    assert not matches(["a"], ["a", "b"])
