# SPDX-License-Identifier: Apache-2.0
"""``tvm-ffi-stubgen``: fill ``# tvm-ffi-stubgen(begin): ...`` blocks with typed stubs.

The generator reads the reflection of the loaded libraries (global functions and their type
schemas, object types with their fields, methods and initializers) and rewrites, in place, the
regions of ``.py``/``.pyi`` files delimited by stub directives. Run it as
``tvm-ffi-stubgen PATH ...`` or ``python -m tvm_ffi.stub.cli PATH ...``.
"""

from __future__ import annotations

__all__: list[str] = []
