"""Templates run in Jinja2's immutable sandbox, bundled and ``--templates DIR`` alike.

A judge's template that walks to Python's internals (``cycler.__init__.__globals__…``),
reads a file, runs a program or changes the data it was given is refused: exit 2, a
Chinese message naming the template (the included one, when the harm is there), and no
post.  The compiled-template cache keeps working, and never hands the sandbox code that a
plain (unsandboxed) environment compiled.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader
from platformdirs import user_cache_path

from killmod.commands.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "day1"
ROSTER = ROOT / "examples" / "roster.toml"
TALLY = ["tally", str(EXAMPLE), "--roster", str(ROSTER), "--deadline", "2019-05-12 22:00"]


def tally(templates: Path, *extra: str):
    return CliRunner().invoke(main, [*TALLY, "--templates", str(templates), *extra])


def judge_template(folder: Path, text: str, name: str = "tally.bbcode.j2") -> Path:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def refused_naming(done, name: str) -> None:
    assert done.exit_code == 2, done.output
    assert done.stdout == ""  # no post at all
    assert f"模板 {name} 出错" in done.stderr and "Traceback" not in done.output


def test_the_issues_shell_command_template_is_refused_and_runs_nothing(tmp_path):
    marker = tmp_path / "ran"
    folder = judge_template(
        tmp_path / "t", f"{{{{ cycler.__init__.__globals__.os.popen('touch {marker}').read() }}}}"
    )
    done = tally(folder)
    refused_naming(done, "tally.bbcode.j2")
    assert "沙盒" in done.stderr
    assert not marker.exists()


@pytest.mark.parametrize(
    "text",
    [
        "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "{{ lipsum.__globals__['os'].listdir('/') }}",
        "{{ self._TemplateReference__context }}",
        "{{ names.__class__.__init__ }}",
        "{{ '{0.__class__.__base__}'.format(names) }}",
        "{{ result.round.__class__.__subclasses__() }}",
        "{{ names.clear() }}",  # changing the data given: the sandbox is immutable
        "{{ names.update({1: 'x'}) }}",
        # what the sandbox decided of one attribute of a type is not taken for another's
        "{{ names.get(1) }}{{ names.keys() | list }}{{ names.update({1: 'x'}) }}",
        "{{ result.round }}{{ result.counts }}{{ result.__class__ }}",
        "{% for i in range(10**9) %}{% endfor %}",
    ],
)
def test_a_template_reaching_beyond_its_data_is_refused(tmp_path, text):
    done = tally(judge_template(tmp_path / "t", text))
    refused_naming(done, "tally.bbcode.j2")


@pytest.mark.parametrize("path", ["/etc/passwd", "../../../../etc/passwd", "../secret.txt"])
def test_a_template_cannot_include_a_file_outside_the_template_folders(tmp_path, path):
    (tmp_path / "secret.txt").write_text("s3cret-file-content", encoding="utf-8")
    done = tally(judge_template(tmp_path / "t", f'{{% include "{path}" %}}'))
    refused_naming(done, "tally.bbcode.j2")
    assert "s3cret-file-content" not in done.output and "root:" not in done.output


def test_the_harm_in_an_included_template_is_named_there(tmp_path):
    # the bundled tally.bbcode.j2 includes announcement.j2, which imports the judge's markup
    folder = judge_template(
        tmp_path / "t",
        "{% macro b(text) %}{{ text.__class__.__mro__ }}{% endmacro %}"
        "{% macro title(text) %}{{ text }}{% endmacro %}"
        "{% macro red(text) %}{{ text }}{% endmacro %}"
        "{% macro esc(text) %}{{ text }}{% endmacro %}",
        name="markup_bbcode.j2",
    )
    done = tally(folder)
    refused_naming(done, "markup_bbcode.j2")
    assert str(folder / "markup_bbcode.j2") in done.stderr


def test_a_template_that_fails_at_run_time_is_bad_input_naming_it(tmp_path):
    done = tally(judge_template(tmp_path / "t", "{{ 1 // 0 }}"))
    refused_naming(done, "tally.bbcode.j2")
    assert "ZeroDivisionError" in done.stderr


def test_a_judges_own_template_still_reads_its_data(tmp_path):
    folder = judge_template(
        tmp_path / "t",
        "第{{ result.round }}轮：{% for c in result.counts %}{{ c.seat }}号{{ names[c.seat] }}"
        "={{ c.votes }} {% endfor %}\n",
    )
    done = tally(folder)
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith("第1轮：5号预言家本家=")


def test_compiled_templates_are_kept_and_the_sandbox_holds_when_they_are_loaded(tmp_path):
    cache = user_cache_path("killmod") / "templates"
    folder = judge_template(tmp_path / "t", "{{ names.__class__ }}{{ result.round }}\n")
    before = set(cache.glob("*")) if cache.exists() else set()
    refused_naming(tally(folder), "tally.bbcode.j2")
    assert set(cache.glob("*")) - before  # compiled and kept
    refused_naming(tally(folder), "tally.bbcode.j2")  # loaded from the cache: still refused
    good = judge_template(tmp_path / "good", "第{{ result.round }}轮\n")
    assert tally(good).stdout == "第1轮\n"
    assert tally(good).stdout == "第1轮\n"


def test_code_compiled_outside_the_sandbox_is_never_loaded_by_it(tmp_path):
    """A plain environment compiles a call to ``str.format`` as an unchecked call; loaded
    by the sandbox it would let ``{0.__class__}`` through.  The sandbox's cache keys are its
    own, so the template is compiled again, in the sandbox."""
    text = "{{ '{0.__class__}'.format(result.round) }}"
    folder = judge_template(tmp_path / "t", text)
    cache = user_cache_path("killmod") / "templates"
    cache.mkdir(parents=True, exist_ok=True)
    plain = Environment(
        loader=FileSystemLoader(str(folder)), bytecode_cache=FileSystemBytecodeCache(str(cache))
    )
    assert plain.get_template("tally.bbcode.j2").render(result={"round": 1}) == "<class 'int'>"
    done = tally(folder)
    refused_naming(done, "tally.bbcode.j2")
    assert "<class" not in done.output


@pytest.mark.skipif(os.name == "nt", reason="POSIX permissions")
def test_a_compiled_template_folder_others_may_write_to_is_not_used(tmp_path):
    cache = user_cache_path("killmod") / "templates"
    folder = judge_template(tmp_path / "t", "第{{ result.round }}轮 {{ result.rules }}\n")
    assert tally(folder).exit_code == 0
    assert cache.stat().st_mode & 0o022 == 0
    old_mode = cache.stat().st_mode
    try:
        cache.chmod(0o777)
        before = set(cache.iterdir())
        other = judge_template(tmp_path / "other", "第{{ result.round }}轮（另一个）\n")
        done = tally(other)
        assert done.exit_code == 0 and done.stdout == "第1轮（另一个）\n"
        assert set(cache.iterdir()) == before  # nothing compiled was kept there
    finally:
        cache.chmod(old_mode)
