# SPDX-License-Identifier: Apache-2.0
"""Reference cycles made through native containers and fields (issue 38, item 3), as
docs/guide/python.md ('Reference cycles') describes them: Python's cycle collector cannot see
native references, so such a cycle stays alive until the program breaks it; once broken, the
objects are freed at once. A Python payload held by the cycle tells, through a weakref, whether
the cycle is still alive."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import tvm_ffi
from tvm_ffi import testing
from tvm_ffi.dataclasses import py_class


class Payload:
    """A Python object the cycle holds; ``owner`` lets a test reach a cycle it dropped."""

    owner: Any = None


@py_class("test_native_reference_cycles.Node")
class Node(tvm_ffi.Object):
    payload: Any = None
    next: Any = None


def _list_cycle() -> tuple[tvm_ffi.List, weakref.ref]:
    payload = Payload()
    cycle = tvm_ffi.List([payload])
    cycle.append(cycle)
    payload.owner = cycle
    return cycle, weakref.ref(payload)


def _node_cycle() -> tuple[Node, weakref.ref]:
    payload = Payload()
    node = Node(payload)
    node.next = node
    payload.owner = node
    return node, weakref.ref(payload)


def test_a_list_containing_itself_holds_a_reference_to_itself() -> None:
    cycle, _ = _list_cycle()
    assert testing.object_use_count(cycle) == 2  # this handle and the List's own element
    cycle.clear()
    assert testing.object_use_count(cycle) == 1


def test_a_list_cycle_survives_the_collector_until_cleared() -> None:
    cycle, payload = _list_cycle()
    del cycle
    gc.collect()
    leaked = payload()
    assert leaked is not None  # not collected: the List still holds itself
    leaked.owner.clear()  # break the cycle: the List drops itself and the payload ...
    del leaked
    assert payload() is None  # ... which is freed at once


def test_an_object_field_cycle_survives_the_collector_until_reset() -> None:
    node, payload = _node_cycle()
    del node
    gc.collect()
    leaked = payload()
    assert leaked is not None
    leaked.owner.next = None  # break the cycle (and the payload's own way back to the node)
    leaked.owner = None
    del leaked
    assert payload() is None


def test_a_cycle_broken_before_the_last_reference_goes_is_freed_at_once() -> None:
    node, payload = _node_cycle()
    node.payload.owner = None  # no Python-side reference back to the node either
    node.next = None
    del node
    assert payload() is None  # reference counting alone, no collector run needed
