# SPDX-License-Identifier: Apache-2.0
"""Reads the lists of messages kept word for word (apache_messages.txt, apache_cpp_messages.txt)."""

from __future__ import annotations

from pathlib import Path


def read_pinned(path: Path) -> list[tuple[str, str]]:
    """(file, message prefix) pairs of a list whose lines read ``file | prefix | reason``."""
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            file, prefix, _reason = (field.strip() for field in line.split(" | "))
            pairs.append((file, prefix))
    return pairs
