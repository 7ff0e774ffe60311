# SPDX-License-Identifier: Apache-2.0
"""Colored messages of the command line tool."""

from __future__ import annotations

from .consts import TERM_CYAN as CYAN
from .consts import TERM_GREEN as GREEN
from .consts import TERM_RED as RED
from .consts import TERM_RESET as RESET
from .consts import TERM_YELLOW as YELLOW

__all__ = ["CYAN", "GREEN", "RED", "RESET", "YELLOW", "color_diff_line", "paint"]


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
