"""Whether a folder holds only what the judge (or the system) put there.

Compiled templates are code that runs as the judge, and a judge's templates decide what
is posted: a folder another user owns, or may write to, could hand killmod anyone's code
or words.  A folder is the judge's when it and every folder above it are owned by the
judge or by root, and none can be written by the group or others — except a folder above
it with the sticky bit (``/tmp``), where nobody may rename or remove another's entries.
A link is followed, and the folders above where it leads count as well: a link into a
folder others may write to could be swapped under the judge.
The same rule holds for a file: owned by the judge or root, written by nobody else.

On Windows there are no POSIX owners or modes: every folder passes.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_OTHERS_WRITE = stat.S_IWGRP | stat.S_IWOTH


def untrusted_folder(folder: Path) -> tuple[Path, str] | None:
    """The folder at fault (``folder`` or one above it) and why ``folder`` (which exists) is
    not the judge's alone, in Chinese; None when it is."""
    if os.name == "nt":
        return None
    me = os.getuid()
    path = Path(os.path.abspath(folder))
    real = Path(os.path.realpath(folder))  # a link's target: its folders above count too
    for at in dict.fromkeys((path, *path.parents, real, *real.parents)):
        try:
            found = os.lstat(at)
        except OSError as error:
            return at, f"{at} 无法检查（{error.strerror}）"
        if stat.S_ISLNK(found.st_mode):
            found = os.stat(at)  # a link is followed: what it points to must be the judge's
        problem = _problem(at, found, me, sticky_ok=at not in (path, real))
        if problem:
            return at, problem
    return None


def untrusted_file(path: Path, found: os.stat_result) -> str | None:
    """Why the file ``path`` (``found`` is its ``fstat``) is not the judge's alone; None when
    it is."""
    if os.name == "nt":
        return None
    return _problem(path, found, os.getuid(), sticky_ok=False)


def _problem(path: Path, found: os.stat_result, me: int, *, sticky_ok: bool) -> str | None:
    if found.st_uid not in (me, 0):
        return f"{path} 属于另一个用户（uid {found.st_uid}），不是你的（uid {me}）"
    if found.st_mode & _OTHERS_WRITE and not (sticky_ok and found.st_mode & stat.S_ISVTX):
        mode = stat.S_IMODE(found.st_mode)
        return f"{path} 其他用户可以写入（权限 {mode:o}）"
    return None


def fix_for(folder: Path) -> str:
    """How the judge makes ``folder`` his alone (a POSIX shell's commands; ``chown`` to him
    needs root when another user owns it)."""
    return f"chown -R {os.getuid()} '{folder}' && chmod -R go-w '{folder}'"
