# SPDX-License-Identifier: Apache-2.0
"""The examples' ``run_example.py`` scripts, imported and run as the example tests use them."""

from __future__ import annotations

import contextlib
import importlib.util
import io
from pathlib import Path
from types import ModuleType

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example_script(name: str) -> ModuleType:
    """Import ``examples/<name>/run_example.py`` as the module ``<name>_example``."""
    spec = importlib.util.spec_from_file_location(
        f"{name}_example", EXAMPLES / name / "run_example.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_example_main(name: str, build_dir: Path) -> str:
    """Run the example's ``main(build_dir)``; what it prints."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        load_example_script(name).main(build_dir)
    return printed.getvalue()
