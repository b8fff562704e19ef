"""``run.py``, the README's set-up commands: the same on Windows, macOS and Linux.

The path logic is tested for both layouts of a venv (Windows keeps ``Scripts\\python.exe``);
the commands themselves run here, on the CI machine, against this checkout's venv (the
one these tests run in), and the packaging is checked to raise no deprecation warning.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path, PurePosixPath, PureWindowsPath

import pytest

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "golden"


def load_run_script():
    spec = importlib.util.spec_from_file_location("run_script", ROOT / "run.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


run_script = load_run_script()


def run_py(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "run.py"), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
    )


def test_a_windows_venv_keeps_its_programs_in_scripts_with_exe():
    root = PureWindowsPath(r"C:\Users\法官 甲\killmod\.venv")
    paths = run_script.venv_paths(root, windows=True)
    assert paths.python == PureWindowsPath(r"C:\Users\法官 甲\killmod\.venv\Scripts\python.exe")
    assert paths.killmod == PureWindowsPath(r"C:\Users\法官 甲\killmod\.venv\Scripts\killmod.exe")
    assert str(paths.marker) == r"C:\Users\法官 甲\killmod\.venv\.installed"


def test_a_posix_venv_keeps_its_programs_in_bin():
    root = PurePosixPath("/Users/judge/killmod/.venv")
    paths = run_script.venv_paths(root, windows=False)
    assert str(paths.python) == "/Users/judge/killmod/.venv/bin/python"
    assert str(paths.killmod) == "/Users/judge/killmod/.venv/bin/killmod"


def test_the_venv_is_installed_again_when_a_program_is_missing_or_pyproject_changed(tmp_path):
    paths = run_script.venv_paths(tmp_path / ".venv", windows=os.name == "nt")
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[project]\n", encoding="utf-8")
    assert run_script.needs_install(paths, pyproject)  # no venv yet
    for program in (paths.python, paths.killmod):
        Path(program).parent.mkdir(parents=True, exist_ok=True)
        Path(program).write_text("", encoding="utf-8")
    assert run_script.needs_install(paths, pyproject)  # never installed
    Path(paths.marker).touch()
    os.utime(pyproject, (1_000_000_000, 1_000_000_000))
    assert not run_script.needs_install(paths, pyproject)
    os.utime(pyproject, None)
    os.utime(paths.marker, (1_000_000_000, 1_000_000_000))
    assert run_script.needs_install(paths, pyproject)  # pyproject.toml changed since
    os.utime(paths.marker, None)
    Path(paths.killmod).unlink()
    assert run_script.needs_install(paths, pyproject)


@pytest.mark.parametrize(("pytest_code", "ours"), [(0, 0), (1, 1), (2, 2), (5, 0)])
def test_no_test_collected_is_no_failure(pytest_code, ours):
    assert run_script.tests_exit_code(pytest_code) == ours


@pytest.mark.parametrize(("pytest_code", "ours"), [(0, 1), (1, 1), (2, 2), (5, 1)])
def test_a_failed_check_fails_the_test_command_even_when_the_tests_pass(pytest_code, ours):
    assert run_script.test_run_code(["ruff check 没有通过"], pytest_code) == ours


def test_the_checks_pass_on_this_checkout():
    paths = run_script.venv_paths(Path(sys.prefix), windows=os.name == "nt")
    assert run_script.failed_checks(paths) == []


def test_each_check_that_fails_is_named_with_what_to_do(tmp_path):
    layers = '[tool.importlinter]\nroot_packages = ["low"]\n[[tool.importlinter.contracts]]\n'
    layers += 'name = "layers"\ntype = "layers"\nlayers = ["low.high", "low.base"]\n'
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\n" + layers, encoding="utf-8")
    (tmp_path / "low" / "high").mkdir(parents=True)
    for package in ("low", "low/high", "low/base"):
        (tmp_path / package).mkdir(exist_ok=True)
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "low" / "base" / "__init__.py").write_text("import low.high\n", encoding="utf-8")
    (tmp_path / "sloppy.py").write_text("import os\nx=1\n", encoding="utf-8")
    paths = run_script.venv_paths(Path(sys.prefix), windows=os.name == "nt")
    failed = run_script.failed_checks(paths, tmp_path)
    assert failed == [
        "ruff check 没有通过：改好上面列出的问题（ruff check --fix . 能改好一部分）。",
        "ruff format --check 没有通过：运行 ruff format . 按统一格式改写。",
        "lint-imports 没有通过：有引入违反了层次（见上面列出的引入和 docs/architecture.md）。",
    ]


@pytest.mark.slow
def test_run_py_example_prints_the_example_announcement():
    done = run_py("example")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (GOLDEN / "example.bbcode").read_text(encoding="utf-8")


@pytest.mark.slow
def test_run_py_example_passes_options_on_to_killmod():
    done = run_py("example", "--format", "text")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (GOLDEN / "example.text").read_text(encoding="utf-8")


@pytest.mark.slow
def test_run_py_test_with_no_test_selected_exits_0():
    done = run_py("test", "-k", "no_test_has_this_name", "-p", "no:cacheprovider")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "deselected" in done.stdout


@pytest.mark.slow
def test_run_py_without_a_command_says_how_to_use_it():
    done = run_py()
    assert done.returncode == 2
    assert "用法：python run.py example" in done.stderr and "python run.py test" in done.stderr


def test_the_ci_runs_the_readmes_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "run.py test" in ci
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "python run.py test" in readme and "python run.py example" in readme


@pytest.mark.slow
def test_the_packaging_raises_no_deprecation_warning():
    """pip prepares the metadata as an install would, with setuptools' warnings shown."""
    pip = [sys.executable, "-m", "pip", "install", "--dry-run", "--no-deps"]
    done = subprocess.run(
        [*pip, "--ignore-installed", "."], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout + done.stderr
    output = done.stdout + done.stderr
    assert "Would install killmod" in output
    assert "deprecat" not in output.lower(), output


def test_the_browser_is_installed_with_apt_only_where_missing_and_root():
    missing = {"chromium": None, "chromedriver": None}
    there = {"chromium": "/usr/bin/chromium", "chromedriver": "/usr/bin/chromedriver"}
    commands = run_script.browser_install_command(missing, "linux", True, "/usr/bin/apt-get")
    assert commands[0][:2] == ["/usr/bin/apt-get", "update"]
    assert commands[1][-3:] == ["chromium", "chromium-driver", "fonts-wqy-microhei"]
    assert run_script.browser_install_command(there, "linux", True, "/usr/bin/apt-get") == []
    assert run_script.browser_install_command(missing, "linux", False, "/usr/bin/apt-get") == []
    assert run_script.browser_install_command(missing, "win32", True, None) == []


def test_the_set_up_writes_double_clickable_starters_of_the_page(tmp_path):
    windows, mac = run_script.write_starters(tmp_path)
    assert windows.name == "killmod-page.cmd" and mac.name == "killmod-page.command"
    assert b'".venv\\Scripts\\killmod.exe" serve\r\n' in windows.read_bytes()
    assert mac.read_text().startswith("#!/bin/sh\n")
    assert "exec ./.venv/bin/killmod serve" in mac.read_text()
    assert mac.stat().st_mode & 0o111
