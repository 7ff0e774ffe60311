# SPDX-License-Identifier: Apache-2.0
"""Every error message the C++ runtime, the C++ headers and the C helpers raise has one form.

The form is ``api: what is wrong; expected x, got y``: first the name of what the user called
(a C++ ``Class::Method``, a global function such as ``ffi.Array.get``, a C ABI function such as
``TVMFFIFunctionCall``, or a Python-level name such as ``Map.__getitem__``), optionally with
``()``, then ``: `` and a clause that does not start with a capital letter and does not end in
a period, e.g. ``ffi.ContainerFindFirstNonCPUDevice(): expected 1 argument, got 2``. A text
streamed after a check macro (``TVM_FFI_ICHECK(c) << "..."``) follows the macro's own
``Check failed: (c) is false: ``, so it may also be the clause alone; so may the rest of a
throw that spells that opening out. Texts that Apache TVM FFI 0.1.15.post2 (or CPython) raises
word for word are kept and listed in ``apache_cpp_messages.txt`` (``file | prefix | why``).

Extraction (no compile; a small tokenizer over the sources with comments removed):

* ``TVM_FFI_THROW(Kind)``, ``TVM_FFI_LOG_AND_THROW(Kind)``, ``TVM_FFI_VISIT_THROW(Kind, node)``
  and the check macros ``TVM_FFI_[I|D]CHECK*(...)``, followed by ``<< a << b ...;``: the
  operands of the ``<<`` chain in order, adjacent string literals joined, every operand that is
  not only string literals written ``{}`` (``std::string("...")`` counts as its literal); a
  check macro with no streamed text is skipped.
* ``Error("Kind", message, ...)`` and ``TVMFFIErrorSetRaisedFromCStr("Kind", message)``: the
  message argument read the same way with ``+`` as the separator; a message with no literal in
  it (a forwarded text) is skipped.
* ``PyErr_SetString(exc, "...")`` and ``PyErr_Format(exc, "...", ...)`` in
  ``python/tvm_ffi/cython/*.h``: the literal, each ``%`` conversion written ``{}``.
* ``throw std::<name>("...")``: the literal.
* Macro definitions and empty messages (``EnvErrorAlreadySet``) are skipped. A text handed to a
  helper that throws it (a parser's ``Fail("...")``) is checked where the helper throws, as
  ``{}``; its wording is not scanned.

The test fails with ``file:line`` for a message that has neither the form nor a pinned prefix,
and for a pinned line that matches no scanned message.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest
from pinned_messages import read_pinned

REPO_ROOT = Path(__file__).resolve().parents[2]
PINNED_FILE = Path(__file__).with_name("apache_cpp_messages.txt")
SCANNED = (
    [REPO_ROOT / "src", REPO_ROOT / "include"],
    [REPO_ROOT / "python" / "tvm_ffi" / "cython"],
)

# ``api: `` or ``api(): `` then a clause that does not start with a capital letter and does not
# end in '.'. An api is a dotted or ``::`` path of names (``{}`` may stand for one part).
_NAME = r"(?:[A-Za-z_~][\w]*|\{\})"
_API = rf"{_NAME}(?:(?:\.|::){_NAME})*(?:<[^<>:]*>)?(?:\(\))?"
FORM = re.compile(rf"^{_API}: (?![A-Z])\S(?:.|\n)*(?<!\.)$")
# The clause streamed after a check macro's own text.
CHECK_CLAUSE = re.compile(r"^(?![A-Z])\S(?:.|\n)*(?<!\.)$")
# A throw that spells out a check macro's own text; what follows it is a check's clause.
CHECK_PREFIX = re.compile(r"^Check failed: \(.*?\) is false: ")

_TOKEN = re.compile(
    r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>(?:u8|u|U|L)?R"(?P<delim>[^(\s]*)\((?:.|\n)*?\)(?P=delim)"
      |(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*")
  | (?P<char>'(?:[^'\\\n]|\\.)*')
  | (?P<word>[A-Za-z_]\w*(?:::[A-Za-z_~]\w*)*)
  | (?P<op><<|::|->|[(){}\[\];,+])
  | (?P<space>\s+)
  | (?P<other>.)
    """,
    re.X | re.S,
)
_THROW_MACROS = {"TVM_FFI_THROW", "TVM_FFI_LOG_AND_THROW", "TVM_FFI_VISIT_THROW"}
_CHECK_MACRO = re.compile(r"^TVM_FFI_[ID]?CHECK(?:_(?:LT|GT|LE|GE|EQ|NE|NOTNULL))?$")
_ERROR_CALLS = {"Error", "TVMFFIErrorSetRaisedFromCStr", "::tvm::ffi::Error", "ffi::Error"}
_PYERR_CALLS = {"PyErr_SetString", "PyErr_Format"}
_PRINTF_CONVERSION = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t)?[diouxXcsp%]")


def _tokens(source: str) -> list[tuple[str, str, int]]:
    """(kind, text, line) of each token that is not a comment or white space."""
    out = []
    line = 1
    for match in _TOKEN.finditer(source):
        kind = match.lastgroup if match.lastgroup != "delim" else "string"
        if kind not in ("comment", "space"):
            out.append((kind, match.group(), line))
        line += match.group().count("\n")
    return out


def _literal_text(token: str) -> str:
    """The characters a C++ string literal holds (escapes decoded as Python would)."""
    body = re.sub(r"^(?:u8|u|U|L)", "", token)
    raw = re.match(r'R"([^(\s]*)\((.*)\)\1"$', body, re.S)
    if raw:
        return raw.group(2)
    return ast.literal_eval(body)


def _unwrap_string_call(operand: list[tuple[str, str, int]]) -> list[tuple[str, str, int]]:
    """The literals of ``std::string("...")``; any other operand unchanged."""
    texts = [text for _, text, _ in operand]
    if len(texts) >= 4 and texts[0] == "std::string" and texts[1] == "(" and texts[-1] == ")":
        inner = operand[2:-1]
        if all(kind == "string" for kind, _, _ in inner):
            return inner
    return operand


def _template(operands: list[list[tuple[str, str, int]]]) -> str | None:
    """The message of operands: literal-only operands joined, every other one ``{}``."""
    parts = []
    has_literal = False
    for operand in operands:
        operand = _unwrap_string_call(operand)
        if operand and all(kind == "string" for kind, _, _ in operand):
            parts.append("".join(_literal_text(text) for _, text, _ in operand))
            has_literal = True
        elif operand:
            parts.append("{}")
    return "".join(parts) if has_literal else None


def _split(tokens: list[tuple[str, str, int]], separator: str, stop: set[str]):
    """Split tokens at separator (outside brackets) until a stop token; (operands, end index)."""
    operands: list[list[tuple[str, str, int]]] = [[]]
    depth = 0
    for index, token in enumerate(tokens):
        text = token[1]
        if depth == 0 and text in stop:
            return operands, index
        if text in "([{":
            depth += 1
        elif text in ")]}":
            if depth == 0:
                return operands, index
            depth -= 1
        if depth == 0 and text == separator:
            operands.append([])
        else:
            operands[-1].append(token)
    return operands, len(tokens)


def _closing(tokens: list[tuple[str, str, int]], start: int) -> int:
    """Index of the ``)`` that closes the ``(`` at start."""
    depth = 0
    for index in range(start, len(tokens)):
        if tokens[index][1] == "(":
            depth += 1
        elif tokens[index][1] == ")":
            depth -= 1
            if depth == 0:
                return index
    return len(tokens) - 1


def _cpp_messages(source: str, pyerr: bool) -> list[tuple[int, str, str]]:
    """(line, origin, message) of every error message found in one C/C++ source."""
    tokens = _tokens(source)
    found = []
    for index, (kind, text, line) in enumerate(tokens):
        if kind != "word" or index + 1 >= len(tokens) or tokens[index + 1][1] != "(":
            continue
        if index > 0 and tokens[index - 1][1] == "define":
            continue
        end = _closing(tokens, index + 1)
        if text in _THROW_MACROS or _CHECK_MACRO.match(text):
            rest = tokens[end + 1 :]
            if not rest or rest[0][1] != "<<":
                continue
            operands, _ = _split(rest[1:], "<<", {";"})
            message = _template(operands)
            origin = "throw" if text in _THROW_MACROS else "check"
        elif text in _ERROR_CALLS or (pyerr and text in _PYERR_CALLS):
            arguments, _ = _split(tokens[index + 2 : end], ",", set())
            if len(arguments) < 2:
                continue
            message = _template(_split(arguments[1], "+", set())[0])
            if message is not None and text == "PyErr_Format":
                message = _PRINTF_CONVERSION.sub("{}", message)
            origin = "error"
        elif text.startswith("std::") and index > 0 and tokens[index - 1][1] == "throw":
            message = _template([tokens[index + 2 : end]])
            origin = "error"
        else:
            continue
        if message:
            found.append((line, origin, message))
    return found


@functools.lru_cache(maxsize=1)
def _all_messages() -> tuple[tuple[str, int, str, str], ...]:
    """(file relative to the repository, line, origin, message) of every scanned message."""
    messages = []
    for roots, pyerr in ((SCANNED[0], False), (SCANNED[1], True)):
        for root in roots:
            for path in sorted(root.rglob("*")):
                if path.suffix not in (".h", ".cc") or not path.is_file():
                    continue
                source = path.read_text(encoding="utf-8")
                rel = str(path.relative_to(REPO_ROOT))
                messages += [(rel, n, o, t) for n, o, t in _cpp_messages(source, pyerr)]
    return tuple(messages)


def _has_form(origin: str, text: str) -> bool:
    """Whether text has the form: the api form, or for a check's streamed text the clause."""
    spelled_check = CHECK_PREFIX.match(text)
    if spelled_check:
        origin, text = "check", text[spelled_check.end() :]
    return bool(FORM.match(text) or (origin == "check" and CHECK_CLAUSE.match(text)))


def _pinned() -> list[tuple[str, str]]:
    """(file, message prefix) pairs from apache_cpp_messages.txt."""
    return read_pinned(PINNED_FILE)


def _is_pinned(file: str, text: str, pinned: list[tuple[str, str]]) -> bool:
    return any(f == file and text.startswith(prefix) for f, prefix in pinned)


def test_scan_finds_the_messages() -> None:
    messages = _all_messages()
    assert len(messages) > 200
    origins = {origin for _, _, origin, _ in messages}
    assert origins == {"throw", "check", "error"}
    files = {file for file, _, _, _ in messages}
    assert {
        "src/ffi/function.cc",
        "include/tvm/ffi/container/map.h",
        "python/tvm_ffi/cython/tvm_ffi_python_guards.h",
    } <= files


def test_every_pinned_message_still_exists() -> None:
    messages = _all_messages()
    stale = [
        f"{file} | {prefix}"
        for file, prefix in _pinned()
        if not any(f == file and t.startswith(prefix) for f, _, _, t in messages)
    ]
    assert stale == [], "apache_cpp_messages.txt lists messages the sources no longer raise"


def test_every_message_has_the_form_or_is_pinned() -> None:
    pinned = _pinned()
    offenders = [
        f"{file}:{line}: {text!r}"
        for file, line, origin, text in _all_messages()
        if not _has_form(origin, text) and not _is_pinned(file, text, pinned)
    ]
    assert offenders == [], "C++ messages off the form:\n" + "\n".join(offenders)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            'TVM_FFI_THROW(ValueError) << "f(): bad " << x << " here";',
            ("throw", "f(): bad {} here"),
        ),
        ('TVM_FFI_THROW(E) << "a: one "\n  "two" << std::to_string(n);', ("throw", "a: one two{}")),
        ('TVM_FFI_ICHECK_EQ(a, b) << "sizes differ";', ("check", "sizes differ")),
        ('return Error("TypeError", "g: got `" + k + "`", "");', ("error", "g: got `{}`")),
        ('Error("RecursionError", std::string("deep ") + w, "");', ("error", "deep {}")),
        ('TVMFFIErrorSetRaisedFromCStr("ValueError", "h(): no");', ("error", "h(): no")),
        ('throw std::out_of_range("s::at: out of range");', ("error", "s::at: out of range")),
        ('// TVM_FFI_THROW(ValueError) << "in a comment";\nint x;', None),
        ("TVM_FFI_ICHECK(p != nullptr);", None),
    ],
)
def test_extraction(source: str, expected: tuple[str, str] | None) -> None:
    found = [(origin, text) for _, origin, text in _cpp_messages(source, pyerr=False)]
    assert found == ([expected] if expected else [])


def test_extraction_of_pyerr_calls_formats_conversions() -> None:
    source = 'PyErr_Format(PyExc_TypeError, "f(): expected %d, got %s", 1, name);'
    assert _cpp_messages(source, pyerr=True) == [(1, "error", "f(): expected {}, got {}")]
    assert _cpp_messages(source, pyerr=False) == []


@pytest.mark.parametrize(
    "text",
    [
        "ffi.Array.get(): index out of range; expected 0 <= index < 3, got 5",
        "Module::LoadFromFile: failed to load library 'x.so': not found",
        "TVMFFIFunctionSetGlobal(): function is NULL",
        "{}: changed during a key lookup",
        "tvm::ffi::String::at: index out of bounds",
    ],
)
def test_form_accepts(text: str) -> None:
    assert _has_form("throw", text)


@pytest.mark.parametrize(
    "text",
    [
        "Cannot call a null Function",
        "Function::operator(): Cannot call a null Function",
        "FromDLPack: the tensor is not contiguous.",
        "map iterator is past the end",
    ],
)
def test_form_rejects(text: str) -> None:
    assert not _has_form("throw", text)


def test_check_clause_and_spelled_out_check() -> None:
    assert _has_form("check", "the prototype has no strides")
    assert not _has_form("check", "The prototype has no strides")
    assert _has_form("throw", "Check failed: (p != nullptr) is false: TensorView: p is null")
    assert not _has_form("throw", "Check failed: (p != nullptr) is false: P is null.")
