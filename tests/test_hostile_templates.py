"""A hostile judge's templates: every public template replaced by one that walks its whole
context — every variable name and every attribute name it can think of, recursively — and
prints all it reaches.  Played through whole games of every rule set (``publicgames``),
what it prints must hold no living player's role and no hidden night effect, and be the
same on the twin game whose nights had extra hidden actions: a public template is handed
a public view, never the game (the split is in code, ``killmod.announce.views``).  The private
templates are replaced by a walker that marks its output: that output reaches only the
private files, never stdout.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import keyword
import pkgutil
from importlib.resources import files
from pathlib import Path

import pytest
from jinja2 import Environment, meta

import killmod
from tests.support.publicgames import (
    SETS,
    Chooser,
    Game2,
    compare_twins,
    fixed_salt,
    leaks,
    role_words,
)

PUBLIC = {
    "roster.toml.j2",
    "tally.bbcode.j2",
    "tally.text.j2",
    "tally.audit.j2",
    "tally.notes.text.j2",
    "dawn.bbcode.j2",
    "dawn.text.j2",
    "lottery.public.bbcode.j2",
    "lottery.reveal.bbcode.j2",
    "lottery.verify.text.j2",
    "verify.text.j2",
    "tally.replace.text.j2",
    "gameover.bbcode.j2",
    "status.text.j2",
    "rules.text.j2",
    "suicide.bbcode.j2",
    "suicide.text.j2",
    "lurkers.bbcode.j2",
    "lurkers.text.j2",
    "audit.bbcode.j2",
    "audit.text.j2",
    "watch.text.j2",
    "leave.text.j2",
    "penalty.text.j2",
    "night.penalties.text.j2",
    "out.bbcode.j2",
    "out.text.j2",
    "undo.text.j2",
    "provisional.bbcode.j2",
    "provisional.text.j2",
    "open.bbcode.j2",
    "open.text.j2",
    "remind.bbcode.j2",
    "remind.text.j2",
    "sub.bbcode.j2",
    "sub.text.j2",
    "history.bbcode.j2",
    "history.text.j2",
    "history.chart.j2",
}
PRIVATE = {
    "notice.j2",
    "lottery.private.j2",
    "night.private.j2",
    "night.inbox.private.j2",
    "tally.private.j2",
    "prod.j2",
    "status.private.j2",
}
# Pieces the templates above include or import; replaced with them, they are never rendered.
PIECES = {
    "announcement.j2",
    "audit.j2",
    "dawn.j2",
    "lurkers.j2",
    "suicide.j2",
    "out.j2",
    "markup_bbcode.j2",
    "markup_text.j2",
    "words.j2",
    "trail.j2",
    "differences.j2",
    "penalties.j2",
    "provisional.j2",
    "open.j2",
    "remind.j2",
    "sub.j2",
    "history.j2",
}
# Names a curious template would try beyond killmod's own.
GUESSES = [
    "roster",
    "roles",
    "role",
    "game",
    "state",
    "play",
    "events",
    "notices",
    "checks",
    "secrets",
    "secret",
    "private",
    "lots",
    "mapping",
    "salt",
    "frenzy",
    "marks",
    "dying",
    "police",
    "guards",
    "records",
    "possessed",
    "silenced",
    "covered",
    "butterfly",
    "choice",
    "document",
    "winner",
    "players",
    "player",
    "flow",
    "rules",
    "config",
    "db",
    "path",
    "env",
    "os",
    "__class__",
    "__dict__",
    "__globals__",
    "__init__",
    "__mro__",
    "__subclasses__",
    "__builtins__",
    "_TemplateReference__context",
]
MAX_DEPTH = 6


def bundled() -> dict[str, str]:
    folder = files("killmod.templates")
    return {
        entry.name: entry.read_text(encoding="utf-8")
        for entry in folder.iterdir()
        if entry.name.endswith(".j2")
    }


def attribute_names() -> set[str]:
    """Every field, property and attribute name of every class in killmod."""
    names: set[str] = set()
    for module_info in pkgutil.walk_packages(killmod.__path__, "killmod."):
        if module_info.name.startswith("killmod.templates"):
            continue
        module = importlib.import_module(module_info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if not cls.__module__.startswith("killmod"):
                continue
            if dataclasses.is_dataclass(cls):
                names |= {f.name for f in dataclasses.fields(cls)}
            names |= {name for name in vars(cls) if not name.startswith("__")}
    return names


def candidates() -> list[str]:
    env = Environment()
    env.filters.update(bb=str, hm=str, columns=str, cell=str)  # killmod's own filters, for parsing
    used = set()
    for text in bundled().values():
        used |= meta.find_undeclared_variables(env.parse(text))
    names = attribute_names() | used | set(GUESSES)
    return sorted(
        name
        for name in names
        if name.isidentifier()
        and not keyword.iskeyword(name)
        and name not in {"true", "false", "none", "True", "False", "None", "loop", "self"}
        and name not in env.globals
    )


WALKER = """{% macro walk(x, path, depth, attrs) -%}
{{ path }} = {{ x }}
{% if depth < MAX_DEPTH -%}
{% if x is mapping -%}
{% for k, v in x.items() %}{{ walk(v, path ~ "[" ~ k ~ "]", depth + 1, attrs) }}{% endfor %}
{%- elif x is iterable and x is not string -%}
{% for v in x %}{{ walk(v, path ~ "[" ~ loop.index0 ~ "]", depth + 1, attrs) }}{% endfor %}
{%- endif %}
{% if x is not string and x is not number and x is not none and x is not boolean -%}
{% for a in attrs %}{% if x[a] is defined and x[a] is not callable -%}
{{ walk(x[a], path ~ "." ~ a, depth + 1, attrs) }}
{%- endif %}{% endfor %}
{%- endif %}
{%- endif %}
{%- endmacro %}
"""


def hostile_folder(folder: Path) -> Path:
    """A templates folder where every public and private template walks its context."""
    folder.mkdir()
    names = candidates()
    attrs = "[" + ", ".join(repr(name) for name in names) + "]"
    (folder / "walk.j2").write_text(WALKER.replace("MAX_DEPTH", str(MAX_DEPTH)), encoding="utf-8")
    for template in PUBLIC | PRIVATE:
        marker = "PRIVATE-TEMPLATE-OUTPUT" if template in PRIVATE else "### TEMPLATE"
        lines = [f"{marker} {template}", '{% import "walk.j2" as w %}', f"{{% set A = {attrs} %}}"]
        lines += [
            f'{{% if {name} is defined %}}{{{{ w.walk({name}, "{name}", 0, A) }}}}{{% endif %}}'
            for name in names
        ]
        (folder / template).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_every_bundled_template_is_public_private_or_a_piece():
    assert set(bundled()) == PUBLIC | PRIVATE | PIECES
    assert not (PUBLIC & PRIVATE) and not (PIECES & (PUBLIC | PRIVATE))


def test_the_walker_reaches_what_a_template_is_given(tmp_path):
    """The walker is not empty: it prints the counts a tally template is handed."""
    from click.testing import CliRunner

    from killmod.commands.cli import main

    root = Path(__file__).resolve().parent.parent
    done = CliRunner().invoke(
        main,
        [
            "tally", str(root / "examples" / "day1"), "--roster",
            str(root / "examples" / "roster.toml"), "--deadline", "2019-05-12 22:00",
            "--templates", str(hostile_folder(tmp_path / "hostile")),
        ],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert "### TEMPLATE tally.bbcode.j2" in done.stdout
    assert "result.counts[0].votes = 4" in done.stdout
    assert "names[5] = 预言家本家" in done.stdout
    assert "result.verdicts[" in done.stdout and ".fragment = " in done.stdout
    assert "roster" not in done.stdout  # never handed the roster
    for role in ("杀手", "水民", "检查官"):
        assert role not in done.stdout.replace("狼人杀手", "")  # seat 4's name


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    return hostile_folder(tmp_path_factory.mktemp("templates") / "hostile")


@pytest.mark.parametrize("name", sorted(SETS))
@pytest.mark.slow
def test_a_hostile_template_reaches_no_secret(tmp_path_factory, hostile, name):
    game = Game2(tmp_path_factory.mktemp(name.replace(".", "_")), name, templates=hostile)
    game.tie_once = True  # so that the lottery posts (or a re-vote) are walked too
    with fixed_salt():
        game.play(Chooser.seeded(sum(map(ord, name))), steps=9)
    words = role_words(game.rules, game.variants)
    seen = game.twins[0].seen
    problems = [p for s in seen for p in leaks(s, words, game.rules, hostile=True)]
    problems += compare_twins(game)
    assert not problems, "\n".join(problems)
    walked = [s for s in seen if s.exit_code == 0 and "### TEMPLATE" in s.stdout]
    assert len(walked) >= 5 and any("names[1] = 玩家1" in s.stdout for s in walked)
    private = [text for s in seen for text in s.private.values()]
    assert private and all(text.startswith("PRIVATE-TEMPLATE-OUTPUT") for text in private)
