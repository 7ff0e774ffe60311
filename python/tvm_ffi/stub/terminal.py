# SPDX-License-Identifier: Apache-2.0
"""Colored messages of the command line tool."""

from __future__ import annotations

RESET = "\033[0m"
RED = "\033[31m"
GREEN = "\033[32m"
YELLOW = "\033[33m"
CYAN = "\033[36m"


def paint(text: str, color: str) -> str:
    """Return ``text`` wrapped in the escape codes of ``color``."""
    return f"{color}{text}{RESET}"


def color_diff_line(line: str) -> str:
    """Color a unified diff line: removals red, additions green, hints yellow."""
    if line.startswith("-"):
        return paint(line, RED)
    if line.startswith("+"):
        return paint(line, GREEN)
    if line.startswith("?"):
        return paint(line, YELLOW)
    return line
