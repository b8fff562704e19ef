"""Where a command's outputs go: one screen, one audience.

- **stdout** carries the public post only, ready to paste: nothing else is printed there.
- **Secrets** (a player's role notice, the police's answer, the night explained to the
  judge, the lots and the salt) are written as new private files (``private_files``) in
  the game's private folder — ``<game file>-private/`` beside the game file (``killmod.db``
  → ``killmod-private/``), or ``--private DIR`` — and stderr says which files.
- **Notes for the judge** that are no secret (times to the minute, a ballot that looks
  like a slip of the pen, what was recorded) go to stderr.
- ``--print-secrets`` prints the secrets on stdout instead of writing them, after the
  public post and each under a header: the option says what it does.

Every command that hands out secrets takes its options from :func:`private_options` and
hands them out through :class:`Outputs`, so the folder and the options are the same for
all of them.
"""

from __future__ import annotations

import functools
import os
import stat
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import click

from killmod.core.errors import BadInput

if TYPE_CHECKING:
    from killmod.game.delivery import Handout
    from killmod.game.store import Event, Game

PRINT_SECRETS = "--print-secrets"


def default_private_dir(db_path: Path) -> Path:
    """The private folder of the game file ``db_path``: ``<name>-private`` beside it."""
    return db_path.parent / f"{db_path.stem}-private"


def step_file(game: Game, stem: str, kind: str, same: Callable[[Event], bool]) -> str:
    """The file name of the secrets of a step about to be recorded: ``stem.txt``.

    The name is the step's, never the folder's: a step recorded again (a night with
    ``--replace``, lots made again after their tie was re-recorded) is ``stem-2.txt``,
    ``stem-3.txt``…, counting this game's earlier ``kind`` events that are ``same``
    (voided ones too, but not those of a step undone, whose files ``undo`` moved aside);
    the second game of a file prefixes ``game2-``.  So a file already there under that
    name is never last time's: it is an error (``refuse_taken``).
    """
    aside = {event.data["step"] for event in game.events("undone") if event.data.get("moved")}
    earlier = sum(
        1
        for event in game.events(kind, include_void=True)
        if same(event) and event.step not in aside
    )
    name = stem if earlier == 0 else f"{stem}-{earlier + 1}"
    number = len(game.previous_games()) + 1
    return f"{name}.txt" if number == 1 else f"game{number}-{name}.txt"


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SQLITE_MAGIC = b"SQLite format 3\x00"


def refuse_output_path(
    path: Path, *, game_file: Path | None, private_dir: Path | None, kind: str, magic: bytes
) -> None:
    """An output file (``kind`` names it, ``magic`` is how such a file begins) is never
    written over the game file, into the private folder, or over an existing file of
    anything else; one of its own kind is replaced (the command writes it again)."""
    target = Path(os.path.abspath(path))
    if game_file is not None and _same_file(target, game_file):
        raise BadInput(f"{path} 是游戏文件，不能用来写{kind}：换一个文件名（游戏文件没有改动）。")
    if private_dir is not None:
        folder = Path(os.path.abspath(private_dir))
        if target == folder or folder in target.parents:
            raise BadInput(
                f"{path} 在私密文件夹 {private_dir} 里：{kind}是要公开的，"
                "不能写进只有法官能读的文件夹。换一个位置。"
            )
    if target.is_dir():
        raise BadInput(f"{path} 是文件夹：请给出{kind}的文件名。")
    if os.path.lexists(target):
        if target.is_symlink():
            raise BadInput(f"{path} 是符号链接：killmod 不会跟随它写{kind}。换一个文件名。")
        with open(target, "rb") as existing:
            start = existing.read(len(magic))
        if start != magic:
            raise BadInput(
                f"{path} 已经存在，不是{kind}：killmod 不会覆盖它。换一个文件名，或先移走它。"
            )


def write_whole(
    path: Path,
    write: Callable[[BinaryIO], None],
    *,
    kind: str,
    suffix: str,
    mode: int | None = None,
) -> None:
    """``write`` a file (``kind`` names it to the judge) into a temporary file beside
    ``path``, then move it into place: a failed write leaves none; ``mode`` its permissions
    (default: the temporary file's 0600)."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=".killmod-", suffix=suffix, dir=folder)
    except OSError as error:
        raise BadInput(f"无法在 {folder} 写{kind}（{error.strerror}）。") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            write(stream)
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, path)
    except OSError as error:
        os.unlink(temporary)
        raise BadInput(f"无法写{kind} {path}（{error.strerror}）。") from None
    except BaseException:
        os.unlink(temporary)
        raise


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return Path(os.path.abspath(other)) == one


def post(text: str) -> None:
    """The public post on stdout (its last line break is the template's own)."""
    click.echo(text, nl=False)


def note(text: str) -> None:
    """A note for the judge on stderr: nothing secret."""
    click.echo(text.rstrip("\n"), err=True)


@dataclass(frozen=True)
class Outputs:
    """Where this command's secrets go: the private folder, or stdout when asked."""

    private_dir: Path
    print_secrets: bool = False

    def refuse_taken(self, names: Iterable[str]) -> None:
        """Refuse, before anything is recorded, when a private file's name is taken."""
        if not self.print_secrets:
            from killmod.game.private_files import refuse_taken

            refuse_taken(self.private_dir, names)

    def free_name(self, stem: str) -> str:
        """``stem.txt``, or ``stem-2.txt``… — the first name not taken in the private folder
        (for what is written again, never over what was written)."""
        name, number = f"{stem}.txt", 1
        while os.path.lexists(self.private_dir / name):
            number += 1
            name = f"{stem}-{number}.txt"
        return name

    def handout(self, public: str, texts: Mapping[str, str], what: str) -> Handout:
        """The public post and the secrets of a step being recorded, as ``Step.deliver``
        writes them before the step is committed: the private files first, then the post
        (with ``--print-secrets``: the post, then the secrets after it); the line naming
        the files comes once the step is in the game file."""
        from killmod.game.delivery import Handout

        texts = {name: text for name, text in texts.items() if text.strip()}
        if self.print_secrets:
            secrets_text = "".join(
                f"\n—— 保密：{name}（不要贴到论坛）——\n{text.rstrip(chr(10))}\n"
                for name, text in texts.items()
            )
            return Handout(public=public + secrets_text)
        handout = Handout(public=public)
        for name, text in texts.items():
            handout.add_private(self.private_dir / name, text)
        if texts:
            handout.notes.append(f"{what}写在 {self._where(list(texts))}，只有你能读。")
            handout.later.append(lambda: _warn_if_open(self.private_dir))
        return handout

    def _where(self, names: list[str]) -> str:
        if len(names) == 1:
            return str(self.private_dir / names[0])
        return f"{self.private_dir}{os.sep}（{len(names)} 个文件）"

    def hand_out(self, public: str, texts: Mapping[str, str], what: str) -> list[Path]:
        """The public post and the secrets of one step: the private files are written
        first, then the post is printed; with ``--print-secrets`` the post comes first and
        the secrets after it."""
        if self.print_secrets:
            post(public)
            return self.secrets(texts, what)
        paths = self.secrets(texts, what)
        post(public)
        return paths

    def secrets(self, texts: Mapping[str, str], what: str) -> list[Path]:
        """Hand out ``texts`` (file name → text): new private files, all or none, and a
        line on stderr naming them (``what`` says what they are); or, with
        ``--print-secrets``, printed on stdout under a header each."""
        texts = {name: text for name, text in texts.items() if text.strip()}
        if not texts:
            return []
        if self.print_secrets:
            for name, text in texts.items():
                click.echo(f"\n—— 保密：{name}（不要贴到论坛）——")
                click.echo(text.rstrip("\n"))
            return []
        from killmod.game.private_files import write_private_files

        paths = write_private_files(self.private_dir, texts)
        note(f"{what}写在 {self._where(list(texts))}，只有你能读。")
        _warn_if_open(self.private_dir)
        return paths


def _warn_if_open(folder: Path) -> None:
    """A note when others may enter the private folder (POSIX permissions only)."""
    if os.name == "nt":
        return
    mode = stat.S_IMODE(folder.stat().st_mode)
    if mode & 0o077:
        note(
            f"注意：文件夹 {folder} 其他用户也能打开（权限 {mode:04o}）："
            f"请改为只有你能访问（chmod 700 {folder}）。"
        )


def private_options(*aliases: str) -> Callable:
    """``--private DIR`` (also spelled ``aliases``) and ``--print-secrets``; the command
    receives ``outputs``, an :class:`Outputs` (its folder by default beside ``--db``)."""

    def decorate(command: Callable) -> Callable:
        @functools.wraps(command)
        def with_outputs(*args, private_dir, print_secrets, **kwargs):
            folder = private_dir or default_private_dir(kwargs["db_path"])
            return command(*args, outputs=Outputs(folder, print_secrets), **kwargs)

        with_outputs = click.option(
            PRINT_SECRETS,
            "print_secrets",
            is_flag=True,
            help="危险：不写私密文件，把保密内容（身份、验人结果、签位……）打印到屏幕上",
        )(with_outputs)
        return click.option(
            "--private",
            *aliases,
            "private_dir",
            type=click.Path(path_type=Path),
            metavar="文件夹",
            help="保密内容写进这个文件夹（只有你能读；默认：游戏文件旁的 <游戏文件名>-private）",
        )(with_outputs)

    return decorate
