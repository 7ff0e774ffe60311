# SPDX-License-Identifier: Apache-2.0
"""An advisory inter-process file lock (``flock`` on POSIX, ``msvcrt.locking`` on Windows)."""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Literal

if sys.platform.startswith("win32"):
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


class FileLock:
    """An exclusive advisory lock on a file, shared by every process that uses the same path.

    The lock file is created when missing and left in place on release. The lock is
    per instance: a second instance in the same process is refused like another process
    would be. Usable as a context manager, which blocks until the lock is taken.

    Examples
    --------
    >>> with FileLock("/tmp/my_build.lock"):
    ...     pass  # only one process at a time runs this
    """

    def __init__(self, lock_file_path: str) -> None:
        self.lock_file_path = lock_file_path
        self._file_descriptor: int | None = None

    def acquire(self) -> bool:
        """Try once to take the lock without waiting.

        Returns
        -------
        bool
            True when the lock was taken; False when another holder has it, or when this
            instance already holds it.

        Raises
        ------
        RuntimeError
            If the lock file cannot be opened or created (e.g. its directory is missing).
        """
        if self._file_descriptor is not None:
            return False
        try:
            fd = os.open(self.lock_file_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise RuntimeError(
                f"FileLock.acquire(): cannot open lock file '{self.lock_file_path}': {err}"
            ) from err
        if not _try_lock(fd):
            os.close(fd)
            return False
        self._file_descriptor = fd
        return True

    def blocking_acquire(self, timeout: float | None = None, poll_interval: float = 0.1) -> bool:
        """Wait until the lock is taken, trying every ``poll_interval`` seconds.

        Parameters
        ----------
        timeout
            Give up after this many seconds; None waits forever.
        poll_interval
            Seconds between two tries.

        Returns
        -------
        bool
            True once the lock is held.

        Raises
        ------
        TimeoutError
            If ``timeout`` passes first.
        RuntimeError
            If this instance already holds the lock, or the lock file cannot be opened.
        """
        if self._file_descriptor is not None:
            raise RuntimeError("Lock is already held by this instance.")
        start = time.monotonic()
        while not self.acquire():
            if timeout is not None and time.monotonic() - start >= timeout:
                raise TimeoutError(
                    f"Failed to acquire lock on '{self.lock_file_path}' after {timeout} seconds."
                )
            time.sleep(poll_interval)
        return True

    def release(self) -> None:
        """Release the lock and close the lock file; does nothing when not held."""
        fd, self._file_descriptor = self._file_descriptor, None
        if fd is None:
            return
        try:
            _unlock(fd)
        finally:
            os.close(fd)

    def __enter__(self) -> FileLock:
        self.blocking_acquire()
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> Literal[False]:
        self.release()
        return False
