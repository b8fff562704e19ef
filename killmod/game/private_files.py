"""Writing what only the judge (or one player) may read: notices, lots, judge's notes.

A private file is written whole under a temporary name in its folder, then put in
place under its own name without replacing anything: a file or a symlink already
there (a planted link in a shared folder, last game's notice) is an error naming
it, never followed and never overwritten.  Files are created readable by their
owner only (0600; on Windows the folder's permissions are what protect them).
Several files are placed all or none, so a step that hands out notices either
hands out every one or none.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable, Mapping
from contextlib import suppress
from pathlib import Path

from killmod.core.errors import BadInput

# O_NOFOLLOW is POSIX only; O_EXCL alone already refuses to open through a link.
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def write_private_files(folder: Path, texts: Mapping[str, str]) -> list[Path]:
    """Write each ``name: text`` of ``texts`` as a new file in ``folder``: all or none.

    The folder is made (0700) when missing.  A name already taken in the folder is
    a ``BadInput`` naming it, and then no file of ``texts`` is left behind.
    """
    _make_folder(folder)
    targets = [folder / name for name in texts]
    refuse_taken(folder, texts)
    staged: list[tuple[Path, Path]] = []
    placed: list[Path] = []
    try:
        for target, text in zip(targets, texts.values(), strict=True):
            staged.append((_stage(folder, text), target))
        for temporary, target in staged:
            _place(temporary, target)
            placed.append(target)
    except BaseException:
        for target in placed:
            _remove(target)
        raise
    finally:
        for temporary, _ in staged:
            _remove(temporary)
    return targets


def refuse_taken(folder: Path, names: Iterable[str]) -> None:
    """A ``BadInput`` naming the first of ``names`` already taken in ``folder`` (a file or a
    symlink), so that a step can refuse before it records anything."""
    for name in names:
        target = folder / name
        if os.path.lexists(target):
            raise BadInput(_taken(target))


def _make_folder(folder: Path) -> None:
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except FileExistsError:
        raise BadInput(f"无法建立文件夹：{folder}（同名的文件已存在）") from None
    except OSError as error:
        raise BadInput(f"无法建立文件夹：{folder}（{error.strerror}）") from None
    if not folder.is_dir():
        raise BadInput(f"不是文件夹：{folder}")


def _stage(folder: Path, text: str) -> Path:
    """``text`` written and flushed to disk under a new temporary name in ``folder``."""
    temporary = folder / f".killmod-{secrets.token_hex(8)}.tmp"
    try:
        descriptor = os.open(temporary, _CREATE, 0o600)
    except OSError as error:
        raise BadInput(f"无法在 {folder} 里写文件（{error.strerror}）") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
    except OSError as error:
        _remove(temporary)
        raise BadInput(f"无法在 {folder} 里写文件（{error.strerror}）") from None
    return temporary


def _place(temporary: Path, target: Path) -> None:
    """Give the staged file its name; a name already taken is refused, never replaced.

    ``os.link`` fails when the new name exists (a symlink included, which it does not
    follow); on Windows ``os.rename`` does the same (it never replaces there).
    """
    try:
        if os.name == "nt":
            os.rename(temporary, target)
        else:
            os.link(temporary, target)
    except FileExistsError:
        raise BadInput(_taken(target)) from None
    except OSError as error:
        raise BadInput(f"无法写入文件：{target}（{error.strerror}）") from None


def _taken(target: Path) -> str:
    kind = "符号链接" if target.is_symlink() else "文件"
    return f"{target} 已经存在（{kind}），killmod 不会覆盖或跟随它：请换一个文件夹，或先移走它。"


def _remove(path: Path) -> None:
    with suppress(FileNotFoundError):
        os.unlink(path)
