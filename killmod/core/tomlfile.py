"""TOML files the judge writes (the roster, the rulings), read with Chinese messages.

``tomllib`` keeps no positions, so ``TomlText`` and ``TomlTable`` find a key's line by
scanning the text: every mistake becomes a ``BadInput`` naming the file, the line and
the key at fault.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from killmod.core.errors import BadInput

_HEADER = re.compile(r"^\s*\[\[?([^\[\]#]*)\]\]?\s*(?:#.*)?$")
_SYNTAX = re.compile(r"^(.*) \(at (?:line (\d+), column (\d+)|end of document)\)$")
# tomllib's reasons by how they start; the first that fits wins, so the
# newline case comes before the other illegal characters.
_SYNTAX_REASONS = {
    "Invalid value": "值的写法不对，字符串要加英文双引号",
    "Invalid statement": "无法识别的语句",
    "Expected '=' after a key in a key/value pair": "键后面缺少英文等号 =",
    "Cannot overwrite a value": "同一个键写了两次",
    "Unterminated string": "字符串缺少结尾的引号",
    "Illegal character '\\n'": "字符串到行尾还没结束，缺少结尾的引号",
    "Illegal character": "有不允许的控制字符",
    "Unclosed array": "数组缺少结尾的 ]",
    "Unclosed inline table": "花括号缺少结尾的 }",
    "Expected newline or end of document after a statement": "一行只能写一条语句",
    "Invalid initial character for a key part": "键名里有不允许的字符",
    "Invalid date or datetime": "日期时间的写法不对",
    "Cannot declare": "同一个表写了两次",
    "Duplicate inline table key": "花括号里同一个键写了两次",
}


def read_toml_text(path: Path) -> str:
    """The UTF-8 text of ``path``; any failure is a ``BadInput`` naming it."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BadInput(f"{path}：找不到这个文件") from None
    except IsADirectoryError:
        raise BadInput(f"{path}：这是一个目录，不是文件") from None
    except PermissionError:
        raise BadInput(f"{path}：没有读取权限") from None
    except OSError as exc:
        raise BadInput(f"{path}：无法读取（{exc.strerror}）") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise BadInput(f"{path} 第 {line} 行：不是 UTF-8 编码，请把文件另存为 UTF-8") from None


class TomlText:
    """A TOML document and its file name, able to point at the lines in it."""

    def __init__(self, text: str, source: str) -> None:
        self.source = source
        self.text = text.removeprefix("\ufeff")  # Windows Notepad's UTF-8 mark
        self.lines = self.text.split("\n")
        self.headers = [
            (number, _header_name(match.group(1)))
            for number, line in enumerate(self.lines, start=1)
            if (match := _HEADER.match(line))
        ]

    def parse(self) -> TomlTable:
        """The document's top-level table; bad syntax is a Chinese ``BadInput``."""
        try:
            data = tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            raise self._syntax_error(str(exc)) from None
        return TomlTable(self, data, label="", name="", header=0, fallback=None)

    def error(self, line: int | None, message: str) -> BadInput:
        """A ``BadInput`` that names the file and, when known, the line."""
        where = f"{self.source} 第 {line} 行" if line else self.source
        return BadInput(f"{where}：{message}", line=line)

    def key_line(self, key: str, header: int) -> int | None:
        """The line of ``key = …`` in the table whose header is on line ``header``.

        ``header`` 0 is the top level, the lines before the first header.
        """
        name = re.escape(key)
        pattern = re.compile(rf"""^\s*(?:{name}|"{name}"|'{name}')\s*=""")
        for number in range(header + 1, len(self.lines) + 1):
            line = self.lines[number - 1]
            if _HEADER.match(line):
                return None
            if pattern.match(line):
                return number
        return None

    def header_lines(self, name: str, after: int, parent: str) -> list[int]:
        """Lines of the ``[name]``/``[[name]]`` headers inside a parent table.

        The parent's header is on line ``after`` and its dotted name is
        ``parent`` ("" for the top level, which spans the whole document).
        """
        found = []
        for number, header in self.headers:
            if number <= after:
                continue
            if parent and not header.startswith(f"{parent}."):
                break
            if header == name:
                found.append(number)
        return found

    def _syntax_error(self, message: str) -> BadInput:
        match = _SYNTAX.match(message)
        if match is None:
            return self.error(None, f"TOML 格式错误（{message}）")
        reason = _syntax_reason(match[1])
        if match[2] is None:
            return self.error(len(self.lines), f"TOML 格式错误（文件末尾：{reason}）")
        return self.error(int(match[2]), f"TOML 格式错误（第 {match[3]} 列：{reason}）")


@dataclass(frozen=True)
class TomlTable:
    """One parsed TOML table, with what it takes to blame its keys.

    ``label`` names the table in messages ("" for the top level), ``name`` is
    its dotted TOML name, ``header`` its header line (0 for the top level,
    None for an inline table) and ``fallback`` the line blamed when a key's
    own line cannot be found.
    """

    doc: TomlText
    data: dict[str, Any]
    label: str
    name: str
    header: int | None
    fallback: int | None

    def line(self, key: str) -> int | None:
        """The line where ``key`` is written, or the nearest line known."""
        if self.header is None:
            return self.fallback
        found = self.doc.key_line(key, self.header)
        if found is None:
            tables = self.doc.header_lines(self._dotted(key), self.header, self.name)
            found = tables[0] if tables else None
        return found or self.header or self.fallback

    def child(
        self, key: str, data: dict[str, Any], label: str, index: int, count: int
    ) -> TomlTable:
        """Table ``index`` of the ``count`` tables written under ``key``."""
        dotted = self._dotted(key)
        headers = []
        if self.header is not None:
            headers = self.doc.header_lines(dotted, self.header, self.name)
        header = headers[index] if len(headers) == count else None
        return TomlTable(self.doc, data, label, dotted, header, self.line(key))

    def fail(self, key: str, message: str) -> BadInput:
        """A ``BadInput`` about ``key`` of this table, on the key's line."""
        subject = f"{self.label} 的 {key}" if self.label else key
        return self.doc.error(self.line(key), f"{subject} {message}")

    def check_keys(self, allowed: tuple[str, ...]) -> None:
        """Reject the first key that is not in ``allowed``, suggesting a near one."""
        for key in self.data:
            if key in allowed:
                continue
            where = f"{self.label} 中有未知的键" if self.label else "有未知的顶层键"
            close = difflib.get_close_matches(key, allowed, n=1)
            guess = f"；是不是 {close[0]}？" if close else ""
            raise self.doc.error(
                self.line(key), f"{where} {key}（可用：{'、'.join(allowed)}{guess}）"
            )

    def require(self, *keys: str) -> None:
        """Reject the table when one of ``keys`` is missing."""
        for key in keys:
            if key not in self.data:
                subject = f"{self.label} 缺少" if self.label else "缺少"
                raise self.doc.error(self.line(key), f"{subject} {key}（必填）")

    def typed(self, key: str, kind: type, what: str) -> Any:
        """The value of ``key`` if it is a ``kind`` (a bool is no int), None if absent."""
        value = self.data.get(key)
        if value is None:
            return None
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(key, f"应为{what}，实际是{show(value)}")
        return value

    def integer(self, key: str, maximum: int | None = None) -> int | None:
        """A whole number ≥ 1 (and ≤ ``maximum``), None if absent."""
        what = " ≥ 1 的整数" + (f"（至多 {maximum}）" if maximum is not None else "")
        value = self.typed(key, int, what)
        if value is not None and (value < 1 or (maximum is not None and value > maximum)):
            raise self.fail(key, f"应为{what}，实际是{show(value)}")
        return value

    def string(self, key: str) -> str | None:
        """A non-blank string without surrounding spaces, None if absent."""
        value = self.typed(key, str, "字符串（要加英文双引号）")
        if value is not None:
            self._check_string(key, value)
        return value

    def strings(self, key: str) -> tuple[str, ...]:
        """A list of non-blank strings, empty if absent."""
        values = self.typed(key, list, '字符串数组，如 ["甲", "乙"]') or []
        for value in values:
            if not isinstance(value, str):
                raise self.fail(key, f"的每一项都应为字符串，实际有{show(value)}")
            self._check_string(key, value)
        return tuple(values)

    def _check_string(self, key: str, value: str) -> None:
        if not value.strip():
            raise self.fail(key, "不能是空字符串")
        if value != value.strip():
            raise self.fail(key, f"首尾不能有空格：{show(value)}")

    def _dotted(self, key: str) -> str:
        return f"{self.name}.{key}" if self.name else key


def show(value: object) -> str:
    """``value`` as a message shows it: a scalar in 「」, as TOML writes it."""
    if isinstance(value, list):
        return "一个数组"
    if isinstance(value, dict):
        return "一个表"
    if isinstance(value, bool):
        return "「true」" if value else "「false」"
    return f"「{value}」"


def _syntax_reason(english: str) -> str:
    """tomllib's reason in Chinese when it is a common one, else as it is."""
    for start, chinese in _SYNTAX_REASONS.items():
        if english.startswith(start):
            return chinese
    return english


def _header_name(inner: str) -> str:
    """The dotted name of a table header, without its quotes and spaces."""
    return ".".join(part.strip().strip("\"'") for part in inner.split("."))
