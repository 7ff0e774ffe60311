# SPDX-License-Identifier: Apache-2.0
"""``tvm-ffi-stubgen``: fill ``tvm-ffi-stubgen(begin): ...`` blocks from the FFI reflection.

The generator reads the reflection of the loaded libraries (global functions and their type
schemas, object types with their fields, methods, initializers and native layout) and
rewrites, in place, the regions of source files delimited by stub directives: typed Python
stubs in ``.py``/``.pyi`` files (``--target python``, the default) or ``#[repr(C)]`` Rust
bindings in ``.rs`` files (``--target rust``). ``--coverage-out`` writes which object layouts
are reproducible (:mod:`tvm_ffi.stub.layout`). Run it as ``tvm-ffi-stubgen PATH ...`` or
``python -m tvm_ffi.stub.cli PATH ...``.

The pipeline (:mod:`.cli`) is language-neutral; each target is a
:class:`~tvm_ffi.stub.generator.Generator` (:mod:`.python_generator`, :mod:`.rust_generator`).
"""

from __future__ import annotations

__all__: list[str] = []
