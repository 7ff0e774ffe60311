# SPDX-License-Identifier: Apache-2.0
"""A machine-local file lock that serialises the use of GPUs by parallel test processes."""

from __future__ import annotations

import getpass
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, TypeVar

from ..utils.lockfile import FileLock

_R = TypeVar("_R")

_LOCK_DIR_ENV_VAR = "TVM_FFI_TEST_LOCK_DIR"
_LOCK_DIR_PREFIX = "tvm-ffi-test-locks"
_LOCK_FILENAME = "gpu.lock"
# Resolved on first use, so that the environment variable is read once per process.
_GPU_LOCK_PATH: Path | None = None


def _ensure_gpu_lock_path() -> Path:
    """Return the GPU lock file's path, creating its directory when missing.

    The directory is ``$TVM_FFI_TEST_LOCK_DIR`` when set, else
    ``<tempdir>/tvm-ffi-test-locks-<user>`` (per user, so that users sharing a host do not
    fight over the permissions of one directory).

    Returns
    -------
    Path
        The path of ``gpu.lock`` in that directory.
    """
    global _GPU_LOCK_PATH  # noqa: PLW0603 - a per-process cache, reset by tests
    if _GPU_LOCK_PATH is None:
        lock_dir = os.environ.get(_LOCK_DIR_ENV_VAR)
        if not lock_dir:
            user_dir = f"{_LOCK_DIR_PREFIX}-{getpass.getuser()}"
            lock_dir = os.path.join(tempfile.gettempdir(), user_dir)
        _GPU_LOCK_PATH = Path(lock_dir) / _LOCK_FILENAME
    _GPU_LOCK_PATH.parent.mkdir(parents=True, exist_ok=True)
    return _GPU_LOCK_PATH


def run_with_gpu_lock(func: Callable[..., _R], /, *args: Any, **kwargs: Any) -> _R:
    """Call ``func(*args, **kwargs)`` while holding the machine-local GPU lock.

    Test processes running in parallel take turns through this lock, so that only one of them
    uses a GPU at a time. Put the whole life of the device work in ``func`` (allocation, kernels,
    synchronisation, checks) and leave work that needs no device (compiling) outside it. The lock
    is not reentrant: ``func`` must not call ``run_with_gpu_lock`` again.

    Parameters
    ----------
    func
        The callable to run under the lock.
    args
        Positional arguments for ``func``.
    kwargs
        Keyword arguments for ``func``.

    Returns
    -------
    result
        What ``func`` returns; what it raises propagates after the lock is released.
    """
    with FileLock(str(_ensure_gpu_lock_path())):
        return func(*args, **kwargs)
