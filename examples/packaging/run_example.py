# SPDX-License-Identifier: Apache-2.0
"""Packaging example: use the installed my_ffi_extension wheel from Python.

Build and install the wheel first (see README.md), then run ``python run_example.py``.
"""

from __future__ import annotations

import my_ffi_extension
import numpy as np
from my_ffi_extension import LinearMap


def use_object() -> None:
    """Create a LinearMap, read and write its fields and call its methods."""
    # [object-begin]
    double_plus_one = LinearMap(2.0, 1.0)  # the C++ constructor
    print("fields:", double_plus_one.scale, double_plus_one.shift)
    print("apply(3):", double_plus_one.apply(3.0))
    double_plus_one.shift = 5.0  # writes the C++ field
    print("after shift = 5, apply(3):", double_plus_one.apply(3.0))
    inverse = double_plus_one.inverse()  # a new object, returned as a LinearMap
    print("inverse:", type(inverse).__name__, inverse.scale, inverse.shift)
    # [object-end]


def use_functions() -> None:
    """Call the library's global functions."""
    # [functions-begin]
    triple = my_ffi_extension.compose(LinearMap(3.0, 0.0), LinearMap(1.0, 2.0))
    print("compose:", triple.scale, triple.shift)
    x = np.arange(4, dtype=np.float32)
    my_ffi_extension.apply_inplace(triple, x)  # the array is updated without copying
    print("apply_inplace:", x)
    # [functions-end]


def show_errors() -> None:
    """Show how C++ errors arrive in Python."""
    # [error-begin]
    try:
        LinearMap(0.0, 1.0).inverse()
    except ValueError as err:
        print("ValueError:", err)
    try:
        my_ffi_extension.apply_inplace(LinearMap(1.0, 0.0), np.zeros(3, dtype=np.int32))
    except TypeError as err:
        print("TypeError:", err)
    # [error-end]


def main() -> None:
    """Run every part of the example."""
    use_object()
    use_functions()
    show_errors()


if __name__ == "__main__":
    main()
