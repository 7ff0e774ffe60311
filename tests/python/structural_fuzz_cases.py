# SPDX-License-Identifier: Apache-2.0
"""Seeded fuzz cases for ``structural_visit`` and ``structural_mutate``, run in a child process.

Usage: ``python structural_fuzz_cases.py visit|mutate|cycle FIRST_SEED COUNT``.

Each case draws (from ``random.Random``, so a seed always gives the same case) a value: trees
and DAGs of Array/List/Map/Dict and reflected testing nodes over int/bool/float/str/bytes/None
leaves; the ``cycle`` family also makes a List or node contain itself or an ancestor. Each
container gets an action its callback takes (descend by default, descend child by child, prune,
descend twice, call back on itself again, swallow errors from below, re-enter the structural
functions, raise, interrupt, replace); leaves draw theirs as they are called back.

Expectations come from the generator's own model of the value, not from the runtime: the
sequence of callbacks, the rewritten value, and which exception or interrupt reaches the
caller (the last raised one that no callback caught, itself). A cyclic value must end in
RecursionError or follow the same rules. Before each case the script prints ``case FAMILY SEED``
so that a crash names the case; at the end it prints one JSON line of counters. A wrong result
is an AssertionError naming the seed (a non-zero exit).
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from typing import Any, Callable

import tvm_ffi
from tvm_ffi import Array, Dict, List, Map, Object
from tvm_ffi.structural import (
    InplaceMode,
    StructuralMutator,
    StructuralVisitor,
    VisitInterrupt,
    structural_equal,
    structural_hash,
    structural_mutate,
    structural_visit,
)


def _testing_class(type_key: str) -> type:
    index = tvm_ffi.core._object_type_key_to_index(type_key)
    return tvm_ffi.core._class_for_type_index(index)


NODE = _testing_class("testing.TestStructuralNode")  # fields a, b (+ ignored, not visited)
DAG = _testing_class("testing.TestStructuralDAGNode")  # fields a, b; sharing is compared

CONTAINERS = {"Array": Array, "List": List, "Map": Map, "Dict": Dict, "Node": NODE, "DAG": DAG}
KIND_OF_CLASS = {cls: kind for kind, cls in CONTAINERS.items()}
LEAF_TYPES = {"none": type(None), "bool": bool, "int": int, "float": float, "str": str}
LEAF_TYPES["bytes"] = bytes
CATEGORIES = list(LEAF_TYPES) + list(CONTAINERS)

# Most cases descend by default; the rest of the weight is spread over the other actions.
VISIT_ACTIONS = ["default"] * 4 + ["children", "prune", "twice", "self", "swallow", "reenter"]
MUTATE_ACTIONS = [*VISIT_ACTIONS[:-5], "keep", "nullify", "twice", "self", "swallow", "reenter"]
MAX_CALLS = 2500  # a case whose callback count would pass this drops its "twice" actions


class FuzzError(Exception):
    """A callback's own exception type."""


class FuzzPairError(Exception):
    """A callback's exception whose constructor takes two arguments."""

    def __init__(self, message: str, number: int) -> None:
        super().__init__(message, number)
        self.number = number


FUZZ_ERRORS = (ValueError, KeyError, FuzzError, FuzzPairError)


# ---- the model of a generated value ------------------------------------------------------------


class Model:
    """One node of a generated value: a leaf, or a container with its children and action."""

    def __init__(self, kind: str, value: Any = None, children: list | None = None) -> None:
        self.kind = kind  # "leaf" or a key of CONTAINERS
        self.value = value  # the leaf's Python value
        self.children: list[Model] = children or []
        self.keys: list[Any] = []  # Map/Dict keys, one per child
        self.action = "default"
        self.has_dag = kind == "DAG" or any(child.has_dag for child in self.children)

    def category(self) -> str:
        if self.kind != "leaf":
            return self.kind
        for name in ["none", "bool", "int", "float", "str", "bytes"]:
            if isinstance(self.value, LEAF_TYPES[name]):
                return name
        raise AssertionError(self.value)


def random_leaf(rng: random.Random) -> Any:
    choice = rng.randrange(10)
    if choice == 0:
        return None
    if choice == 1:
        return rng.random() < 0.5
    if choice == 2:
        return rng.randint(-50, 50)
    if choice == 3:
        return rng.choice([2**63 - 1, -(2**63), 2**40 + rng.randint(0, 9)])
    if choice == 4:
        return rng.choice([0.0, -1.5, 1e300, rng.uniform(-1e6, 1e6)])
    if choice == 5:
        return "s" * rng.randint(0, 3)
    if choice == 6:
        return "long-string-" + "x" * rng.randint(10, 40)  # a heap String object
    if choice == 7:
        return rng.choice(["\u00e9t\u00e9", "\u4e2d\u6587", "nul\x00byte"])
    if choice == 8:
        return bytes(rng.randrange(256) for _ in range(rng.choice([0, 3, 40])))
    return rng.randint(-(2**31), 2**31)


class Generator:
    """Draws a model; subtrees already drawn are reused (a DAG) with some probability."""

    def __init__(self, rng: random.Random, actions: list[str], share: float) -> None:
        self.rng = rng
        self.actions = actions
        self.share = share
        self.pool: list[Model] = []
        # (mutable container, its ancestors on the path it was made at), for the cycle family
        self.cycle_sites: list[tuple[Model, list[Model]]] = []

    def draw(self, depth: int, path: list[Model]) -> Model:
        rng = self.rng
        if self.pool and rng.random() < self.share:
            return rng.choice(self.pool)
        if depth == 0 or rng.random() < 0.3:
            return Model("leaf", random_leaf(rng))
        kind = rng.choice(list(CONTAINERS))
        node = Model(kind)
        node.action = rng.choice(self.actions)
        inner = [*path, node]
        count = 2 if kind in ("Node", "DAG") else rng.randint(0, 4)
        node.children = [self.draw(depth - 1, inner) for _ in range(count)]
        node.has_dag = kind == "DAG" or any(child.has_dag for child in node.children)
        if kind in ("Map", "Dict"):
            keys = rng.sample(["a", "b", "key", "\u00fc", 0, 1, -7, 2**40], count)
            node.keys = keys
        if kind in ("List", "Node"):
            self.cycle_sites.append((node, inner))
        if not node.has_dag:  # a shared DAG node would make sharing-sensitive equality differ
            self.pool.append(node)
        return node


def build(model: Model, memo: dict[int, Any], handles: dict[int, Model] | None = None) -> Any:
    """Make the FFI value of ``model``; a model reached twice gives the same object."""
    if model.kind == "leaf":
        return model.value
    if id(model) in memo:
        return memo[id(model)]
    children = [build(child, memo, handles) for child in model.children]
    if model.kind in ("Map", "Dict"):
        value = CONTAINERS[model.kind](dict(zip(model.keys, children)))
    elif model.kind == "Node":
        value = NODE(children[0], children[1], "ignored")
    elif model.kind == "DAG":
        value = DAG(children[0], children[1])
    else:
        value = CONTAINERS[model.kind](children)
    memo[id(model)] = value
    if handles is not None:
        handles[value.__chandle__()] = model
    return value


def ordered_children(model: Model, value: Any) -> list[Model]:
    """The children of ``model`` in the order the runtime holds them in ``value``."""
    if model.kind not in ("Map", "Dict"):
        return model.children
    by_key = {_key(key): child for key, child in zip(model.keys, model.children)}
    return [by_key[_key(key)] for key in value]


def _key(key: Any) -> Any:
    return ("str", str(key)) if isinstance(key, str) else ("int", int(key))


def label(value: Any) -> Any:
    """What a callback saw, as a plain comparable value."""
    if isinstance(value, Object):
        return KIND_OF_CLASS[type(value)]
    if value is None:
        return ("none",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", int(value))
    if isinstance(value, float):
        return ("float", float(value))
    if isinstance(value, str):
        return ("str", str(value))
    if isinstance(value, bytes):
        return ("bytes", bytes(value))
    raise AssertionError(f"unexpected value in a callback: {value!r}")


def model_label(model: Model) -> Any:
    return model.kind if model.kind != "leaf" else label(model.value)


def transform(value: Any) -> Any:
    """The rewrite of a leaf in the ``replace`` profile."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**62:
        return value + 1
    if isinstance(value, str):
        return str(value) + "!"
    return value


# ---- expectations --------------------------------------------------------------------------------


class Expect:
    """The callbacks and result a traversal of a model must give (no raising actions)."""

    def __init__(self, matched: set[str], mutate: bool, rewrite: Callable[[Any], Any]) -> None:
        self.matched = matched
        self.mutate = mutate
        self.rewrite = rewrite
        self.values: dict[int, Any] = {}  # id(model) -> its built value, for map order
        # DAG-kind nodes whose default rewrite ran: the mutator (as Apache's) caches its result,
        # so a later default rewrite of the same node calls back on none of its children.
        self.cached: set[int] = set()

    def labels(self, model: Model, out: list[Any]) -> None:
        """Append the callback records of a traversal of ``model`` to ``out``."""
        category = model.category()
        if category == "none" and not self.mutate:
            return  # visit never calls back on None
        called = category in self.matched
        if called:
            out.append(model_label(model))
        if model.kind == "leaf":
            return
        action = model.action if called else "default"
        if action in ("prune", "keep", "nullify"):
            return
        if action == "self":
            out.append(model_label(model))
        passes = 2 if action == "twice" else 1
        if self.mutate and model.kind == "DAG" and action != "children":
            passes = 0 if id(model) in self.cached else 1
            self.cached.add(id(model))
        for _ in range(passes):
            for child in ordered_children(model, self.values[id(model)]):
                self.labels(child, out)

    def result(self, model: Model) -> tuple[Model, bool]:
        """The model of the rewritten value, and whether it differs from the original."""
        called = model.category() in self.matched
        if model.kind == "leaf":
            value = self.rewrite(model.value) if called else model.value
            return Model("leaf", value), called and label(value) != label(model.value)
        action = model.action if called else "default"
        if action == "keep":
            return model, False
        if action == "nullify":
            return Model("leaf", None), True
        results = [self.result(child) for child in model.children]
        new = Model(model.kind, children=[child for child, _ in results])
        new.keys = model.keys
        return new, action == "children" or any(changed for _, changed in results)


def occurrences(model: Model, with_none: bool) -> int:
    """How many values a default traversal of ``model`` calls back on."""
    if model.kind == "leaf":
        return int(with_none or model.value is not None)
    return 1 + sum(occurrences(child, with_none) for child in model.children)


def call_bound(model: Model) -> int:
    """An upper bound of the callbacks of a traversal of ``model`` with its actions."""
    if model.kind == "leaf":
        return 1
    factor = 2 if model.action == "twice" else 1
    return 2 + factor * sum(call_bound(child) for child in model.children)


def drop_twice(model: Model, seen: set[int]) -> None:
    if id(model) in seen:
        return
    seen.add(id(model))
    if model.action == "twice":
        model.action = "default"
    for child in model.children:
        drop_twice(child, seen)


# ---- the callbacks ------------------------------------------------------------------------------


class Run:
    """The state of one traversal: the callbacks' records and the events that decide its end."""

    def __init__(self, rng: random.Random, profile: str, handles: dict[int, Model]) -> None:
        self.rng = rng
        self.profile = profile
        self.handles = handles
        self.raising = profile in ("raising", "interrupt", "moved")
        self.cyclic = profile == "cycle"
        self.labels: list[Any] = []
        self.events: list[tuple[str, Any, int]] = []  # (raise|caught|interrupt, what, depth)
        self.depth = 0
        self.self_calls: set[int] = set()
        self.counters: Counter = Counter()
        self.rewrite: Callable[[Any], Any] = lambda value: value

    # -- shared helpers

    def action_of(self, value: Any) -> str:
        """The action of a container (drawn with the value); a leaf draws one now."""
        if isinstance(value, Object):
            model = self.handles.get(value.__chandle__())
            return model.action if model is not None else "default"
        if self.raising and self.rng.random() < 0.12:
            return "raise"
        if self.rng.random() < 0.05:
            return "reenter"
        return "leaf"

    def fail(self, where: str) -> None:
        self.counters["raise"] += 1
        number = len(self.events)
        message = f"fuzz {where} #{number}"
        kind = self.rng.randrange(4)
        error: Exception
        if kind == 0:
            error = ValueError(message)
        elif kind == 1:
            error = KeyError(message)
        elif kind == 2:
            error = FuzzError(message)
        else:
            error = FuzzPairError(message, number)
        self.events.append(("raise", error, self.depth))
        raise error

    def caught(self, error: BaseException) -> None:
        """Record that a callback caught ``error``, which must be the last one raised."""
        raised = [event for event in self.events if event[0] == "raise"]
        assert raised and raised[-1][1] is error, (
            f"caught {error!r}, but the last raised was {raised[-1][1] if raised else None!r}"
        )
        self.counters["caught"] += 1
        self.events.append(("caught", error, self.depth))

    def reenter(self, value: Any) -> None:
        """Call the structural functions on ``value`` from inside a callback."""
        model = self.handles.get(value.__chandle__()) if isinstance(value, Object) else None
        choice = self.rng.randrange(5 if self.raising else 4)
        self.counters[f"reenter_{choice}"] += 1
        if choice == 0:
            seen = [0]

            def count(inner: Any, visitor: StructuralVisitor) -> Any:
                seen[0] += 1
                return visitor.default_visit(inner)

            assert structural_visit(value, count) is None
            if model is not None and not self.cyclic:
                assert seen[0] == occurrences(model, False), (seen[0], occurrences(model, False))
        elif choice == 1:
            assert structural_equal(value, value) or self.cyclic
            assert structural_hash(value) == structural_hash(value)
            if model is not None and not self.cyclic:
                copy = build(model, {})
                assert structural_equal(value, copy)
                assert structural_hash(value) == structural_hash(copy)
        elif choice == 2:
            same = structural_mutate(value, lambda inner, m: m.default_mutate(inner))
            assert structural_equal(same, value) or self.cyclic
        elif choice == 3:
            seen = []
            structural_visit(value, lambda inner, visitor: seen.append(label(inner)))
            assert seen == ([] if value is None else [label(value)])
        else:
            self._reenter_raising(value)

    def _reenter_raising(self, value: Any) -> None:
        """An inner visit whose callback raises; its error crosses two traversals."""
        stop = self.rng.randint(1, 3)
        calls = [0]

        def inner(node: Any, visitor: StructuralVisitor) -> Any:
            calls[0] += 1
            if calls[0] == stop:
                self.fail("inner")
            return visitor.default_visit(node)

        if self.rng.random() < 0.5:
            structural_visit(value, inner)
            return
        try:
            structural_visit(value, inner)
        except FUZZ_ERRORS as error:
            self.caught(error)

    # -- structural_visit

    def visit(self, value: Any, visitor: StructuralVisitor) -> Any:
        assert isinstance(visitor, StructuralVisitor)
        self.labels.append(label(value))
        self.depth += 1
        try:
            return self._visit(value, visitor)
        finally:
            self.depth -= 1

    def _visit(self, value: Any, visitor: StructuralVisitor) -> Any:
        action = self.action_of(value)
        if action == "leaf":
            return None
        if action == "raise":
            self.fail("visit")
        if self.profile == "interrupt" and self.rng.random() < 0.08:
            token = f"stop #{len(self.events)}"
            self.events.append(("interrupt", token, self.depth))
            self.counters["interrupt"] += 1
            return VisitInterrupt(token)
        if action == "reenter":
            self.reenter(value)
            if not isinstance(value, Object):
                return None
        if isinstance(value, Object) and self.raising and self.rng.random() < 0.1:
            self.fail("visit-node")
        handle = value.__chandle__()
        if action == "prune":
            return None
        if action == "children":
            for child in _children(value):
                interrupt = visitor.visit(child)
                if interrupt is not None:
                    return interrupt
            return None
        if action == "twice":
            interrupt = visitor.default_visit(value)
            return interrupt if interrupt is not None else visitor.default_visit(value)
        if action == "self":
            if handle in self.self_calls:
                self.self_calls.discard(handle)
                return visitor.default_visit(value)
            self.self_calls.add(handle)
            return visitor.visit(value)
        if action == "swallow":
            try:
                return visitor.default_visit(value)
            except FUZZ_ERRORS as error:
                self.caught(error)
                return None
        return visitor.default_visit(value)

    # -- structural_mutate

    def mutate(self, value: Any, mutator: StructuralMutator, mode: Any = None) -> Any:
        assert isinstance(mutator, StructuralMutator)
        if mode is not None:
            assert mode in (InplaceMode.DISALLOW, InplaceMode.ALLOW), mode  # a plain int
            if self.profile != "moved":
                assert mode == InplaceMode.DISALLOW, mode
        self.labels.append(label(value))
        self.depth += 1
        try:
            return self._mutate(value, mutator)
        finally:
            self.depth -= 1

    def _mutate(self, value: Any, mutator: StructuralMutator) -> Any:
        action = self.action_of(value)
        if action == "raise":
            self.fail("mutate")
        if action == "reenter":
            self.reenter(value)
        if not isinstance(value, Object):
            return self.rewrite(value)
        if self.raising and self.rng.random() < 0.1:
            self.fail("mutate-node")
        handle = value.__chandle__()
        if action == "keep":
            return value
        if action == "nullify":
            return None
        if action == "children":
            return _rebuild(value, [mutator.mutate(child) for child in _children(value)])
        if action == "twice":
            first = mutator.default_mutate(value)
            second = mutator.default_mutate(value)
            assert structural_equal(first, second) or self.cyclic
            return second
        if action == "self":
            if handle in self.self_calls:
                self.self_calls.discard(handle)
                return mutator.default_mutate(value)
            self.self_calls.add(handle)
            return mutator.mutate(value)
        if action == "swallow":
            try:
                return mutator.default_mutate(value)
            except FUZZ_ERRORS as error:
                self.caught(error)
                return value
        return mutator.default_mutate(value)


def _children(value: Any) -> list[Any]:
    if isinstance(value, (Map, Dict)):
        return list(value.values())
    if isinstance(value, (NODE, DAG)):
        return [value.a, value.b]
    return list(value)


def _rebuild(value: Any, children: list[Any]) -> Any:
    if isinstance(value, (Map, Dict)):
        return type(value)(dict(zip(value.keys(), children)))
    if isinstance(value, NODE):
        return NODE(children[0], children[1], value.ignored)
    if isinstance(value, DAG):
        return DAG(children[0], children[1])
    return type(value)(children)


# ---- cases --------------------------------------------------------------------------------------


def callback_entries(rng: random.Random, fn: Callable[..., Any]) -> tuple[Any, set[str]]:
    """The callbacks argument of a case, and the value categories it calls back on."""
    if rng.random() < 0.5:
        return (fn if rng.random() < 0.5 else (object, fn)), set(CATEGORIES)
    matched = set(rng.sample(CATEGORIES, rng.randint(1, len(CATEGORIES))))
    types = [LEAF_TYPES.get(name) or CONTAINERS[name] for name in sorted(matched)]
    if rng.random() < 0.5:
        return (tuple(types), fn), matched
    return [(cls, fn) for cls in types], matched


def check_outcome(run: Run, outcome: tuple[str, Any], family: str) -> None:
    """The last raised error no callback caught, or the last interrupt, reaches the caller."""
    last = run.events[-1] if run.events else ("none", None, 0)
    kind, got = outcome
    if last[0] == "raise":
        error = last[1]
        assert kind == "raise", f"{error!r} was raised in a callback, but the call gave {got!r}"
        assert type(got) is type(error) and str(got) == str(error), (got, error)
        assert got is error, f"{got!r} is not the raised object"
        run.counters["raise_reached_caller"] += 1
        if last[2] >= 2:
            run.counters["nested_raise_reached_caller"] += 1
        return
    assert kind == "return", f"{got!r} reached the caller; events: {run.events}"
    if last[0] == "interrupt":
        assert isinstance(got, VisitInterrupt) and got.value == last[1], (got, last)
        run.counters["interrupt_reached_caller"] += 1
    elif family == "visit":
        assert got is None, got


def draw_model(rng: random.Random, actions: list[str]) -> tuple[Model, Generator]:
    generator = Generator(rng, actions, share=rng.choice([0.0, 0.2, 0.4]))
    model = generator.draw(rng.randint(0, 4), [])
    if call_bound(model) > MAX_CALLS:
        drop_twice(model, set())
    return model, generator


def visit_case(rng: random.Random, counters: Counter) -> None:
    profile = rng.choice(["clean", "clean", "raising", "interrupt"])
    model, _ = draw_model(rng, VISIT_ACTIONS)
    handles: dict[int, Model] = {}
    memo: dict[int, Any] = {}
    root = build(model, memo, handles)
    run = Run(rng, profile, handles)
    callbacks, matched = callback_entries(rng, run.visit)
    try:
        outcome: tuple[str, Any] = ("return", structural_visit(root, callbacks))
    except FUZZ_ERRORS as error:
        outcome = ("raise", error)
    check_outcome(run, outcome, "visit")
    if not run.events:
        expect = Expect(matched, mutate=False, rewrite=lambda value: value)
        expect.values = memo
        expected: list[Any] = []
        expect.labels(model, expected)
        assert run.labels == expected, f"callbacks {run.labels}\nexpected {expected}"
        counters["visit_order_checked"] += 1
    counters.update(run.counters)
    counters[f"visit_{profile}"] += 1


def mutate_case(rng: random.Random, counters: Counter) -> None:
    profile = rng.choice(["identity", "replace", "raising", "moved"])
    model, _ = draw_model(rng, MUTATE_ACTIONS if profile != "moved" else ["default"])
    handles: dict[int, Model] = {}
    memo: dict[int, Any] = {}
    root = build(model, memo, handles)
    run = Run(rng, profile, handles if profile != "moved" else {})
    if profile in ("replace", "moved"):
        run.rewrite = transform
    three = rng.random() < 0.5
    if three:
        fn: Callable[..., Any] = run.mutate
    else:

        def fn(value: Any, mutator: StructuralMutator) -> Any:
            return run.mutate(value, mutator)

    callbacks, matched = callback_entries(rng, fn)
    argument = build(model, {})._move() if profile == "moved" and model.kind != "leaf" else root
    try:
        outcome: tuple[str, Any] = ("return", structural_mutate(argument, callbacks))
    except FUZZ_ERRORS as error:
        outcome = ("raise", error)
    check_outcome(run, outcome, "mutate")
    assert structural_equal(root, build(model, {})), "the input was modified"
    if not run.events:
        expect = Expect(matched, mutate=True, rewrite=run.rewrite)
        expect.values = memo
        expected: list[Any] = []
        expect.labels(model, expected)
        assert run.labels == expected, f"callbacks {run.labels}\nexpected {expected}"
        result_model, changed = expect.result(model)
        result = outcome[1]
        assert structural_equal(result, build(result_model, {})), (result, root)
        if profile != "moved" and isinstance(root, Object):
            same = isinstance(result, Object) and result.same_as(root)
            assert same != changed, f"changed={changed}, but the result is the input: {same}"
            counters["mutate_identity_checked"] += 1
        counters["mutate_result_checked"] += 1
    counters.update(run.counters)
    counters[f"mutate_{profile}"] += 1


def cycle_case(rng: random.Random, counters: Counter) -> None:
    family = rng.choice(["visit", "mutate"])
    actions = [a for a in (VISIT_ACTIONS if family == "visit" else MUTATE_ACTIONS) if a != "twice"]
    generator = Generator(rng, actions, share=rng.choice([0.0, 0.3]))
    model = generator.draw(rng.randint(1, 4), [])
    if not generator.cycle_sites:
        model = Model("List", children=[model])
        model.action = rng.choice(actions)
        generator.cycle_sites.append((model, [model]))
    handles: dict[int, Model] = {}
    memo: dict[int, Any] = {}
    root = build(model, memo, handles)
    site, ancestors = rng.choice(generator.cycle_sites)
    target = memo[id(rng.choice(ancestors))]
    holder = memo[id(site)]
    field = rng.choice(["a", "b"])
    if site.kind == "List":
        holder.append(target)
    else:
        setattr(holder, field, target)
    run = Run(rng, "cycle", handles)
    run.raising = rng.random() < 0.5
    callbacks, _ = callback_entries(rng, run.visit if family == "visit" else run.mutate)
    try:
        if family == "visit":
            outcome: tuple[str, Any] = ("return", structural_visit(root, callbacks))
        else:
            outcome = ("return", structural_mutate(root, callbacks))
    except RecursionError:
        outcome = ("recursion", None)
        counters["cycle_recursion_error"] += 1
    except FUZZ_ERRORS as error:
        outcome = ("raise", error)
    finally:
        if site.kind == "List":
            holder.pop()
        else:
            setattr(holder, field, build(site.children["ab".index(field)], memo))
    if outcome[0] != "recursion":
        check_outcome(run, outcome, family)
        counters["cycle_ended"] += 1
    assert structural_equal(root, build(model, {})), "the input was modified"
    counters.update(run.counters)


FAMILIES = {"visit": visit_case, "mutate": mutate_case, "cycle": cycle_case}


def main(argv: list[str]) -> None:
    if len(argv) != 3 or argv[0] not in FAMILIES:
        raise SystemExit(f"usage: {sys.argv[0]} {'|'.join(FAMILIES)} FIRST_SEED COUNT")
    family, first, count = argv[0], int(argv[1]), int(argv[2])
    if family == "cycle":
        # Unwinding an error costs time per callback level: a lower limit keeps cycles quick.
        sys.setrecursionlimit(250)
    counters: Counter = Counter()
    for seed in range(first, first + count):
        print(f"case {family} {seed}", flush=True)
        rng = random.Random(f"{family}-{seed}")
        try:
            FAMILIES[family](rng, counters)
        except AssertionError as error:
            raise AssertionError(f"case {family} {seed}: {error}") from error
        counters["cases"] += 1
    print(json.dumps(dict(counters), sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
