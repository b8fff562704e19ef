"""docs/architecture.md stays true: every module, file and function it names exists, and
every folder of the package is described."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
# `killmod/game/store.py`, `templates/tally.bbcode.j2`, `killmod/rules/`, `run.py`…
PATH = re.compile(r"`((?:killmod|scrapers|templates|tests|docs)/[^`<>\s]*|[\w.]+\.(?:py|toml|md))`")
# `killmod.usecases.tally.tally`, `scrapers.pick`…
DOTTED = re.compile(r"`((?:killmod|scrapers)(?:\.\w+)+)`")


def named(pattern: re.Pattern[str]) -> list[str]:
    return sorted(set(pattern.findall(DOC.read_text(encoding="utf-8"))))


@pytest.mark.parametrize("path", named(PATH))
def test_every_file_and_folder_named_exists(path):
    assert (ROOT / path).exists(), f"docs/architecture.md names {path}, which is not there"


@pytest.mark.parametrize("name", named(DOTTED))
def test_every_module_and_function_named_exists(name):
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        module = ".".join(parts[:cut])
        try:
            found = importlib.import_module(module)
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            assert hasattr(found, attribute), f"{module} has no {attribute} ({name})"
            found = getattr(found, attribute)
        return
    pytest.fail(f"docs/architecture.md names {name}, which is no module")


def test_every_folder_of_the_package_is_described():
    text = DOC.read_text(encoding="utf-8")
    folders = sorted(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "killmod").iterdir()
        if path.is_dir() and path.name != "__pycache__"
    )
    assert folders, "no folder found"
    missing = [folder for folder in folders if f"`{folder}/`" not in text]
    assert not missing, f"docs/architecture.md does not describe {missing}"


def test_the_layers_are_listed_in_the_contracts_order():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    layers = [name.strip() for layer in contract["layers"] for name in layer.split(":")]
    table = [
        row.split("|")[1].strip().strip("`").rstrip("/").replace("/", ".")
        for row in DOC.read_text(encoding="utf-8").splitlines()
        if row.startswith("| `")
    ]
    assert table == layers
