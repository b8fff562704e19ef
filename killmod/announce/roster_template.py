"""``killmod new``: a commented roster for a rule set and player count, to fill in.

The seats come from the rule set's table (the count must be one the set allows); the file
names what the table gives that count, and what the judge has to fill in.  No role is
written: ``killmod deal`` deals them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from killmod.announce.render import render_public
from killmod.announce.views import roster_template_view
from killmod.core.errors import BadInput
from killmod.rules import rule_set, title


@dataclass(frozen=True)
class RosterTemplate:
    """A roster to fill in: its seats and its text."""

    players: int
    text: str
    code: str | None = None  # V4.0's version code for this count


def roster_template(
    rules: str,
    players: int | None = None,
    variants: tuple[str, ...] = (),
    file_name: str = "roster.toml",
    templates: Path | None = None,
) -> RosterTemplate:
    """The roster template of ``players`` seats (a set with one size, as 1.2, needs none);
    a count outside the set's table is ``BadInput``."""
    ruleset = rule_set(rules, variants)
    if players is None:
        sizes = [row["players"] for row in ruleset.table()]
        if len(sizes) != 1:
            span = f"{sizes[0]}–{sizes[-1]}"
            raise BadInput(f"{title(ruleset.NAME)} 规则可以是 {span} 人：请用 --players 写明人数。")
        players = sizes[0]
    row = ruleset.table_row(players)
    general = set(ruleset.summary(None))
    # What the rules say of this count: the last of the lines the count adds (with 花样玩法,
    # the variants' table line comes after plain 2.0's).
    lines = [line for line in ruleset.summary(players) if line not in general][-1:]
    view = roster_template_view(
        ruleset.NAME, title(ruleset.NAME), players, lines, row.get("code"), variants, file_name
    )
    text = render_public("roster.toml.j2", templates, view)
    return RosterTemplate(players, text, row.get("code"))


def write_roster_template(path: Path, text: str, *, force: bool) -> None:
    """Write the template to ``path``; an existing file is kept unless ``force``."""
    try:
        with path.open("w" if force else "x", encoding="utf-8", newline="\n") as file:
            file.write(text)
    except FileExistsError:
        raise BadInput(f"{path} 已经存在：换一个文件名，或加 --force 覆盖。") from None
    except OSError as error:
        raise BadInput(f"{path}：无法写入（{error.strerror}）") from None


@dataclass(frozen=True)
class RuleSetChoice:
    """A rule set as the 新游戏 form offers it: its name, title, player counts, 花样玩法."""

    name: str
    title: str
    sizes: tuple[int, ...]
    variants: tuple[tuple[str, str], ...] = ()


def rule_set_choices() -> tuple[RuleSetChoice, ...]:
    """Every rule set with the counts its table allows (and 2.0's 花样玩法)."""
    from killmod.rules import RULE_SETS
    from killmod.rules.variants import VARIANT_NAMES

    choices = []
    for name in RULE_SETS:
        sizes = tuple(row["players"] for row in rule_set(name).table())
        variants = tuple(VARIANT_NAMES.items()) if name == "2.0" else ()
        choices.append(RuleSetChoice(name, title(name), sizes, variants))
    return tuple(choices)


@dataclass(frozen=True)
class RosterSeat:
    """One seat of the roster as the form gives it."""

    seat: int
    name: str
    uid: int | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class RosterForm:
    """A roster as the 新游戏 form gives it, to be written as the roster file's TOML."""

    rules: str
    players: tuple[RosterSeat, ...]
    judges: tuple[tuple[str, int | None], ...] = ()
    substitutes: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    code: str | None = None
    timezone: str = "Asia/Shanghai"


def _string(text: str) -> str:
    """``text`` as a TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def roster_text(form: RosterForm) -> str:
    """The roster file the form describes (read by ``killmod.game.roster`` as any roster
    file is, with every check it makes)."""
    return "".join(line + "\n" for line, _ in _roster_lines(form))


def roster_origin(form: RosterForm, line: int | None) -> tuple[str, int | None] | None:
    """Which of the form's fields wrote line ``line`` of ``roster_text(form)``: its key and,
    for a seat's line, the seat (``("uid", 3)``; a seat's header is its name's); None for
    a line the form did not write."""
    lines = _roster_lines(form)
    if line is None or not 1 <= line <= len(lines):
        return None
    return lines[line - 1][1]


def _roster_lines(form: RosterForm) -> list[tuple[str, tuple[str, int | None] | None]]:
    """The roster file's lines, each with the form field it comes from."""
    judges = ", ".join(
        _string(name) if uid is None else f"{{ name = {_string(name)}, uid = {uid} }}"
        for name, uid in form.judges
    )
    lines: list[tuple[str, tuple[str, int | None] | None]] = [
        (f"rules = {_string(form.rules)}", ("rules", None))
    ]
    if form.code:
        lines.append((f"code = {_string(form.code)}", ("code", None)))
    if form.variants:
        variants = ", ".join(_string(v) for v in form.variants)
        lines.append((f"variants = [{variants}]", ("variants", None)))
    substitutes = ", ".join(_string(name) for name in form.substitutes)
    lines += [
        (f"timezone = {_string(form.timezone)}", ("timezone", None)),
        (f"judges = [{judges}]", ("judges", None)),
        (f"substitutes = [{substitutes}]", ("substitutes", None)),
    ]
    for player in form.players:
        seat = player.seat
        lines += [
            ("", None),
            ("[[players]]", ("name", seat)),
            (f"seat = {seat}", ("name", seat)),
            (f"name = {_string(player.name)}", ("name", seat)),
        ]
        if player.uid is not None:
            lines.append((f"uid = {player.uid}", ("uid", seat)))
        if player.aliases:
            aliases = ", ".join(_string(a) for a in player.aliases)
            lines.append((f"aliases = [{aliases}]", ("aliases", seat)))
    return lines
