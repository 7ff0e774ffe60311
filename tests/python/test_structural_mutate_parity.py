# SPDX-License-Identifier: Apache-2.0
"""``structural_mutate`` and ``structural_map`` treat big integers as Apache's package does.

``ffi.BigInt`` carries its own ``__s_mutate__`` hooks (a leaf: it is kept as it is), alone and
inside each container kind, rewritten by default, by callbacks or in place along a moved root.
``scripts/structural_mutate_cases.py`` prints the outcomes; it runs once with Apache's wheel
(the matched release) first on the path and once with ours, and the two must agree.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import environment_with_path_first
from pinned_versions import MATCHED_VERSION
from reference_wheels import install_reference_package, run_json_script

import tvm_ffi

SCRIPT = Path(__file__).parent / "scripts" / "structural_mutate_cases.py"
BIG = 10**30


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """``{"apache": ..., "ours": ...}``: case name -> ``[status, type name, repr]``."""
    work = tmp_path_factory.mktemp("structural_mutate")
    site = install_reference_package(MATCHED_VERSION, work)
    apache = run_json_script(SCRIPT, cwd=work, env=environment_with_path_first(site))
    assert apache["file"].startswith(str(site)), apache["file"]
    ours = run_json_script(SCRIPT, cwd=work)
    assert not ours["file"].startswith(str(site)), ours["file"]
    return {"apache": apache["cases"], "ours": ours["cases"]}


def test_big_integer_cases_match_apache(outcomes: dict[str, dict[str, Any]]) -> None:
    assert outcomes["ours"] == outcomes["apache"]


def test_big_integers_are_kept(outcomes: dict[str, dict[str, Any]]) -> None:
    ours = outcomes["ours"]
    assert all(status == "ok" for status, _, _ in ours.values()), ours
    assert ours["root"] == ["ok", "int", str(BIG)]
    assert ours["in_array"] == ["ok", "Array", f"({BIG}, 1)"]
    assert ours["map_ints"] == ["ok", "Array", f"({BIG}, 6)"]


def test_big_integer_leaf_in_process() -> None:
    def by_default(value: Any, mutator: Any) -> Any:
        return mutator.default_mutate(value)

    for root in (BIG, -BIG, [BIG, [BIG]], {"k": BIG}):
        value = tvm_ffi.convert(root)
        mutated = tvm_ffi.structural_mutate(value, (object, by_default))
        assert tvm_ffi.structural_equal(mutated, value)
