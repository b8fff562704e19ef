"""``killmod new``: a commented roster for a rule set and player count, to fill in.

The seats come from the rule set's table (the count must be one the set allows); the file
names what the table gives that count, and what the judge has to fill in.  No role is
written: ``killmod deal`` deals them.
"""

from __future__ import annotations

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
    return RosterTemplate(players, render_public("roster.toml.j2", templates, view))


def write_roster_template(path: Path, text: str, *, force: bool) -> None:
    """Write the template to ``path``; an existing file is kept unless ``force``."""
    try:
        with path.open("w" if force else "x", encoding="utf-8", newline="\n") as file:
            file.write(text)
    except FileExistsError:
        raise BadInput(f"{path} 已经存在：换一个文件名，或加 --force 覆盖。") from None
    except OSError as error:
        raise BadInput(f"{path}：无法写入（{error.strerror}）") from None
