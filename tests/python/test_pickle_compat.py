# SPDX-License-Identifier: Apache-2.0
"""Pickles cross between our package and Apache's (the matched release) in both directions.

Apache's wheel is installed into a throwaway folder put ahead of site-packages, where it
shadows ours; the same script
(``scripts/pickle_values.py``) pickles a set of values on each side. Each side must read the
other's pickles exactly as it reads its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import environment_with_path_first
from pinned_versions import MATCHED_VERSION
from reference_wheels import install_reference_package

SCRIPT = Path(__file__).parent / "scripts" / "pickle_values.py"
NAMES = [
    "array",
    "nested",
    "map",
    "list",
    "dict",
    "long_string",
    "long_bytes",
    "shape",
    "device",
    "dtype",
    "vector_dtype",
    "data_type",
    "int_pair",
    "object_base",
    "object_derived",
    "shared_objects",
    "access_path",
    "structural_key",
    "error",
]


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def descriptions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """``{"<reader> reads <writer>": {name: description}}`` for the four pairings."""
    work = tmp_path_factory.mktemp("pickles")
    site = install_reference_package(MATCHED_VERSION, work)
    # Apache's package, put ahead of site-packages, shadows ours in the same interpreter.
    envs = {"ours": None, "apache": environment_with_path_first(site)}
    where = [sys.executable, "-c", "import tvm_ffi; print(tvm_ffi.__file__)"]
    apache_file = subprocess.run(
        where, env=envs["apache"], cwd=work, capture_output=True, text=True, check=True
    ).stdout
    assert apache_file.startswith(str(site)), apache_file
    for side, env in envs.items():
        _run("dump", work / f"{side}.pkl", cwd=work, env=env)
    results = {}
    for reader, env in envs.items():
        for writer in envs:
            text = _run("load", work / f"{writer}.pkl", cwd=work, env=env)
            results[f"{reader} reads {writer}"] = json.loads(text)
    assert "tvm_ffi._tensor.Shape" in str(results["apache reads apache"]["shape"])
    return results


def test_every_value_pickles_on_both_sides(descriptions: dict[str, dict[str, Any]]) -> None:
    for pairing in ("ours reads ours", "apache reads apache"):
        assert list(descriptions[pairing]) == NAMES
        failed = {k: v for k, v in descriptions[pairing].items() if v[0] == "error"}
        assert not failed, f"{pairing}: {failed}"


@pytest.mark.parametrize("name", NAMES)
def test_we_read_apache_pickles(descriptions: dict[str, dict[str, Any]], name: str) -> None:
    assert descriptions["ours reads apache"][name] == descriptions["ours reads ours"][name]


@pytest.mark.parametrize("name", NAMES)
def test_apache_reads_our_pickles(descriptions: dict[str, dict[str, Any]], name: str) -> None:
    assert descriptions["apache reads ours"][name] == descriptions["apache reads apache"][name]
