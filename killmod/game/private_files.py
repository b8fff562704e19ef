"""Writing what only the judge (or one player) may read: notices, lots, judge's notes.

A private file is written whole under a temporary name in its folder, then put in
place under its own name without replacing anything: a file or a symlink already
there (a planted link in a shared folder, last game's notice) is an error naming
it, never followed and never overwritten.  Files are created readable by their
owner only (0600; on Windows the folder's permissions are what protect them).
Several files are placed all or none, so a step that hands out notices either
hands out every one or none.

The files a step writes are named in the step (``killmod.game.store``); undoing the step
moves them aside (``MoveAside``) into ``void/step<N>/`` in their folder, so that the
private folder holds the standing game's files under their natural names, and what was
voided stays readable.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

import click

from killmod.core.errors import BadInput

VOID = "void"

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


@dataclass
class MoveAside:
    """The private files of an undone step moved into ``void/step<N>/`` beside them: a
    delivery of the undo step (moved before it is committed, moved back if it is not)."""

    paths: list[Path]
    step: int
    moved: list[tuple[Path, Path]] = field(default_factory=list)
    missing: list[Path] = field(default_factory=list)

    def aside(self, path: Path) -> Path:
        """Where ``path`` goes: ``void/step<N>/`` in its own folder."""
        return path.parent / VOID / f"step{self.step}" / path.name

    def write(self) -> None:
        """Move each file that is still there; a name taken in the void folder is refused."""
        try:
            for path in self.paths:
                if not os.path.lexists(path):
                    self.missing.append(path)
                    continue
                target = self.aside(path)
                _make_folder(target.parent)
                _move(path, target)
                self.moved.append((path, target))
        except BaseException:
            self.retract()
            raise

    def retract(self) -> None:
        """Put the files moved back under their names (the undo was not recorded)."""
        for path, target in reversed(self.moved):
            with suppress(OSError):
                _move(target, path)
        self.moved = []

    def announce(self) -> None:
        """Where the voided files went, on stderr."""
        if self.moved:
            folder = self.moved[0][1].parent
            click.echo(f"作废的私密文件（{len(self.moved)} 个）移到了 {folder}。", err=True)
        if self.missing:
            names = "、".join(str(path) for path in self.missing)
            click.echo(f"这一步写过的私密文件已经不在：{names}。", err=True)

    def files(self) -> list[Path]:
        """No new private file: these were written by the undone step."""
        return []


def _move(source: Path, target: Path) -> None:
    """Rename ``source`` to ``target``, never over a file there."""
    try:
        if os.name == "nt":
            os.rename(source, target)
        else:
            os.link(source, target, follow_symlinks=False)
            os.unlink(source)
    except FileExistsError:
        raise BadInput(_taken(target)) from None
    except OSError as error:
        raise BadInput(f"无法移动文件：{source} → {target}（{error.strerror}）") from None
