# SPDX-License-Identifier: Apache-2.0
"""A torch tensor argument whose storage is replaced (``Tensor.set_``) while the call runs.

By default a call views its torch arguments in place and takes the storage only when a tensor
outlives the call (the documented rule: do not replace an argument's storage during the call).
With ``set_pin_torch_storage(True)`` (or ``TVM_FFI_PIN_TORCH_STORAGE=1``) each argument holds
its storage from the start, so the kernel keeps reading the old, still live, memory.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import tvm_ffi
from tvm_ffi import core

torch = pytest.importorskip("torch")

# The kernel reads its argument after the callback replaced the tensor's storage. A child
# process with glibc's heap checks keeps a use after free from taking pytest down.
SWAP_DURING_CALL = """
import sys, threading, torch, tvm_ffi
from tvm_ffi import core
if sys.argv[1] == "api":
    core.set_pin_torch_storage(True)
sum_after = tvm_ffi.get_global_func("testing.tensor_sum_f32_after")
for repeat in range(200):
    t = torch.ones(16)
    def swap():
        t.set_(torch.full((16,), 7.0))
    total = sum_after(t, swap)
    assert total == 16.0, (repeat, total)
    assert t.tolist() == [7.0] * 16
print("ok")
"""


@pytest.mark.parametrize("how", ["api", "environment"])
def test_pinned_argument_survives_its_storage_being_replaced(how: str) -> None:
    env = {"MALLOC_CHECK_": "3", "MALLOC_PERTURB_": "165"}
    if how == "environment":
        env["TVM_FFI_PIN_TORCH_STORAGE"] = "1"
    result = subprocess.run(
        [sys.executable, "-c", SWAP_DURING_CALL, how],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env={**os.environ, **env},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout == "ok\n"


def test_setting_is_returned_and_restored() -> None:
    previous = core.set_pin_torch_storage(True)
    try:
        assert core.set_pin_torch_storage(True) is True
        t = torch.arange(4, dtype=torch.float32)
        # Calls keep working on both conversion paths, and results come back as before.
        sum_after = tvm_ffi.get_global_func("testing.tensor_sum_f32_after")
        assert sum_after(t, lambda: None) == 6.0
        assert tvm_ffi.get_global_func("testing.tensor_sum_f32")(t) == 6.0
    finally:
        assert core.set_pin_torch_storage(previous) is True
    assert core.set_pin_torch_storage(previous) is previous
