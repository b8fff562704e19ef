"""Turning results into what the judge posts: BBCode, plain text, the audit.

Every sentence comes from a Jinja2 template under ``templates/`` (or the judge's own
folder, ``--templates``); this module only hands them data, and never the game itself.
Templates run in Jinja2's immutable sandbox: no attribute of Python's internals
(``cycler.__init__.__globals__``…), no file, no process; a template that tries is bad
input naming it.  What a template receives is a view built for its audience
(``killmod.announce.audience``) by ``killmod.announce.views`` (the tally's by
``killmod.announce.tallyviews``): a public template (the posts, the status) gets a
``PublicView`` — seats, names, alive or out, the identities the rule set announces, never
a living player's role or a hidden night effect — and a private one (notices, lots, the
night for the judge) a ``PrivateView``.  The JSON document is ``killmod.game.tallyjson``'s
(no Jinja2 for it).
"""

from __future__ import annotations

import logging
import os
from contextlib import suppress
from datetime import datetime
from hashlib import sha1
from pathlib import Path
from types import ModuleType

from jinja2 import (
    ChoiceLoader,
    FileSystemBytecodeCache,
    FileSystemLoader,
    StrictUndefined,
    TemplateError,
    TemplateNotFound,
    TemplateSyntaxError,
)
from jinja2.bccache import Bucket
from jinja2.sandbox import ImmutableSandboxedEnvironment, SecurityError
from platformdirs import user_cache_path

from killmod.announce.audience import PrivateView, PublicView
from killmod.announce.tallyviews import tally_view
from killmod.announce.textwidth import cell, columns
from killmod.core.errors import BadInput
from killmod.core.model import GameOver, Roster, TallyResult
from killmod.core.trust import fix_for, untrusted_file, untrusted_folder

logger = logging.getLogger("killmod.templates")

# The templates whose texts are secret: only ``render_private`` renders them, and no
# text carrying their words may be posted (``private_marks``).
PRIVATE_TEMPLATES = (
    "notice.j2",
    "lottery.private.j2",
    "night.private.j2",
    "night.inbox.private.j2",
    "tally.private.j2",
    "prod.j2",
    "status.private.j2",
)
# What ``--print-secrets`` writes over each secret it prints on stdout (killmod.announce.outputs).
SECRET_HEADER = "不要贴到论坛"
_MARK_LENGTH = 8  # the fewest characters a template's fixed line needs to tell it apart


def environment(templates: Path | None = None) -> ImmutableSandboxedEnvironment:
    """The sandboxed template environment; a judge's folder overrides the bundled templates."""
    loaders = [FileSystemLoader(str(_bundled_templates()))]
    if templates is not None:
        if not templates.is_dir():
            raise BadInput(f"模板文件夹不存在：{templates}")
        _refuse_untrusted(templates, templates)
        loaders.insert(0, _JudgesLoader(templates))
    env = _Sandbox(
        loader=ChoiceLoader(loaders),
        bytecode_cache=_compiled_templates(),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["bb"] = inert_bbcode
    env.filters["columns"] = columns
    env.filters["cell"] = cell
    env.filters["hm"] = month_day_time
    # ``tojson`` shows Chinese as Chinese (``killmod verify`` prints parts of a bundle).
    env.policies["json.dumps_kwargs"] = {"ensure_ascii": False, "sort_keys": True}
    return env


def month_day_time(moment: datetime | None) -> str:
    """A post's moment as the audit and the vote changes list it, ``05-12 21:59:30`` (made
    without ``strftime``, 0.8 µs faster a moment: the announcement of a 30,000-post thread
    lists 30,000), or ``—``."""
    if not moment:
        return "—"
    return "%02d-%02d %02d:%02d:%02d" % (  # noqa: UP031 (twice as fast as an f-string)
        moment.month,
        moment.day,
        moment.hour,
        moment.minute,
        moment.second,
    )


def _bundled_templates() -> Path:
    """The folder of the bundled templates: their package's own folder (a FileSystemLoader
    reads files; ``importlib.resources.files`` would load zipfile and more, ~2.5 ms of a
    start, to name the same folder)."""
    import killmod.templates

    return Path(killmod.templates.__file__).parent


class _Sandbox(ImmutableSandboxedEnvironment):
    """Jinja2's immutable sandbox, deciding once per type and attribute name whether an
    attribute is safe.

    The sandbox asks on every attribute a template reads (``v.floor``): whether the name is
    private or one of Python's internals for that kind of object, and whether it would change
    a list, dict or set (``jinja2.sandbox.is_internal_attribute``, ``modifies_known_mutable``)
    — both questions about the object's type and the name alone, yet asked 235,000 times
    for the announcement of 30,000 ballots (1.6 of its 3 s in a profile).  Each answer is kept
    for the environment's one render; an object whose ``__class__`` is not its type (a proxy)
    is asked every time."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self._safe: dict[tuple[type, str], bool] = {}

    def is_safe_attribute(self, obj: object, attr: str, value: object) -> bool:
        kind = type(obj)
        if obj.__class__ is not kind:
            return super().is_safe_attribute(obj, attr, value)
        safe = self._safe.get((kind, attr))
        if safe is None:
            safe = self._safe[kind, attr] = super().is_safe_attribute(obj, attr, value)
        return safe


class _JudgesLoader(FileSystemLoader):
    """The judge's own templates (``--templates``): each file, and the folders it is in, must
    be his alone (``killmod.core.trust``) — a template another user may change decides
    what is posted in the judge's name."""

    def __init__(self, folder: Path) -> None:
        super().__init__(str(folder))
        self.folder = folder

    def get_source(self, environment, template):
        source, filename, uptodate = super().get_source(environment, template)
        _refuse_untrusted(Path(filename).parent, self.folder)
        problem = untrusted_file(Path(filename), os.stat(filename))
        if problem:
            raise BadInput(
                f"模板 {template} 不用：{problem}。模板决定以你的名义发出的内容，"
                f"只能来自只有你能改的文件。修正：{fix_for(Path(filename))}"
            )
        return source, filename, uptodate


def _refuse_untrusted(folder: Path, templates: Path) -> None:
    """Refuse the judge's templates folder ``templates`` when ``folder`` (it, or one inside
    it) is not his alone, with the fix."""
    found = untrusted_folder(folder)
    if found is None:
        return
    at, problem = found
    fix = fix_for(at) if at.is_relative_to(templates.absolute()) else f"chmod go-w '{at}'"
    raise BadInput(
        f"模板文件夹 {templates} 不用：{problem}。别人能改的模板会以你的名义发帖，"
        f"所以只用只有你能改的文件夹。修正：{fix}（或把模板放到只属于你的文件夹里）"
    )


class _CompiledTemplates(FileSystemBytecodeCache):
    """Jinja's compiled templates kept between commands; a folder that cannot be written
    (a full disk, a read-only home) only means they are compiled again.

    A sandboxed template compiles to other code than a plain one (every call goes
    through the sandbox's check), so the key says the code is the sandbox's: a template
    compiled by another environment under the same name is never loaded.  A compiled
    template is code that runs as the judge: a file in the folder that another user owns
    or may write to is never loaded (compiled again instead).
    """

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        return sha1(f"sandboxed-immutable|{name}|{filename}".encode()).hexdigest()

    def load_bytecode(self, bucket: Bucket) -> None:
        name = Path(self._get_cache_filename(bucket))
        try:
            handle = os.open(name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:  # not there (or a link): compiled again
            return
        with os.fdopen(handle, "rb") as file:
            problem = untrusted_file(name, os.fstat(file.fileno()))
            if problem:
                _warn_once(f"编译好的模板 {name} 不用：{problem}（已重新编译）。修正：rm '{name}'")
                return
            bucket.load_bytecode(file)

    def dump_bytecode(self, bucket: Bucket) -> None:
        with suppress(OSError):
            super().dump_bytecode(bucket)


def _compiled_templates() -> FileSystemBytecodeCache | None:
    """Where compiled templates are kept, in killmod's cache folder: compiling a command's
    templates takes ~40 ms of every start.  Jinja checks each against its source.

    Compiled templates are code that runs: a folder that is not the judge's alone (owned
    by another user, or writable by others — it or a folder above it) is not used, and the
    judge is told once how to fix it.
    """
    folder = user_cache_path("killmod") / "templates"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    found = untrusted_folder(folder)
    if found is not None:
        at, problem = found
        fix = f"mv '{folder}' '{folder}.untrusted'" if at == folder else f"chmod go-w '{at}'"
        _warn_once(
            f"编译好的模板的缓存文件夹不用：{problem}——放在那里的代码会以你的身份运行。"
            f"模板每次重新编译（慢几十毫秒）。修正：{fix}"
        )
        return None
    return _CompiledTemplates(str(folder))


_WARNED: set[str] = set()


def _warn_once(message: str) -> None:
    """Tell the judge (stderr) once per command, however many templates it renders."""
    if message not in _WARNED:
        _WARNED.add(message)
        logger.warning(message)


def inert_bbcode(text: object) -> str:
    """Text placed in a BBCode post so that no tag in it is read as markup.

    Discuz has no escape for ``[``; an empty ``[i][/i]`` after each bracket
    breaks every tag while the reader still sees the same characters.
    """
    return str(text).replace("[", "[[i][/i]")


def render_public(name: str, templates: Path | None, view: PublicView) -> str:
    """Render the public template ``name`` (a post, the status) with its public view."""
    if not isinstance(view, PublicView):
        raise TypeError(f"{name} is public: it takes a PublicView, not {type(view).__name__}")
    return _render(name, templates, view.values)


def render_private(name: str, templates: Path | None, view: PrivateView) -> str:
    """Render the private template ``name`` (a notice, the lots, the judge's night)."""
    if name not in PRIVATE_TEMPLATES:
        raise TypeError(f"{name} is not listed in PRIVATE_TEMPLATES")
    if not isinstance(view, PrivateView):
        raise TypeError(f"{name} is private: it takes a PrivateView, not {type(view).__name__}")
    return _render(name, templates, view.values)


def private_marks(templates: Path | None = None) -> tuple[str, ...]:
    """The fixed lines of the private templates (the judge's own too): text that only a
    secret carries, so that a post holding one is refused (``killmod.board.posting``).

    A fixed line is a template's literal text between its tags, at least
    ``_MARK_LENGTH`` characters long without its spaces.
    """
    env = environment(templates)
    marks = {SECRET_HEADER}
    for name in PRIVATE_TEMPLATES:
        try:
            source, _, _ = env.loader.get_source(env, name)
        except TemplateNotFound:
            continue
        for _, token, value in env.lex(source):
            if token != "data":
                continue
            for line in value.splitlines():
                if len("".join(line.split())) >= _MARK_LENGTH:
                    marks.add(line.strip())
    return tuple(sorted(marks))


def _render(name: str, templates: Path | None, values: dict) -> str:
    """Render ``name``; a template that fails or breaks the sandbox is bad input naming it."""
    try:
        return environment(templates).get_template(name).render(**values)
    except SecurityError as error:
        raise BadInput(
            f"{_at_fault(error, name)}试图访问不允许的内容（{error}）：模板在沙盒中运行，"
            "不能读取 Python 内部的属性、文件，也不能运行程序。"
        ) from None
    except TemplateNotFound as error:
        raise BadInput(f"模板 {name} 出错：找不到模板 {error.name}") from None
    except TemplateSyntaxError as error:
        where = f"{error.filename or error.name} 第 {error.lineno} 行"
        raise BadInput(
            f"模板 {error.name or name} 出错（{where}）：语法错误：{error.message}"
        ) from None
    except TemplateError as error:
        raise BadInput(f"{_at_fault(error, name)}{error}") from None
    except Exception as error:  # a judge's template may divide by zero, add "a" to 1 …
        raise BadInput(f"{_at_fault(error, name)}{type(error).__name__}：{error}") from None


def _at_fault(error: BaseException, name: str) -> str:
    """“模板 X 出错（file 第 N 行）：” for the template the error came from.

    Jinja rewrites a rendering error's traceback so that template frames carry the
    template's file and line: the innermost one is named (an included template, not the
    one asked for).
    """
    found = None
    trace = error.__traceback__
    while trace is not None:
        if trace.tb_frame.f_code.co_filename.endswith(".j2"):
            found = (trace.tb_frame.f_code.co_filename, trace.tb_lineno)
        trace = trace.tb_next
    if found is None:
        return f"模板 {name} 出错："
    return f"模板 {Path(found[0]).name} 出错（{found[0]} 第 {found[1]} 行）："


def render_tally(
    result: TallyResult, fmt: str, rules: ModuleType, templates: Path | None = None
) -> str:
    """The announcement (``bbcode``/``text``) or the per-post audit (``audit``): public."""
    return render_public(f"tally.{fmt}.j2", templates, tally_view(result, rules))


def render_game_over(winner: GameOver, roster: Roster, templates: Path | None = None) -> str:
    """The game-over post (揭秘): public once the game is over, every role revealed."""
    from killmod.announce.views import gameover_view

    return render_public("gameover.bbcode.j2", templates, gameover_view(winner, roster))
