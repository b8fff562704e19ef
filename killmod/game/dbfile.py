"""The game file as the operating system and SQLite see it: its path, its connection, and
the Chinese message for each way they refuse it.

The file uses SQLite's rollback journal (``journal_mode=DELETE``), not WAL: a committed
step is in the ``.db`` file itself the moment ``COMMIT`` returns, whether or not the
process closes the database afterwards, so a judge who copies, mails or syncs the one
file has the whole game.  (With WAL the step would sit in ``killmod.db-wal`` until a
checkpoint.)  The journal exists only while a step is being written, next to the file.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from killmod.core.errors import BadInput, KillmodError

BUSY_SECONDS = 10  # how long to wait for another killmod writing the same file
BUSY_ENV = "KILLMOD_BUSY_SECONDS"  # overrides BUSY_SECONDS (the tests wait less)
# What SQLite keeps next to a game file while (or after) writing it.
COMPANIONS = ("-journal", "-wal", "-shm")


class GameLocked(KillmodError):
    """Another killmod process is writing the same game file."""


def busy_seconds() -> float:
    """How long to wait for a lock: ``KILLMOD_BUSY_SECONDS`` when set, else ``BUSY_SECONDS``."""
    try:
        return max(0.0, float(os.environ.get(BUSY_ENV, BUSY_SECONDS)))
    except ValueError:
        return BUSY_SECONDS


def connect(path: Path) -> sqlite3.Connection:
    """A connection in autocommit mode (steps say ``BEGIN IMMEDIATE`` themselves)."""
    return sqlite3.connect(str(path), timeout=busy_seconds(), isolation_level=None)


def check_existing(path: Path) -> None:
    """An existing game file: not missing, not a dangling symlink, not a folder."""
    if path.is_symlink() and not path.exists():
        raise BadInput(
            f"游戏文件 {path} 是一个符号链接，指向的 {os.readlink(path)} 不存在："
            "改正链接，或用 --db 指向真正的游戏文件。"
        )
    if path.is_dir():
        raise BadInput(f"{path} 是一个文件夹，不是游戏文件：用 --db 指向游戏文件。")
    if not path.exists():
        raise BadInput(f"找不到游戏文件：{path}（先用 killmod init 建立）")


def check_new(path: Path, *, force: bool) -> None:
    """A place for a new game file: nothing there (or ``force``), never through a symlink."""
    if path.is_symlink():
        raise BadInput(
            f"{path} 是一个符号链接：killmod init 不会跟随符号链接建立或覆盖游戏文件，"
            "请用 --db 给出真正的路径。"
        )
    if path.is_dir():
        raise BadInput(f"{path} 是一个文件夹：用 --db 给出游戏文件的路径。")
    if path.exists() and not force:
        raise BadInput(f"游戏文件已存在：{path}（要重新开始请加 --force）")


def remove_with_companions(path: Path) -> None:
    """Remove an old game file and what SQLite left beside it (a stale journal would
    otherwise be played back into the new file)."""
    for name in (str(path), *(f"{path}{suffix}" for suffix in COMPANIONS)):
        try:
            os.unlink(name)
        except FileNotFoundError:
            continue
        except OSError as error:
            raise BadInput(f"无法删除旧的游戏文件：{name}（{error.strerror}）") from None


def unwritable(path: Path) -> str | None:
    """Why a step could not be written to ``path`` (file or folder read-only), or None."""
    folder = path.resolve().parent
    if not os.access(path, os.W_OK):
        return (
            f"游戏文件是只读的：{path}。本步没有记录；要记录请先让它可写（如 chmod u+w {path}）。"
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"游戏文件所在的文件夹不可写：{folder}（写入时 SQLite 要在旁边建立日志文件）。"
            f"本步没有记录：把游戏文件 {path} 放到可写的文件夹，或让文件夹可写。"
        )
    return None


def refusal(path: Path, error: sqlite3.Error, *, writing: bool = False) -> KillmodError:
    """The Chinese message for an error SQLite gave on ``path``.

    ``writing``: the error came while a step was written, so the message says that
    nothing was recorded.
    """
    name = getattr(error, "sqlite_errorname", "") or ""
    text = str(error)
    nothing = "本步没有记录。" if writing else ""
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        return GameLocked(
            f"游戏文件正被另一个 killmod 使用，等了 {busy_seconds():g} 秒仍未释放：{path}。"
            f"{nothing}等它（或正在读这个文件的其他程序，如 sqlite3、Datasette）结束后再试。"
        )
    if name.startswith("SQLITE_READONLY"):
        return BadInput(unwritable(path) or f"游戏文件不能写入：{path}（只读）。{nothing}")
    if name.startswith("SQLITE_FULL"):
        return BadInput(f"磁盘已满，写不进游戏文件：{path}。{nothing}腾出空间后再试。")
    if name.startswith("SQLITE_IOERR"):
        return BadInput(
            f"读写游戏文件出错：{path}（{text}：磁盘满了、拔掉了或坏了？）。{nothing}"
            "游戏文件保持原样；处理好磁盘后再试。"
        )
    if name.startswith("SQLITE_CANTOPEN"):
        return BadInput(
            unwritable(path)
            or f"无法打开游戏文件：{path}（{text}）。{nothing}检查文件和所在文件夹的权限。"
        )
    if name.startswith("SQLITE_NOTADB"):
        return BadInput(f"不是 killmod 的游戏文件（也不是 SQLite 数据库）：{path}")
    if name.startswith("SQLITE_CORRUPT") or "malformed" in text:
        return corrupted(path, text)
    return BadInput(f"游戏文件出错：{path}（{text}）。{nothing}")


def corrupted(path: Path, detail: str) -> BadInput:
    """The message for a damaged game file: never write to it, use the backup."""
    return BadInput(
        f"游戏文件已损坏：{path}（SQLite：{detail}）。killmod 不会再写它：请换用备份的副本"
        f"（用 --db 指向它），或先复制一份，再试 sqlite3 {path} .recover 救出数据。"
    )
