"""The help and the usage errors a judge meets first: Chinese, with none of click's English.

click writes its frame (Usage, Options, [default: …], INTEGER RANGE, No such option…) in
English; killmod writes it in Chinese through click's hooks (``killmod.commands.clitext``).  The
check is strict: every Latin word in a command's help must be one killmod itself wrote
for that command (an option's name, a choice, a word of its help text) — any word click
adds is caught, whatever it is.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from killmod.announce.textwidth import display_width
from killmod.commands.cli import COMMANDS, main
from killmod.commands.clitext import Command

KILLMOD = Path(sys.executable).parent / "killmod"
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
CLICK_FRAME = (
    "Usage",
    "Options",
    "Commands",
    "Show this message",
    "Show the version",
    "default",
    "required",
    "INTEGER",
    "FLOAT",
    "TEXT",
    "PATH",
    "RANGE",
    "COMMAND",
    "ARGS",
    "OPTIONS",
    "Error",
    "Try",
)


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def every_command() -> list[tuple[tuple[str, ...], click.Command]]:
    """Every command line a judge can ask help for: the group, each command, subcommands."""
    ctx = click.Context(main)
    found: list[tuple[tuple[str, ...], click.Command]] = [((), main)]
    for name in COMMANDS:
        command = main.get_command(ctx, name)
        found.append(((name,), command))
        if isinstance(command, click.Group):
            for sub in command.list_commands(ctx):
                found.append(((name, sub), command.get_command(ctx, sub)))
    return found


COMMAND_LINES = [line for line, _ in every_command()]


def own_words(command: click.Command) -> set[str]:
    """The Latin words killmod wrote for ``command``: names, choices, help, metavars."""
    texts = [command.name or "", command.help or "", command.epilog or "", "killmod"]
    for param in command.params:
        texts += [*param.opts, *param.secondary_opts, param.metavar or ""]
        texts.append(getattr(param, "help", None) or "")
        if isinstance(param.type, click.Choice):
            texts += [str(choice) for choice in param.type.choices]
        if isinstance(param, click.Option) and param.show_default:
            texts.append(str(param.default))
    if isinstance(command, click.Group):
        texts += [*command.list_commands(click.Context(command))]
        ctx = click.Context(command)
        texts += [command.get_command(ctx, n).help or "" for n in command.list_commands(ctx)]
    texts += ["h", "help", "version"]  # -h/--help, --version: killmod's own spellings
    return {word for text in texts for word in LATIN_WORD.findall(text)}


@pytest.mark.parametrize("line", COMMAND_LINES, ids=lambda line: " ".join(line) or "killmod")
def test_help_of_every_command_is_chinese(line):
    command = dict(every_command())[line]
    result = invoke(*line, "--help")
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.startswith("用法：killmod"), text
    assert "选项：" in text and "显示此帮助并退出" in text, text
    for frame in CLICK_FRAME:
        assert frame not in text, f"{frame!r} in the help of {line}:\n{text}"
    strangers = set(LATIN_WORD.findall(text)) - own_words(command) - set(line)
    assert not strangers, f"words killmod did not write, in the help of {line}: {strangers}"


@pytest.mark.parametrize("line", COMMAND_LINES, ids=lambda line: " ".join(line) or "killmod")
def test_help_lines_fit_the_terminal_by_display_width(line):
    # CliRunner formats help 80 columns wide (click's FORCED_WIDTH).
    for row in invoke(*line, "--help").output.splitlines():
        words = row.split()
        assert display_width(row) <= 80 or len(words) == 1, row


def test_defaults_ranges_and_required_options_are_said_in_chinese():
    assert "[必填]" in invoke("open", "--help").output  # --deadline
    text = invoke("tally", "--help").output
    assert "[默认值：4；1 到 16]" in text  # --jobs
    assert "[默认值：killmod.db]" in text
    assert "--round 数字" in text and "--deadline 时间" in text and "--templates 文件夹" in text
    assert "用法：killmod tally [选项] 投票帖" in text


def test_every_command_is_made_with_killmods_chinese_command_class():
    for line, command in every_command():
        assert isinstance(command, Command), f"{line}: use killmod.commands.clitext.command()"


def test_bare_killmod_lists_the_commands_one_line_each_and_exits_0():
    result = invoke()
    assert result.exit_code == 0, result.output
    listed = result.output.split("命令：\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert [row.split()[0] for row in listed] == list(COMMANDS)
    assert "killmod tally --help" in result.output


def test_the_installed_killmod_run_bare_exits_0():
    done = subprocess.run([str(KILLMOD)], capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    assert "命令：" in done.stdout and "错误" not in done.stdout + done.stderr


def test_a_bare_group_of_subcommands_shows_its_help():
    result = invoke("lottery")
    assert result.exit_code == 0
    assert "make" in result.output and "reveal" in result.output and "verify" in result.output


def test_version_is_plain():
    result = invoke("--version")
    assert result.exit_code == 0
    assert re.fullmatch(r"killmod \d+\.\d+\.\d+\n", result.output), result.output


def test_a_mistyped_option_suggests_the_nearest():
    result = invoke("tally", "x", "--deadlin", "22:00")
    assert result.exit_code == 2
    assert "错误：没有这个选项：--deadlin。是不是 --deadline？" in result.output


def test_a_mistyped_command_suggests_the_nearest():
    result = invoke("talyl")
    assert result.exit_code == 2
    assert "错误：没有这个命令：talyl。是不是 tally？" in result.output


def test_a_command_nothing_like_any_lists_the_commands():
    result = invoke("xyzzy")
    assert result.exit_code == 2
    assert "可用命令：" + "、".join(COMMANDS) in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["leave"], "缺少参数 座位号"),
        (["open"], "缺少选项 --deadline"),
        (
            ["tally", "x", "--deadline", "22:00", "--jobs", "99"],
            "--jobs 的值无效，应为 1 到 16 的整数",
        ),
        (["tally", "x", "--deadline", "22:00", "--jobs", "many"], "--jobs 的值无效，应为 1 到 16"),
        (["leave", "five", "--day", "05-12"], "座位号 的值无效，应为整数"),
        (
            ["tally", "x", "--deadline", "22:00", "--format", "xml"],
            "可选：bbcode、text、json、audit",
        ),
        (["tally", "x", "y", "--deadline", "22:00"], "多余的参数：y"),
        (["tally", "x", "--deadline"], "--deadline 后面要跟一个值"),
        (["tally", "x", "--deadline", "22:00", "--record=yes"], "--record 是开关，后面不带值"),
    ],
)
def test_usage_errors_are_chinese(args, words):
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert words in result.output, result.output
    assert result.output.startswith("用法：killmod"), result.output
    message = result.output.split("错误：", 1)[1]
    latin = set(LATIN_WORD.findall(message)) - own_words(dict(every_command())[(args[0],)])
    latin -= {word for arg in args for word in LATIN_WORD.findall(arg)}
    assert not latin, f"English in {message!r}: {latin}"
