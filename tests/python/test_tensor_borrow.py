# SPDX-License-Identifier: Apache-2.0
"""Framework tensor arguments borrowed for the length of a call: what outlives the call."""

from __future__ import annotations

import gc
import sys

import pytest

import tvm_ffi

torch = pytest.importorskip("torch")

ECHO = tvm_ffi.get_global_func("testing.echo")
APPLY = tvm_ffi.get_global_func("testing.apply")
NOP = tvm_ffi.get_global_func("testing.nop")
MAKE_ARRAY = tvm_ffi.get_global_func("testing.make_array_with_tensor")
DATA_PTR3 = tvm_ffi.get_global_func("testing.tensor_data_ptr3")


def test_tensor_kept_in_a_native_container_outlives_the_torch_tensor() -> None:
    source = torch.arange(6.0)
    base = sys.getrefcount(source)
    kept = MAKE_ARRAY(source)
    assert sys.getrefcount(source) == base  # the kept Tensor holds the storage, not the tensor
    del source
    gc.collect()
    assert kept[0].tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_tensor_kept_by_a_callback_outlives_the_torch_tensor() -> None:
    stash = []
    source = torch.arange(4.0)
    APPLY(stash.append, source)
    del source
    gc.collect()
    assert torch.from_dlpack(stash[0]).tolist() == [0.0, 1.0, 2.0, 3.0]


def test_kept_tensor_survives_storage_swap_after_the_call() -> None:
    source = torch.arange(3.0)
    kept = MAKE_ARRAY(source)
    source.set_(torch.zeros(7))
    gc.collect()
    assert kept[0].tolist() == [0.0, 1.0, 2.0]


def test_unkept_arguments_take_no_reference() -> None:
    source = torch.arange(4.0)
    base = sys.getrefcount(source)
    for _ in range(100):
        NOP(source, source)
    assert sys.getrefcount(source) == base


def test_tensor_held_by_a_callback_only_during_the_call() -> None:
    """A view a Python callback referenced only while the call ran takes no reference to the
    torch tensor, and the next call's view sees the tensor's new data."""
    source = torch.arange(4.0)
    base = sys.getrefcount(source)
    seen = []
    for _ in range(50):
        APPLY(lambda view: seen.append(torch.from_dlpack(view).tolist()), source)
    assert sys.getrefcount(source) == base
    source.add_(1.0)
    APPLY(lambda view: seen.append(torch.from_dlpack(view).tolist()), source)
    assert seen[0] == [0.0, 1.0, 2.0, 3.0]
    assert seen[-1] == [1.0, 2.0, 3.0, 4.0]


def test_more_tensors_than_pooled_blocks_in_one_call() -> None:
    """A call with more tensors than the block pool holds (32) makes the rest the full way."""
    sources = [torch.full((2, 3), float(i)) for i in range(80)]
    seen = []
    APPLY(lambda *args: seen.extend(torch.from_dlpack(t)[0, 0].item() for t in args), *sources)
    assert seen == [float(i) for i in range(80)]
    bases = [sys.getrefcount(s) for s in sources]
    for _ in range(50):
        NOP(*sources)
    assert [sys.getrefcount(s) for s in sources] == bases


def test_many_kept_tensors_from_one_call() -> None:
    sources = [torch.full((3,), float(i)) for i in range(50)]
    stash = []
    APPLY(lambda *args: stash.extend(args), *sources)
    del sources
    gc.collect()
    assert [torch.from_dlpack(t).tolist() for t in stash] == [[float(i)] * 3 for i in range(50)]


def test_failing_argument_releases_the_converted_tensors() -> None:
    good = torch.arange(4.0)
    refused = torch.zeros(3, dtype=torch.complex64).conj()
    base = sys.getrefcount(good)
    for _ in range(50):
        with pytest.raises(BufferError, match="conjugate"):
            NOP(good, good, refused, good)
    assert sys.getrefcount(good) == base
    assert DATA_PTR3(good, good, good) == 3 * good.data_ptr()


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.arange(12.0).reshape(3, 4).t(),  # strided
        lambda: torch.arange(2.0 * 3 * 4 * 5 * 2 * 2 * 2 * 2 * 2).reshape([2, 3, 4, 5] + [2] * 5),
        lambda: torch.tensor(5.0),  # zero dimensions
        lambda: torch.arange(8, dtype=torch.int16)[1:],
    ],
)
def test_layouts_reach_native_code(make) -> None:
    """Views the fast path makes, and those it leaves to the full path (more dimensions than a
    pooled block holds), give native code the same tensor."""
    source = make()
    result = ECHO(source)
    assert result.shape == source.shape
    assert result.stride() == source.stride()
    assert result.data_ptr() == source.data_ptr()
    assert torch.equal(result, source)


def test_negative_view_is_still_refused() -> None:
    negated = torch.zeros(4, dtype=torch.complex64).conj().imag
    if not negated.is_neg():
        pytest.skip("this torch sets no negative bit on _neg_view")
    with pytest.raises(BufferError, match="negative"):
        NOP(negated)


def test_borrowed_view_released_into_a_full_pool_is_freed() -> None:
    """A view whose call filled the block pool (a callback released more blocks than it holds)
    is freed at release instead of pooled, and takes no reference to the torch tensor."""
    fillers = [torch.full((2,), float(i)) for i in range(40)]
    calls = []

    def fill_the_pool(view: tvm_ffi.Tensor) -> None:
        NOP(*fillers)  # 40 blocks come back; the pool keeps 32 of them
        calls.append(view.shape)

    callback = tvm_ffi.convert(fill_the_pool)
    source = torch.arange(4.0)
    base = sys.getrefcount(source)
    for _ in range(20):
        callback(source)
    assert calls == [(4,)] * 20
    assert sys.getrefcount(source) == base
    assert DATA_PTR3(source, source, source) == 3 * source.data_ptr()
