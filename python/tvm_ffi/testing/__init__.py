# SPDX-License-Identifier: Apache-2.0
"""Test support: the ``testing.*`` global functions, classes of the native test types, helpers.

Every ``testing.*`` global function of the testing library is an attribute of this package
(``tvm_ffi.testing.echo``, ...). Importing it needs pytest (for the ``requires_py3*`` markers);
``import tvm_ffi`` does not import it.
"""

from __future__ import annotations

from .. import registry as _registry
from . import _ffi_api  # noqa: F401 - the global functions, also as tvm_ffi.testing._ffi_api

_registry.init_ffi_api("testing", __name__)

# After the globals: the Python helpers replace the functions of the same name.
from . import testing as _testing  # noqa: E402
from ._locking import run_with_gpu_lock  # noqa: E402
from .testing import *  # noqa: E402, F403 - the public names of testing.py
from .testing import (  # noqa: E402, F401 - private, not in __all__
    _SchemaAllTypes,
    _TestCxxAutoInit,
    _TestCxxAutoInitAllInitOff,
    _TestCxxAutoInitChild,
    _TestCxxAutoInitKwOnlyDefaults,
    _TestCxxAutoInitParent,
    _TestCxxAutoInitSimple,
    _TestCxxClassBase,
    _TestCxxClassDerived,
    _TestCxxClassDerivedDerived,
    _TestCxxEnumHolder,
    _TestCxxInitSubset,
    _TestCxxIntEnum,
    _TestCxxKwOnly,
    _TestCxxNoAutoInit,
    _TestCxxStrEnum,
)

__all__ = [name for name in _testing.__all__ if not name.startswith("_")] + ["run_with_gpu_lock"]
