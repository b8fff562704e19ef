"""The judge's page holds no rule, no guard, no SQL: it imports the use cases, the rendering
(``killmod.announce``) and the board (``killmod.board``) as the commands do, and nothing
below them but ``killmod.core`` — read from its source, module by module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parent.parent / "killmod" / "web"
BELOW = ("killmod.game", "killmod.rules", "killmod.ballots", "killmod.fetch", "scrapers")
ALLOWED = ("killmod.web", "killmod.usecases", "killmod.announce", "killmod.board", "killmod.core")


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports (also inside functions and TYPE_CHECKING blocks)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", sorted(WEB.glob("*.py")), ids=lambda path: path.name)
def test_the_web_layer_imports_nothing_below_the_use_cases(path: Path):
    ours = {name for name in imported(path) if name.split(".")[0] in ("killmod", "scrapers")}
    below = sorted(name for name in ours if name.startswith(BELOW))
    assert not below, f"{path.name} imports {below}: call a use case instead"
    assert all(name.startswith(ALLOWED) for name in ours), sorted(ours)


def test_the_check_sees_an_import_below():
    sample = WEB.parent.parent / "killmod" / "commands" / "init.py"
    assert any(name.startswith(BELOW) for name in imported(sample))
