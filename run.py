"""The README's two set-up commands, the same on Windows, macOS and Linux:

    python run.py example   tally the bundled example vote thread (saved pages, no network)
    python run.py test      check the code (ruff, the layers), then run the test suite
                            (pytest's options may follow)

The first run makes ``.venv`` beside this file and installs killmod with its test tools
into it (again whenever pyproject.toml changes); every run then uses that venv's own
Python and ``killmod``, wherever the operating system puts them.  Only the standard
library is used here: this runs before anything is installed.
"""

from __future__ import annotations

import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path, PurePath

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
MARKER_NAME = ".installed"
MINIMUM_PYTHON = (3, 11)
EXAMPLE = [
    "tally",
    "examples/day1",
    "--roster",
    "examples/roster.toml",
    "--deadline",
    "2019-05-12 22:00",
]
USAGE = "用法：python run.py example [killmod 的选项] | python run.py test [pytest 的选项]"
# pytest's exit code when it collected no test (a -k matching nothing): no failure.
NO_TESTS_COLLECTED = 5
# What ``run.py test`` checks before the tests, and what each failure asks for.
RUFF_CHECK = ("ruff check", "改好上面列出的问题（ruff check --fix . 能改好一部分）")
RUFF_FORMAT = ("ruff format --check", "运行 ruff format . 按统一格式改写")
LAYERS = ("lint-imports", "有引入违反了层次（见上面列出的引入和 docs/architecture.md）")
# The judge's page is tested in a real browser: Debian's Chromium and its driver (and a
# Chinese font for the guide's screenshots), installed with apt where killmod runs as root.
BROWSER_PROGRAMS = ("chromium", "chromedriver")
BROWSER_PACKAGES = ("chromium", "chromium-driver", "fonts-wqy-microhei")


@dataclass(frozen=True)
class VenvPaths:
    """Where a venv keeps its Python and the ``killmod`` command."""

    python: PurePath
    killmod: PurePath
    marker: PurePath
    lint_imports: PurePath


def venv_paths(root: PurePath, windows: bool) -> VenvPaths:
    """The venv's programs: ``Scripts\\python.exe`` on Windows, ``bin/python`` elsewhere."""
    if windows:
        scripts = root / "Scripts"
        return VenvPaths(
            scripts / "python.exe",
            scripts / "killmod.exe",
            root / MARKER_NAME,
            scripts / "lint-imports.exe",
        )
    scripts = root / "bin"
    return VenvPaths(
        scripts / "python", scripts / "killmod", root / MARKER_NAME, scripts / "lint-imports"
    )


def needs_install(paths: VenvPaths, pyproject: Path) -> bool:
    """Whether the venv must be made or killmod installed (again) into it."""
    programs = (Path(paths.python), Path(paths.killmod), Path(paths.marker))
    if not all(program.exists() for program in programs):
        return True
    return pyproject.stat().st_mtime > Path(paths.marker).stat().st_mtime


def tests_exit_code(code: int) -> int:
    """pytest's exit code as the set-up command's: no test collected is no failure."""
    return 0 if code == NO_TESTS_COLLECTED else code


def checks(paths: VenvPaths) -> list[tuple[tuple[str, str], list[str]]]:
    """The checks ``run.py test`` runs before pytest: lint, format, the layers' imports."""
    ruff = [str(paths.python), "-m", "ruff"]
    return [
        (RUFF_CHECK, [*ruff, "check", "."]),
        (RUFF_FORMAT, [*ruff, "format", "--check", "."]),
        (LAYERS, [str(paths.lint_imports)]),
    ]


def failed_checks(paths: VenvPaths, root: Path = ROOT) -> list[str]:
    """Run every check on ``root`` (each shows its own findings); the messages of those
    that failed."""
    failed = []
    for (name, fix), command in checks(paths):
        if subprocess.run(command, cwd=root).returncode != 0:
            failed.append(f"{name} 没有通过：{fix}。")
    return failed


def test_run_code(check_failures: list[str], pytest_code: int) -> int:
    """The exit code of ``run.py test``: pytest's, and 1 when only a check failed."""
    code = tests_exit_code(pytest_code)
    if check_failures and code == 0:
        return 1
    return code


# Double-clickable starters of the judge's page (killmod serve), written beside run.py by
# the set-up: the game file and its private folder are made in the folder they run in.
STARTERS = {
    "killmod-page.cmd": (
        '@echo off\r\nchcp 65001 >nul\r\ncd /d "%~dp0"\r\n'
        '".venv\\Scripts\\killmod.exe" serve\r\npause\r\n'
    ),
    "killmod-page.command": '#!/bin/sh\ncd "$(dirname "$0")"\nexec ./.venv/bin/killmod serve\n',
}


def write_starters(root: Path = ROOT) -> list[Path]:
    """The starters for Windows (``.cmd``) and macOS (``.command``), executable."""
    written = []
    for name, text in STARTERS.items():
        path = root / name
        path.write_bytes(text.encode("utf-8"))
        path.chmod(0o755)
        written.append(path)
    return written


def install(paths: VenvPaths) -> None:
    """Make the venv and install killmod (editable, with its test tools) into it."""
    print("正在建立 .venv 并安装 killmod（第一次需要联网，约一两分钟）……", file=sys.stderr)
    if not Path(paths.python).exists():
        venv.create(VENV, with_pip=True)
    pip = [str(paths.python), "-m", "pip", "install", "-qq"]
    # -qq: pip shows errors only (setuptools' note on editable installs is no news).
    subprocess.run([*pip, "--upgrade", "pip"], check=True, cwd=ROOT)
    subprocess.run([*pip, "-e", ".[test]"], check=True, cwd=ROOT)
    Path(paths.marker).touch()
    write_starters()
    print(
        "安装完成。双击 killmod-page（Windows：.cmd；macOS：.command）打开法官的网页。",
        file=sys.stderr,
    )


def browser_install_command(
    found: dict[str, str | None], platform: str, root: bool, apt: str | None
) -> list[list[str]]:
    """The apt commands that install the browser the page's tests drive: none when it is
    there, or where apt cannot be run (another system, not root: the tests say what to
    install)."""
    if all(found.get(program) for program in BROWSER_PROGRAMS):
        return []
    if not platform.startswith("linux") or not root or apt is None:
        return []
    quiet = ["-qq", "-o", "Dpkg::Use-Pty=0"]
    return [[apt, "update", *quiet], [apt, "install", "-y", *quiet, *BROWSER_PACKAGES]]


def install_browser() -> None:
    """Install Chromium and its driver with apt when they are missing (CI runs as root)."""
    import os
    import shutil

    found = {program: shutil.which(program) for program in BROWSER_PROGRAMS}
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    commands = browser_install_command(found, sys.platform, root, shutil.which("apt-get"))
    if commands:
        print("正在安装浏览器测试用的 Chromium（apt）……", file=sys.stderr)
    for command in commands:
        subprocess.run(command, check=False, stdout=subprocess.DEVNULL)


def main(argv: list[str]) -> int:
    """Run ``example`` or ``test``; the exit code is the command's."""
    if sys.version_info < MINIMUM_PYTHON:
        print(
            f"需要 Python {'.'.join(map(str, MINIMUM_PYTHON))} 或更新的版本，"
            f"这里是 {sys.version.split()[0]}。请从 https://www.python.org/downloads/ 安装。",
            file=sys.stderr,
        )
        return 2
    if not argv or argv[0] not in ("example", "test"):
        print(USAGE, file=sys.stderr)
        return 2
    paths = venv_paths(VENV, windows=sys.platform == "win32")
    if needs_install(paths, ROOT / "pyproject.toml"):
        try:
            install(paths)
        except subprocess.CalledProcessError as error:
            print(f"安装失败（退出码 {error.returncode}），见上面 pip 的说明。", file=sys.stderr)
            return 1
    command, rest = argv[0], argv[1:]
    if command == "example":
        return subprocess.run([str(paths.killmod), *EXAMPLE, *rest], cwd=ROOT).returncode
    check_failures = failed_checks(paths)
    install_browser()
    done = subprocess.run([str(paths.python), "-m", "pytest", *rest], cwd=ROOT)
    for failure in check_failures:
        print(failure, file=sys.stderr)
    return test_run_code(check_failures, done.returncode)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
