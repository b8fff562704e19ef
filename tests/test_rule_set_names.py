"""Rule-set names as judges write them: any case, with or without the version's ``.0``."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from killmod.commands.cli import main
from killmod.core.errors import BadInput
from killmod.game.roster import parse_roster
from killmod.rules import canonical_name, rule_set
from tests.support.pagebuilder import DEMO_ROSTER_TOML

SPELLINGS = {
    "1.2": ["1.2", "V1.2", "v1.2", " 1.2 "],
    "v4": ["v4", "V4", "V4.0", "v4.0", "Ｖ４"],
    "x": ["x", "X", "X游戏"],
    "1.0": ["1.0", "V1.0"],
    "2.0": ["2.0", "v2.0"],
}


@pytest.mark.parametrize(
    ("written", "meant"),
    [(written, name) for name, spellings in SPELLINGS.items() for written in spellings],
)
def test_every_usual_spelling_names_its_set(written, meant):
    assert canonical_name(written) == meant
    assert rule_set(written) is rule_set(meant)


@pytest.mark.parametrize("written", ["V4", "V4.0", "X", "x"])
def test_the_rules_command_reads_any_case(written):
    done = CliRunner().invoke(main, ["rules", written, "--format", "json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.output)


def test_an_unknown_set_is_refused_naming_the_sets():
    with pytest.raises(BadInput, match=r"V5.*1\.2、V4\.0"):
        rule_set("V5")
    done = CliRunner().invoke(main, ["rules", "V5"])
    assert done.exit_code == 2 and "未知的规则「V5」" in done.output


def test_a_roster_may_write_the_set_in_any_case_and_is_stored_canonical():
    assert DEMO_ROSTER_TOML.startswith('rules = "1.2"\n')
    text = DEMO_ROSTER_TOML.replace('rules = "1.2"', 'rules = "V1.2"', 1)
    assert parse_roster(text).rules == "1.2"
