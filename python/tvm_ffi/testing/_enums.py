# SPDX-License-Identifier: Apache-2.0
"""The Python side of the testing library's C++ enum classes, which have no native members.

Their home is ``tvm_ffi.testing.testing`` (as upstream), which imports them from here.
"""

from __future__ import annotations

from ..dataclasses.enum import IntEnum, StrEnum, entry


class _TestCxxIntEnum(IntEnum, type_key="testing.TestCxxIntEnum"):
    """``testing.TestCxxIntEnum``: ``low`` (10) and ``high`` (20)."""

    __module__ = "tvm_ffi.testing.testing"
    low = entry(value=10)
    high = entry(value=20)


class _TestCxxStrEnum(StrEnum, type_key="testing.TestCxxStrEnum"):
    """``testing.TestCxxStrEnum``: ``add`` ("+") and ``mul`` ("*")."""

    __module__ = "tvm_ffi.testing.testing"
    add = entry(value="+")
    mul = entry(value="*")
