# SPDX-License-Identifier: Apache-2.0
"""Print, as JSON, what ``tvm_ffi.structural_mutate`` and ``structural_map`` return for big
integers (``ffi.BigInt``, a leaf with mutate hooks of its own) alone and inside containers, and
the in-place modes the callbacks see on the way.

``test_structural_mutate_parity.py`` runs this once with Apache's wheel first on the path and
once with ours, and compares the two.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import tvm_ffi
from tvm_ffi import structural_map, structural_mutate

BIG = 10**30


def outcome(run: Callable[[], Any]) -> list[str]:
    """``[status, type name, repr]`` of run's result or of the exception it raises."""
    try:
        result = run()
    except Exception as err:  # the error is the outcome to compare
        return ["error", type(err).__name__, str(err)]
    return ["ok", type(result).__name__, repr(result)]


def main() -> None:
    """Run each case and print ``{"file": ..., "cases": {name: outcome}}``."""
    modes: list[int] = []

    def by_default(value: Any, mutator: Any) -> Any:
        return mutator.default_mutate(value)

    def by_default_recording(value: Any, mutator: Any, mode: Any) -> Any:
        modes.append(int(mode))
        return mutator.default_mutate(value)

    def plus_one(value: Any, mutator: Any) -> Any:
        return value + 1

    def moved(value: Any) -> Any:
        return tvm_ffi.convert(value)._move()

    shared = tvm_ffi.convert([BIG, [BIG]])
    cases = {
        "root": lambda: structural_mutate(BIG, (object, by_default)),
        "negative_root": lambda: structural_mutate(-BIG, (object, by_default)),
        "in_array": lambda: structural_mutate(tvm_ffi.convert([BIG, 1]), (object, by_default)),
        "in_map": lambda: structural_mutate(tvm_ffi.convert({"a": BIG}), (object, by_default)),
        "in_list": lambda: structural_mutate(tvm_ffi.List([BIG]), (object, by_default)),
        "in_dict": lambda: structural_mutate(tvm_ffi.Dict({BIG: BIG}), (object, by_default)),
        "moved_root": lambda: structural_mutate(moved([BIG, [BIG]]), (object, by_default)),
        "int_callback": lambda: structural_mutate(tvm_ffi.convert([BIG, 1]), (int, plus_one)),
        "map_ints": lambda: structural_map(tvm_ffi.convert([BIG, 2]), (int, lambda v: v * 3)),
        "map_pre_order": lambda: structural_map([BIG], (int, lambda v: v - 1), order="pre"),
        "same_object_without_callback_on_it": lambda: structural_mutate(
            shared, (int, plus_one)
        ).same_as(shared),
        "same_object_through_python_values": lambda: structural_mutate(
            shared, (object, by_default)
        ).same_as(shared),
        "modes_moved": lambda: (
            structural_mutate(moved([[BIG], {"k": BIG}]), (object, by_default_recording)),
            list(modes),
        ),
    }
    results = {name: outcome(run) for name, run in cases.items()}
    print(json.dumps({"file": tvm_ffi.__file__, "cases": results}, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
