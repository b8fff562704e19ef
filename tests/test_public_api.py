"""``from killmod import tally, undo, status…``: each command's work under the command's name."""

from __future__ import annotations

import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import killmod
from killmod.commands.cli import COMMANDS

ROOT = Path(__file__).resolve().parent.parent


def test_every_public_use_case_is_named_like_its_command():
    assert set(killmod.USE_CASES) <= set(COMMANDS)
    assert killmod.__all__ == sorted(killmod.USE_CASES)


@pytest.mark.parametrize("name", sorted(killmod.USE_CASES))
def test_the_public_name_is_the_use_case_itself(name):
    module, function = killmod.USE_CASES[name].split(":")
    assert module.startswith("killmod.usecases.")
    exported = getattr(killmod, name)
    assert exported is getattr(importlib.import_module(module), function)
    assert callable(exported) and exported.__doc__


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'tallyy'"):
        killmod.tallyy  # noqa: B018


def test_importing_killmod_imports_no_use_case():
    probe = "import sys, killmod; print(sorted(m for m in sys.modules if m.startswith('killmod.')))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_package_says_it_is_typed_and_ships_the_marker():
    from importlib.resources import files

    assert files("killmod").joinpath("py.typed").is_file()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["killmod"]
