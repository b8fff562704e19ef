"""Templates and compiled templates come only from folders the judge alone controls.

Compiled templates are code that runs as the judge, and a judge's templates decide what is
posted in his name: a folder (or a file in it) owned by another user, or writable by
others, is not used.  The compiled-template cache is then not used (compiled again, the
judge told once on stderr how to fix it); a ``--templates`` folder is refused with the fix.

Ownership is tested with a real other user (``nobody``): the tests ``chown`` to it, which
needs root — CI runs as root; elsewhere those tests are skipped.  Each runs the installed
``killmod`` in its own process, as a judge does.
"""

from __future__ import annotations

import marshal
import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from jinja2.bccache import bc_magic

ROOT = Path(__file__).resolve().parent.parent
KILLMOD = Path(sys.executable).parent / "killmod"
TALLY = [
    "tally",
    str(ROOT / "examples" / "day1"),
    "--roster",
    str(ROOT / "examples" / "roster.toml"),
    "--deadline",
    "2019-05-12 22:00",
]
NOBODY = 65534
pytestmark = pytest.mark.slow  # every test runs killmod in its own process

posix = pytest.mark.skipif(os.name == "nt", reason="POSIX owners and modes")
as_root = pytest.mark.skipif(
    os.name == "nt" or os.geteuid() != 0, reason="chown to another user needs root (CI is root)"
)


def killmod(cache: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run(
        [str(KILLMOD), *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def plant(folder: Path, marker: Path) -> int:
    """Replace the code of every compiled template in ``folder`` with code that writes
    ``marker`` (each keeps its source's checksum, so Jinja would load it); how many."""
    code = marshal.dumps(compile(f"open({str(marker)!r}, 'w').write('ran')", "<planted>", "exec"))
    planted = 0
    for path in folder.glob("__jinja2_*.cache"):
        with path.open("rb") as file:
            assert file.read(len(bc_magic)) == bc_magic
            checksum = pickle.load(file)
        path.write_bytes(bc_magic + pickle.dumps(checksum, 2) + code)
        planted += 1
    return planted


def own(path: Path, uid: int, mode: int) -> None:
    os.chown(path, uid, -1)
    path.chmod(mode)


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    """A user cache whose compiled templates a first tally made."""
    root = tmp_path / "cache"
    first = killmod(root, *TALLY)
    assert first.returncode == 0, first.stderr
    assert list((root / "killmod" / "templates").glob("__jinja2_*.cache"))
    return root


@as_root
def test_planted_compiled_templates_in_a_folder_another_user_owns_never_run(cache, tmp_path):
    """The issue's case: the folder owned by another user, mode 0755, compiled templates
    planted in it — only the mode used to be checked, and the planted code ran."""
    folder = cache / "killmod" / "templates"
    marker = tmp_path / "planted-code-ran"
    assert plant(folder, marker)
    for path in folder.iterdir():
        own(path, NOBODY, 0o644)
    own(folder, NOBODY, 0o755)
    expected = killmod(tmp_path / "clean", *TALLY).stdout
    done = killmod(cache, *TALLY)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    assert done.stdout == expected  # the templates compiled again: the same post
    assert "编译好的模板的缓存文件夹不用" in done.stderr
    assert f"属于另一个用户（uid {NOBODY}）" in done.stderr and "修正：mv" in done.stderr


@as_root
def test_a_planted_file_another_user_owns_in_the_judges_own_folder_never_runs(cache, tmp_path):
    folder = cache / "killmod" / "templates"
    marker = tmp_path / "planted-code-ran"
    assert plant(folder, marker)
    for path in folder.iterdir():
        own(path, NOBODY, 0o644)
    done = killmod(cache, *TALLY)
    assert done.returncode == 0, done.stderr
    assert not marker.exists()
    assert "不用" in done.stderr and f"uid {NOBODY}" in done.stderr


@posix
def test_planted_code_in_a_folder_others_may_write_to_never_runs(cache, tmp_path):
    folder = cache / "killmod" / "templates"
    marker = tmp_path / "planted-code-ran"
    assert plant(folder, marker)
    folder.chmod(0o777)
    done = killmod(cache, *TALLY)
    assert done.returncode == 0 and not marker.exists()
    assert "其他用户可以写入（权限 777）" in done.stderr


@posix
def test_a_folder_above_the_cache_that_others_may_write_to_makes_it_untrusted(cache, tmp_path):
    """Whoever may write to a folder above it can put another folder in its place."""
    marker = tmp_path / "planted-code-ran"
    assert plant(cache / "killmod" / "templates", marker)
    (cache / "killmod").chmod(0o777)  # no sticky bit: anyone may rename ``templates``
    done = killmod(cache, *TALLY)
    assert done.returncode == 0 and not marker.exists()
    assert f"chmod go-w '{cache / 'killmod'}'" in done.stderr


@posix
def test_the_judges_own_cache_is_used_and_says_nothing(cache):
    folder = cache / "killmod" / "templates"
    kept = {path: path.stat().st_mtime_ns for path in folder.iterdir()}
    done = killmod(cache, *TALLY)
    assert done.returncode == 0 and "不用" not in done.stderr
    # loaded, not compiled again
    assert {path: path.stat().st_mtime_ns for path in folder.iterdir()} == kept


def judges_templates(folder: Path) -> Path:
    folder.mkdir(mode=0o700)
    (folder / "tally.bbcode.j2").write_text("第{{ result.round }}轮（自己的模板）\n", "utf-8")
    (folder / "tally.bbcode.j2").chmod(0o600)
    return folder


@as_root
def test_a_templates_folder_another_user_owns_is_refused_with_the_fix(tmp_path):
    folder = judges_templates(tmp_path / "t")
    own(folder, NOBODY, 0o755)
    done = killmod(tmp_path / "cache", *TALLY, "--templates", str(folder))
    assert done.returncode == 2 and done.stdout == ""
    assert f"模板文件夹 {folder} 不用" in done.stderr and f"uid {NOBODY}" in done.stderr
    assert f"修正：chown -R {os.getuid()} '{folder}'" in done.stderr
    assert "Traceback" not in done.stderr


@as_root
def test_a_template_file_another_user_owns_is_refused(tmp_path):
    folder = judges_templates(tmp_path / "t")
    own(folder / "tally.bbcode.j2", NOBODY, 0o644)
    done = killmod(tmp_path / "cache", *TALLY, "--templates", str(folder))
    assert done.returncode == 2 and done.stdout == ""
    assert "模板 tally.bbcode.j2 不用" in done.stderr


@posix
@pytest.mark.parametrize("which", ["folder", "file"])
def test_templates_others_may_write_to_are_refused(tmp_path, which):
    folder = judges_templates(tmp_path / "t")
    target = folder if which == "folder" else folder / "tally.bbcode.j2"
    target.chmod(target.stat().st_mode | stat.S_IWOTH)
    done = killmod(tmp_path / "cache", *TALLY, "--templates", str(folder))
    assert done.returncode == 2 and done.stdout == ""
    assert "其他用户可以写入" in done.stderr and "chmod -R go-w" in done.stderr


@posix
def test_a_link_into_a_folder_others_may_write_to_is_refused(tmp_path):
    """The templates folder is the judge's, but it sits in a shared folder (mode 777, no
    sticky bit) and is reached by a link from his own: anyone could swap it. Only the link's
    own folders were checked, and the templates were used."""
    shared = tmp_path / "shared"
    shared.mkdir()
    folder = judges_templates(shared / "t")
    shared.chmod(0o777)
    link = tmp_path / "mine"
    link.symlink_to(folder, target_is_directory=True)
    done = killmod(tmp_path / "cache", *TALLY, "--templates", str(link))
    assert done.returncode == 2 and done.stdout == ""
    assert f"{shared} 其他用户可以写入" in done.stderr


@posix
def test_the_judges_own_templates_folder_is_used(tmp_path):
    folder = judges_templates(tmp_path / "t")
    done = killmod(tmp_path / "cache", *TALLY, "--templates", str(folder))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "第1轮（自己的模板）\n"
