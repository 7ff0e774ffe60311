# SPDX-License-Identifier: Apache-2.0
"""List the public C++ declarations of a ``tvm/ffi`` header tree and write a C++ file that uses
each of them.

``test_header_parity.py`` runs this on the headers of Apache's reference wheels: the
declarations are read with libclang, each becomes one *check* (a few lines of C++ that compile
only where the declaration exists with a compatible signature), the checks that do not compile
against the reference headers themselves are dropped (a template that cannot be instantiated
with the sample arguments, a member of a final class), and what is left must compile against
ours. A check is keyed by the declaration's qualified name, so that a deliberate omission
(``tests/python/header_omissions.txt``) covers every overload of a name.

Run as a script to print what is missing from ours (only the declarations whose qualified name
matches the optional regular expression)::

    python tests/python/scripts/header_declarations.py <reference include> <our include> [regex]

With ``TVM_FFI_HEADER_CHECK_CACHE`` set to a folder, the checks validated against a reference
are kept there, so that later runs compile only against ours.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import clang.cindex as ci

K = ci.CursorKind

# Headers that need the CUDA toolkit's headers; test_cuda_headers.py covers them.
_SKIPPED_HEADER_PARTS = ("tvm/ffi/extra/cuda/",)
# Macros that only guard a header against double inclusion, or that a header undefines again.
_GUARD_MACRO = re.compile(r"^TVM_FFI_.*_H_$")
# Sample arguments tried, in order, for each type parameter of a class template.
_SAMPLE_TYPES = ("int", "::tvm::ffi::ObjectRef", "::tvm::ffi::Object", "::tvm::ffi::Any")
_DEPENDENT = re.compile(r"type-parameter-(\d+)-(\d+)")


@dataclass
class Check:
    """One declaration and the C++ lines that use it."""

    key: str  # the qualified name, e.g. "tvm::ffi::Array::push_back"
    label: str  # the key plus what distinguishes an overload
    code: list[str] = field(default_factory=list)
    fallback: Check | None = None  # a weaker check, used where this one fails on the reference


def header_paths(include_dir: Path) -> list[str]:
    """Every ``tvm/ffi`` header under ``include_dir`` that compiles without CUDA, sorted."""
    paths = []
    for path in sorted(include_dir.rglob("*.h")):
        relative = path.relative_to(include_dir).as_posix()
        if relative.startswith("tvm/ffi/") and not relative.startswith(_SKIPPED_HEADER_PARTS):
            paths.append(relative)
    return paths


def compiler_include_dir() -> str:
    """The directory of the compiler's own headers (stddef.h), which libclang needs."""
    out = subprocess.run(
        ["g++", "-print-file-name=include"], capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def parse(include_dir: Path) -> ci.TranslationUnit:
    """Parse one translation unit that includes every header of ``include_dir``."""
    source = "".join(f"#include <{h}>\n" for h in header_paths(include_dir))
    args = ["-x", "c++", "-std=c++17", f"-I{include_dir}", "-isystem", compiler_include_dir()]
    options = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
    index = ci.Index.create()
    unit = index.parse("all_headers.cc", args, [("all_headers.cc", source)], options)
    errors = [d for d in unit.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        raise RuntimeError(f"cannot parse the headers of {include_dir}: {errors[0]}")
    return unit


def in_tree(cursor: ci.Cursor, include_dir: Path) -> bool:
    """Whether ``cursor`` is declared in a header of ``include_dir``."""
    location = cursor.location.file
    return location is not None and Path(location.name).is_relative_to(include_dir)


def qualified(scope: str, name: str) -> str:
    return f"{scope}::{name}" if scope else name


class Extractor:
    """Walks a parsed header tree and produces one Check per public declaration."""

    def __init__(self, include_dir: Path) -> None:
        self.include_dir = include_dir
        self.checks: list[Check] = []
        self.seen: set[str] = set()
        self.counter = 0

    def run(self) -> list[Check]:
        unit = parse(self.include_dir)
        collect_names(unit.cursor, "")
        for cursor in unit.cursor.get_children():
            if in_tree(cursor, self.include_dir):
                if cursor.kind == K.MACRO_DEFINITION:
                    self.macro(cursor)
                else:
                    self.declaration(cursor, "")
        return self.checks

    def add(
        self, key: str, label: str, lines: list[str], fallback: list[str] | None = None
    ) -> None:
        key = key.replace("::details::", "::detail::")  # one namespace, two spellings
        if label in self.seen:
            return
        self.seen.add(label)
        check = Check(key, label, self.wrap(lines))
        if fallback:
            check.fallback = Check(key, f"{label} (by name)", self.wrap(fallback))
        self.checks.append(check)

    def wrap(self, lines: list[str]) -> list[str]:
        self.counter += 1
        return [f"namespace check_{self.counter} {{", *lines, "}"]

    def macro(self, cursor: ci.Cursor) -> None:
        name = cursor.spelling
        if _GUARD_MACRO.match(name) or name.startswith("_"):
            return
        self.add(
            name, f"macro {name}", [f"#ifndef {name}", f"#error missing macro {name}", "#endif"]
        )

    def declaration(self, cursor: ci.Cursor, scope: str) -> None:
        name = cursor.spelling
        kind = cursor.kind
        if kind == K.NAMESPACE:
            if name:
                for child in cursor.get_children():
                    self.declaration(child, qualified(scope, name))
            return
        if not name or not scope.startswith("tvm") or not in_tree(cursor, self.include_dir):
            return
        full = qualified(scope, name)
        if kind in (K.CLASS_DECL, K.STRUCT_DECL) and is_specialization(cursor):
            if cursor.is_definition():
                self.members(cursor, "::" + cursor.type.get_canonical().spelling, full)
        elif kind == K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION:
            self.partial_specialization(cursor, full)
        elif kind in (K.CLASS_DECL, K.STRUCT_DECL):
            self.add(full, f"class {full}", [f"using T = ::{full};"])
            if cursor.is_definition():
                self.members(cursor, f"::{full}", full)
        elif kind == K.CLASS_TEMPLATE:
            self.class_template(cursor, full)
        elif kind == K.FUNCTION_DECL:
            self.add(full, f"function {full}", [f"using ::{full};"])
            self.callable(cursor, full, f"::{full}", None, {})
        elif kind == K.FUNCTION_TEMPLATE:
            self.add(full, f"name {full}", [f"using ::{full};"])
            self.template_call(cursor, full, f"::{full}", None, {}, "", 0)
        elif kind in (K.VAR_DECL, K.TYPE_ALIAS_TEMPLATE_DECL):
            self.add(full, f"name {full}", [f"using ::{full};"])
        elif kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL):
            self.add(full, f"type {full}", [f"using T = ::{full};"])
        elif kind == K.ENUM_DECL:
            self.add(full, f"enum {full}", [f"using T = ::{full};"])
            for item in cursor.get_children():
                if item.kind == K.ENUM_CONSTANT_DECL:
                    member = f"{full}::{item.spelling}"
                    self.add(member, f"enumerator {member}", [f"constexpr auto v = ::{member};"])

    def class_template(self, cursor: ci.Cursor, full: str) -> None:
        params = template_parameters(cursor)
        if params is None:
            self.add(full, f"template {full}", [f"using ::{full};"])
            return
        declared = ", ".join(p[0] for p in params)
        used = ", ".join(p[1] for p in params)
        self.add(
            full, f"template {full}", [f"template <{declared}>", f"using T = ::{full}<{used}>;"]
        )
        for samples in sample_arguments(params):
            instance = f"::{full}<{', '.join(samples)}>"
            self.members(cursor, instance, full, class_samples(samples), sampled=True)

    def spell(self, type_: ci.Type, samples: dict[tuple[int, int], str]) -> str | None:
        """A type as C++ source outside its scope: canonical, with class template parameters
        replaced by samples and the names libclang leaves unqualified qualified."""
        spelling = substitute(type_.get_canonical().spelling, samples)
        return None if spelling is None else qualify(spelling)

    def partial_specialization(self, cursor: ci.Cursor, full: str) -> None:
        params = template_parameters(cursor)
        if params is None:
            return
        pattern = drop_enable_if(cursor.type.get_canonical().spelling)
        for samples in sample_arguments(params):
            instance = substitute(pattern, class_samples(samples))
            if instance is not None:
                instance = qualify(instance).replace("...", "")
                self.members(cursor, instance, full, class_samples(samples), True)

    def members(
        self,
        cursor: ci.Cursor,
        cls: str,
        key_scope: str,
        samples: dict[tuple[int, int], str] | None = None,
        sampled: bool = False,
    ) -> None:
        samples = samples or {}
        tag = f" [{cls}]" if sampled else ""
        for member in cursor.get_children():
            access = member.access_specifier
            if access not in (ci.AccessSpecifier.PUBLIC, ci.AccessSpecifier.PROTECTED):
                continue
            name = member.spelling
            key = f"{key_scope}::{name}"
            kind = member.kind
            if access == ci.AccessSpecifier.PROTECTED:
                if kind in (K.CONSTRUCTOR, K.DESTRUCTOR) or not name:
                    continue
                lines = [f"struct D : {cls} {{", f"  using {cls}::{name};", "};"]
                self.add(key, f"protected {key}{tag}", lines)
                continue
            if kind in (K.CXX_METHOD, K.CONVERSION_FUNCTION):
                self.callable(member, key, name, cls, samples, tag)
            elif kind == K.CONSTRUCTOR:
                self.constructor(member, key, cls, samples, tag)
            elif kind == K.FUNCTION_TEMPLATE:
                if name != cursor.spelling and "<" not in name:  # not a constructor template
                    self.add(key, f"member template {key}{tag}", derived_using(cls, name))
                    depth = 1 if sampled else 0
                    self.template_call(member, key, name, cls, samples, tag, depth)
            elif kind in (K.FIELD_DECL, K.VAR_DECL):
                self.add(key, f"field {key}{tag}", [f"using T = decltype({cls}::{name});"])
            elif kind in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL, K.CLASS_DECL, K.STRUCT_DECL):
                if name:
                    self.add(key, f"type {key}{tag}", [f"using T = typename {cls}::{name};"])
            elif kind in (K.CLASS_TEMPLATE, K.TYPE_ALIAS_TEMPLATE_DECL):
                self.add(key, f"member template {key}{tag}", derived_using(cls, name))
            elif kind == K.ENUM_DECL:
                for item in member.get_children():
                    if item.kind == K.ENUM_CONSTANT_DECL:
                        value = f"{key_scope}::{item.spelling}"
                        self.add(
                            value,
                            f"enumerator {value}{tag}",
                            [f"constexpr auto v = {cls}::{item.spelling};"],
                        )

    def callable(
        self,
        cursor: ci.Cursor,
        key: str,
        name: str,
        cls: str | None,
        samples: dict[tuple[int, int], str],
        tag: str = "",
    ) -> None:
        """A check that calls a function or method with arguments of its declared types."""
        if is_deleted(cursor):
            return
        params = [self.spell(a.type, samples) for a in cursor.get_arguments()]
        result = self.spell(cursor.result_type, samples)
        by_name = derived_using(cls, cursor.spelling) if cls else None
        if None in params:
            if by_name:
                self.add(key, f"method {key}{tag}", by_name)
            return
        args = ", ".join(f"std::declval<{p}>()" for p in params)
        signature = f"{key}({', '.join(params)})"
        if cls is None:
            call = f"{name}({args})"
        elif cursor.is_static_method():
            call = f"{cls}::{name}({args})"
        else:
            const = "const " if cursor.is_const_method() else ""
            rvalue = "&&" if cursor.type.spelling.endswith("&&") else "&"
            member = name if name.startswith("template ") else method_name(cursor)
            call = f"std::declval<{const}{cls}{rvalue}>().{member}({args})"
        self.add(key, f"call {signature}{tag}", [f"using R = decltype({call});"], by_name)
        if result is not None and result != "void" and "auto" not in result:
            test = f"std::is_convertible<decltype({call}), {result}>::value"
            self.add(key, f"result {signature}{tag}", [f'static_assert({test}, "result");'])

    def template_call(
        self,
        cursor: ci.Cursor,
        key: str,
        name: str,
        cls: str | None,
        samples: dict[tuple[int, int], str],
        tag: str,
        depth: int,
    ) -> None:
        """Checks that call a function template with each sample type as its explicit template
        arguments (those without a default)."""
        params = template_parameters(cursor)
        if params is None or any("..." in declared for declared, _ in params):
            return
        explicit = [
            i
            for i, child in enumerate(template_parameter_cursors(cursor))
            if "=" not in [t.spelling for t in child.get_tokens()]
        ]
        for sample in sample_arguments(params):
            merged = dict(samples)
            merged.update({(depth, i): arg for i, arg in enumerate(sample)})
            chosen = ", ".join(sample[i] for i in explicit)
            spelled = f"template {name}<{chosen}>" if cls else f"{name}<{chosen}>"
            self.callable(cursor, key, spelled, cls, merged, f"{tag} <{chosen}>")

    def constructor(
        self, cursor: ci.Cursor, key: str, cls: str, samples: dict[tuple[int, int], str], tag: str
    ) -> None:
        if is_deleted(cursor):
            return
        params = [self.spell(a.type, samples) for a in cursor.get_arguments()]
        if None in params:
            return
        test = ", ".join([cls, *params])
        lines = [f'static_assert(std::is_constructible<{test}>::value, "constructor");']
        self.add(key, f"constructor {key}({', '.join(params)}){tag}", lines)  # type: ignore[arg-type]


def is_specialization(cursor: ci.Cursor) -> bool:
    """Whether a class declaration is an explicit specialization of a class template."""
    return ci.conf.lib.clang_getSpecializedCursorTemplate(cursor) is not None


_STD_NAMES = {
    "vector",
    "variant",
    "unordered_map",
    "map",
    "hash",
    "allocator",
    "pair",
    "equal_to",
    "optional",
    "nullopt_t",
    "basic_string",
    "char_traits",
    "less",
    "tuple",
    "function",
    "shared_ptr",
    "unique_ptr",
    "integral_constant",
    "enable_if",
    "array",
    "basic_string_view",
}
_IDENTIFIER = re.compile(r"(?<![\w:])([A-Za-z_]\w*)(?=\s*[<:]|\b)")
_ENABLE_IF_ARGUMENT = re.compile(r",\s*typename enable_if<.*>::type>$")
_TVM_NAMES: dict[str, str] = {}


def qualify(spelling: str) -> str:
    """Qualify the std and tvm::ffi names that libclang prints unqualified in dependent types."""

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name in _STD_NAMES:
            return f"::std::{name}"
        if name in _TVM_NAMES:
            return f"::{_TVM_NAMES[name]}"
        return name

    return _IDENTIFIER.sub(replace, spelling)


def collect_names(cursor: ci.Cursor, scope: str) -> None:
    """Record the qualified name of every class, template and alias of the tvm namespaces."""
    for child in cursor.get_children():
        name = child.spelling
        if child.kind == K.NAMESPACE and name:
            collect_names(child, qualified(scope, name))
        elif name and scope.startswith("tvm") and child.kind in _NAMED_TYPE_KINDS:
            _TVM_NAMES.setdefault(name, qualified(scope, name))


_NAMED_TYPE_KINDS = (
    K.CLASS_DECL,
    K.STRUCT_DECL,
    K.CLASS_TEMPLATE,
    K.TYPE_ALIAS_DECL,
    K.TYPEDEF_DECL,
    K.TYPE_ALIAS_TEMPLATE_DECL,
    K.ENUM_DECL,
)


def drop_enable_if(spelling: str) -> str:
    """A partial specialization's pattern without its trailing enable_if argument."""
    return _ENABLE_IF_ARGUMENT.sub(">", spelling)


def class_samples(samples: list[str]) -> dict[tuple[int, int], str]:
    """The sample arguments of a class template, by (depth 0, index)."""
    return {(0, index): sample for index, sample in enumerate(samples)}


def derived_using(cls: str, name: str) -> list[str]:
    """A check that a class has a member of this name, whatever its kind or signature."""
    return [f"struct D : {cls} {{", f"  using {cls}::{name};", "};"]


def method_name(cursor: ci.Cursor) -> str:
    """How a method is named in a call: ``operator T`` is spelled with T's canonical type."""
    if cursor.kind == K.CONVERSION_FUNCTION:
        return f"operator {cursor.result_type.get_canonical().spelling}"
    return cursor.spelling


def is_deleted(cursor: ci.Cursor) -> bool:
    tokens = [t.spelling for t in cursor.get_tokens()]
    return any(a == "=" and b == "delete" for a, b in zip(tokens, tokens[1:]))


def substitute(spelling: str, samples: dict[tuple[int, int], str]) -> str | None:
    """A canonical type spelling with a class template's parameters replaced by the samples,
    or None when it names a parameter of anything else (a member template)."""
    missing = False

    def replace(match: re.Match[str]) -> str:
        nonlocal missing
        position = (int(match.group(1)), int(match.group(2)))
        if position not in samples:
            missing = True
            return match.group(0)
        return samples[position]

    result = _DEPENDENT.sub(replace, spelling)
    if missing or "(lambda" in result or "(unnamed" in result or "(anonymous" in result:
        return None
    return result


def template_parameter_cursors(cursor: ci.Cursor) -> list[ci.Cursor]:
    kinds = (
        K.TEMPLATE_TYPE_PARAMETER,
        K.TEMPLATE_NON_TYPE_PARAMETER,
        K.TEMPLATE_TEMPLATE_PARAMETER,
    )
    return [child for child in cursor.get_children() if child.kind in kinds]


def template_parameters(cursor: ci.Cursor) -> list[tuple[str, str]] | None:
    """For each template parameter: its declaration in a template head and its use as an
    argument; None when a parameter is a template template parameter."""
    params = []
    for child in cursor.get_children():
        tokens = [t.spelling for t in child.get_tokens()]
        name = f"P{len(params)}"
        pack = "..." in tokens
        if child.kind == K.TEMPLATE_TYPE_PARAMETER:
            params.append(
                (f"typename{'...' if pack else ''} {name}", name + ("..." if pack else ""))
            )
        elif child.kind == K.TEMPLATE_NON_TYPE_PARAMETER:
            kind = child.type.get_canonical().spelling
            params.append((f"{kind}{'...' if pack else ''} {name}", name + ("..." if pack else "")))
        elif child.kind == K.TEMPLATE_TEMPLATE_PARAMETER:
            return None
    return params


def sample_arguments(params: list[tuple[str, str]]) -> Iterator[list[str]]:
    """Argument lists to instantiate a class template with: every type parameter gets the same
    sample type, a non-type parameter a zero of its type."""
    for sample in _SAMPLE_TYPES:
        args = []
        for declared, _ in params:
            kind = declared.rsplit(" ", 1)[0]
            if kind.startswith("typename"):
                args.append(sample)
            else:
                args.append(f"static_cast<{kind.rstrip('.')}>(0)")
        yield args


PRELUDE = ["#include <type_traits>", "#include <utility>"]


def render(includes: list[str], checks: list[Check]) -> tuple[str, list[tuple[int, int]]]:
    """The C++ source of the checks and, for each, its first and last line (1-based)."""
    lines = PRELUDE + [f"#include <{h}>" for h in includes]
    spans = []
    for check in checks:
        start = len(lines) + 1
        lines.extend(check.code)
        spans.append((start, len(lines)))
    return "\n".join(lines) + "\n", spans


def compile_errors(source: str, include_dir: Path) -> list[tuple[int, str]]:
    """(line, message) of every error g++ reports for ``source``, attributed to the line of the
    source file that the error or its instantiation context points at."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "checks.cc"
        path.write_text(source, encoding="utf-8")
        cmd = ["g++", "-std=c++17", "-fsyntax-only", "-fmax-errors=0", "-w"]
        cmd += ["-ftemplate-backtrace-limit=0", f"-I{include_dir}", str(path)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
    return attribute_errors(proc.stderr, str(path))


def attribute_errors(stderr: str, path: str) -> list[tuple[int, str]]:
    own_line = re.compile(rf"^{re.escape(path)}:(\d+):(?:\d+:)?\s*(.*)$")
    errors: list[tuple[int, str]] = []
    context: int | None = None
    for text in stderr.splitlines():
        match = own_line.match(text)
        if match and "error:" not in match.group(2):
            context = int(match.group(1))
            continue
        if "error:" in text:
            line = int(match.group(1)) if match else context
            if line is not None:
                errors.append((line, text.split("error:", 1)[1].strip()))
            context = None
    return errors


def failing_checks(checks: list[Check], includes: list[str], include_dir: Path) -> dict[int, str]:
    """Index of each check that does not compile against ``include_dir`` -> first error."""
    source, spans = render(includes, checks)
    failed: dict[tuple[int, int], str] = {}
    for line, message in compile_errors(source, include_dir):
        for index, (start, end) in enumerate(spans):
            if start <= line <= end:
                failed.setdefault(index, message)
                break
    return failed


def valid_checks(reference: Path) -> tuple[list[str], list[Check]]:
    """The reference's headers and the checks of its declarations that compile against it:
    a check that fails is replaced by its fallback, if it has one, and dropped otherwise."""
    includes = header_paths(reference)
    checks = Extractor(reference).run()
    failed = failing_checks(checks, includes, reference)
    fallbacks = [c.fallback for i, c in enumerate(checks) if i in failed and c.fallback]
    checks = [c for i, c in enumerate(checks) if i not in failed]
    if fallbacks:
        bad = failing_checks(fallbacks, includes, reference)
        checks += [c for i, c in enumerate(fallbacks) if i not in bad]
    return includes, checks


def fail_on_reference_too(checks: list[Check], includes: list[str], reference: Path) -> set[int]:
    """Which of ``checks`` fail against the reference once compiled without the others.

    g++ instantiates a class template once and reports its errors once, at the first check
    that needs it; a later check that needs the same broken instantiation compiles "cleanly"
    beside it. So a check that fails against ours is compiled against the reference again,
    with the other failing ones only, until no more of them fail there.
    """
    remaining = dict(enumerate(checks))
    broken: set[int] = set()
    while remaining:
        indices = list(remaining)
        failed = failing_checks([remaining[i] for i in indices], includes, reference)
        if not failed:
            break
        for position in failed:
            broken.add(indices[position])
            del remaining[indices[position]]
    return broken


def cached_valid_checks(reference: Path) -> tuple[list[str], list[Check]]:
    """valid_checks, kept in ``$TVM_FFI_HEADER_CHECK_CACHE`` (when set) for the same reference
    headers and the same version of this script."""
    cache_dir = os.environ.get("TVM_FFI_HEADER_CHECK_CACHE")
    if not cache_dir:
        return valid_checks(reference)
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for header in header_paths(reference):
        digest.update((reference / header).read_bytes())
    path = Path(cache_dir) / f"{digest.hexdigest()[:24]}.json"
    if path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
        return data["includes"], [Check(c["key"], c["label"], c["code"]) for c in data["checks"]]
    includes, checks = valid_checks(reference)
    entries = [{"key": c.key, "label": c.label, "code": c.code} for c in checks]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"includes": includes, "checks": entries}), encoding="utf-8")
    return includes, checks


def missing_declarations(
    reference: Path, ours: Path, pattern: re.Pattern[str] | None = None
) -> dict[str, tuple[str, str]]:
    """Label of each reference declaration (whose key matches ``pattern``, if given) whose
    check fails against ``ours`` -> its key and the first error."""
    includes, checks = cached_valid_checks(reference)
    if pattern is not None:
        checks = [c for c in checks if pattern.search(c.key)]
    failed = failing_checks(checks, includes, ours)
    suspects = sorted(failed)
    confirmed = [checks[i] for i in suspects]
    artefacts = {suspects[j] for j in fail_on_reference_too(confirmed, includes, reference)}
    return {
        checks[i].label: (checks[i].key, message)
        for i, message in failed.items()
        if i not in artefacts
    }


def main(argv: list[str]) -> int:
    reference, ours = Path(argv[1]).resolve(), Path(argv[2]).resolve()
    pattern = re.compile(argv[3]) if len(argv) > 3 else None
    missing = missing_declarations(reference, ours, pattern)
    for label, (_, message) in sorted(missing.items()):
        print(f"{label}\n    {message}")
    print(f"{len(missing)} missing", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
