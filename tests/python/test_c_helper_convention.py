# SPDX-License-Identifier: Apache-2.0
"""The C helpers of the binding keep one return convention (tvm_ffi_python_helpers.h).

The sign of an int helper's result is its status: -1 is a failure, anything else success. A
helper returns 0 on success unless its name says otherwise: predicates (``TVMFFIPyIs...``,
``TVMFFIPyMayBe...``) and ``TVMFFIPyTry...`` helpers return 1 or 0, and a few helpers with
named outcomes (listed below) return documented non-negative codes. The sources are scanned:
any other int helper that returns a positive literal breaks the convention.
"""

from __future__ import annotations

import re
from pathlib import Path

CYTHON_DIR = Path(__file__).resolve().parents[2] / "python" / "tvm_ffi" / "cython"
# Helpers whose non-negative results are documented outcome codes.
NAMED_OUTCOMES = {"TVMFFIPyBorrowCallArgument", "TVMFFIPyShapeProblem", "TVMFFIPyDictPlainCells"}
ONE_OR_ZERO_PREFIXES = ("TVMFFIPyIs", "TVMFFIPyMayBe", "TVMFFIPyTry")
INT_HELPER = re.compile(r"^static (?:inline |TVM_FFI_PY_ALWAYS_INLINE )*int (TVMFFIPy\w+)\(", re.M)
POSITIVE_RETURN = re.compile(r"\breturn\s+\(?\s*[1-9]\d*\s*\)?\s*;")


def _body(source: str, start: int) -> str:
    """The text of the function whose parameter list starts at start, up to its closing brace."""
    opening = source.index("{", start)
    depth = 0
    for pos in range(opening, len(source)):
        depth += {"{": 1, "}": -1}.get(source[pos], 0)
        if depth == 0:
            return source[opening : pos + 1]
    raise AssertionError(f"unbalanced braces after offset {start}")


def _int_helpers() -> dict[str, str]:
    helpers = {}
    for path in sorted(CYTHON_DIR.glob("*.h")):
        source = path.read_text(encoding="utf-8")
        for match in INT_HELPER.finditer(source):
            helpers[match.group(1)] = _body(source, match.end())
    return helpers


def _positive_literal_returns(name: str, body: str) -> bool:
    exempt = name in NAMED_OUTCOMES or name.startswith(ONE_OR_ZERO_PREFIXES)
    return not exempt and POSITIVE_RETURN.search(body) is not None


def test_int_helpers_return_a_positive_value_only_when_their_name_says_so() -> None:
    helpers = _int_helpers()
    assert len(helpers) > 30
    offenders = sorted(
        name for name, body in helpers.items() if _positive_literal_returns(name, body)
    )
    assert offenders == []


def test_the_named_outcome_helpers_exist() -> None:
    assert set(_int_helpers()) >= NAMED_OUTCOMES


def test_the_scan_flags_a_helper_that_reports_through_its_return_value() -> None:
    body = _body("static inline int TVMFFIPyFoo(int x) { if (x) return 1; return 0; }", 0)
    assert _positive_literal_returns("TVMFFIPyFoo", body)
    assert not _positive_literal_returns("TVMFFIPyTryFoo", body)
    assert not _positive_literal_returns("TVMFFIPyFoo", "{ return 0; }")
