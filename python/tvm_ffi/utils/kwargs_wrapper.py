# SPDX-License-Identifier: Apache-2.0
"""Generate fast Python wrappers that add keywords and defaults to positional-only callables.

The wrapper is real Python source compiled with ``exec``, so binding arguments costs what
a plain Python call costs and the interpreter itself reports missing, duplicate and
unknown arguments.
"""

from __future__ import annotations

import functools
import inspect
import keyword
import unicodedata
from collections.abc import Iterable
from typing import Any, Callable

from ..core import MISSING
from .unpack_dataclass import unpack_dataclass_to_tuple

# Globals of the generated code; argument names may not take them.
_INTERNAL_TARGET_FUNC = "__i_target_func"
_INTERNAL_MISSING = "__i_MISSING"
_INTERNAL_DEFAULTS_DICT = "__i_arg_defaults"
_INTERNAL_UNPACK = "__i_unpack"
_INTERNAL_NAMES = {
    _INTERNAL_TARGET_FUNC,
    _INTERNAL_MISSING,
    _INTERNAL_DEFAULTS_DICT,
    _INTERNAL_UNPACK,
}


def _validate_argument_names(names: list[str], arg_type: str) -> None:
    """Reject duplicates, non-strings, non-identifiers and keywords among ``names``.

    ``arg_type`` names their kind in the messages, capitalized (``"Argument"``,
    ``"Keyword-only argument"``).
    """
    what = arg_type.lower()
    if len(set(names)) != len(names):
        raise ValueError(f"Duplicate {what} names found in: {names}")
    for name in names:
        if not isinstance(name, str):
            raise TypeError(
                f"{arg_type} name must be a string, got {type(name).__name__}: {name!r}"
            )
        if keyword.iskeyword(name):
            raise ValueError(
                f"Invalid {what} name: {name!r} is a Python keyword "
                "and cannot be used as a parameter name"
            )
        if not name.isidentifier():
            raise ValueError(f"Invalid {what} name: {name!r} is not a valid Python identifier")


def _validate_normalized_names(names: list[str], reserved_names: set[str]) -> None:
    """Check ``names`` as the compiler sees them: NFKC-normalized (PEP 3131).

    ``"\uff41"`` (fullwidth a) is the parameter ``a``, so names that differ only before
    normalization collide, and one may turn into a keyword or an internal name.
    """
    seen: dict[str, str] = {}
    for name in names:
        normal = unicodedata.normalize("NFKC", name)
        if normal != name:
            if not normal.isidentifier() or keyword.iskeyword(normal):
                raise ValueError(
                    f"make_kwargs_wrapper(): argument name {name!r} is {normal!r} after NFKC "
                    "normalization, which is not a usable identifier; expected an identifier "
                    "that is not a keyword"
                )
            if normal in reserved_names:
                raise ValueError(
                    f"make_kwargs_wrapper(): argument name {name!r} is the internal name "
                    f'{normal!r} after NFKC normalization; avoid names starting with "__i_"'
                )
        if normal in seen:
            raise ValueError(
                f"make_kwargs_wrapper(): argument names {seen[normal]!r} and {name!r} are the "
                f"same name {normal!r} after NFKC normalization; expected distinct names"
            )
        seen[normal] = name


def _validate_wrapper_args(
    arg_names: list[str],
    arg_defaults: tuple[Any, ...],
    kwonly_names: list[str],
    kwonly_defaults: dict[str, Any],
    reserved_names: set[str],
) -> None:
    """Check the arguments of :func:`make_kwargs_wrapper`; no name may be in ``reserved_names``.

    The checks on the names as given come first, with Apache's messages; then the checks on
    the names as the compiler normalizes them.
    """
    _validate_argument_names(arg_names, "Argument")
    if not isinstance(arg_defaults, tuple):
        raise TypeError(f"arg_defaults must be a tuple, got {type(arg_defaults).__name__}")
    if len(arg_defaults) > len(arg_names):
        raise ValueError(
            f"arg_defaults has {len(arg_defaults)} values "
            f"but only {len(arg_names)} positional arguments"
        )
    _validate_argument_names(kwonly_names, "Keyword-only argument")
    for name in kwonly_defaults:
        if name not in kwonly_names:
            raise ValueError(
                f"Default provided for '{name}' which is not in kwonly_names: {kwonly_names}"
            )
    overlap = set(arg_names) & set(kwonly_names)
    if overlap:
        raise ValueError(f"Arguments cannot be both positional and keyword-only: {overlap}")
    reserved = (set(arg_names) | set(kwonly_names)) & set(reserved_names)
    if reserved:
        raise ValueError(
            f"Argument names conflict with internal names: {reserved}. "
            'Please avoid using names starting with "__i_"'
        )
    _validate_normalized_names([*arg_names, *kwonly_names], reserved_names)


def _is_inlined_default(value: Any) -> bool:
    """None and bools are written into the signature; other defaults go through MISSING."""
    return value is None or value is True or value is False


def _parameter(name: str, defaults: dict[str, Any]) -> str:
    if name not in defaults:
        return name
    value = defaults[name]
    return f"{name}={value!r}" if _is_inlined_default(value) else f"{name}={_INTERNAL_MISSING}"


def _argument(name: str, defaults: dict[str, Any], unpacked: set[str]) -> str:
    """Return the expression passing ``name`` on: default put in for MISSING, then unpacked."""
    expr = name
    if name in defaults and not _is_inlined_default(defaults[name]):
        expr = f'{_INTERNAL_DEFAULTS_DICT}["{name}"] if {name} is {_INTERNAL_MISSING} else {name}'
    return f"{_INTERNAL_UNPACK}({expr})" if name in unpacked else expr


def _build_wrapper_code(
    arg_names: list[str],
    arg_defaults: tuple[Any, ...],
    kwonly_names: list[str],
    kwonly_defaults: dict[str, Any],
    dc_to_tuple_set: set[str],
) -> tuple[str, dict[str, Any]]:
    """Return the source of ``wrapper`` and the defaults it reads at run time.

    Those are the defaults other than None and bools (which are written into the source),
    by name; the arguments named in ``dc_to_tuple_set`` are unpacked before the call.
    """
    defaults = dict(zip(arg_names[len(arg_names) - len(arg_defaults) :], arg_defaults))
    defaults.update(kwonly_defaults)
    params = [_parameter(name, defaults) for name in arg_names]
    if kwonly_names:
        params += ["*", *(_parameter(name, defaults) for name in kwonly_names)]
    unpacked = set(dc_to_tuple_set)
    args = [_argument(name, defaults, unpacked) for name in [*arg_names, *kwonly_names]]
    source = (
        f"\ndef wrapper({', '.join(params)}):\n"
        f"    return {_INTERNAL_TARGET_FUNC}({', '.join(args)})\n"
    )
    runtime = {name: value for name, value in defaults.items() if not _is_inlined_default(value)}
    return source, runtime


def make_kwargs_wrapper(  # noqa: PLR0917 - upstream's positional signature
    target_func: Callable[..., Any],
    arg_names: list[str],
    arg_defaults: tuple[Any, ...] = (),
    kwonly_names: list[str] | None = None,
    kwonly_defaults: dict[str, Any] | None = None,
    prototype: Callable[..., Any] | None = None,
    map_dataclass_to_tuple: list[str] | None = None,
) -> Callable[..., Any]:
    """Wrap a positional-only callable in a function that also takes keywords and defaults.

    The wrapper always calls ``target_func`` with every argument, positionally, in the order
    ``arg_names`` then ``kwonly_names``.

    Parameters
    ----------
    target_func
        The callable to wrap; it receives positional arguments only.
    arg_names
        Every positional-or-keyword parameter of the wrapper, in order.
    arg_defaults
        Defaults of the last ``len(arg_defaults)`` of ``arg_names`` (like ``__defaults__``).
    kwonly_names
        Keyword-only parameters, after ``arg_names``; none may repeat one of ``arg_names``.
    kwonly_defaults
        Defaults of some of ``kwonly_names`` (like ``__kwdefaults__``); the rest are required.
    prototype
        A function whose name, docstring, module, annotations and signature (through
        ``__wrapped__``) the wrapper takes on.
    map_dataclass_to_tuple
        Parameters whose values (defaults included) are passed through
        :func:`~tvm_ffi.utils.unpack_dataclass.unpack_dataclass_to_tuple`; unknown names are
        ignored.

    Returns
    -------
    Callable
        The wrapper. None and bool defaults appear as such in its signature; any other default
        shows as ``MISSING`` and is substituted when the caller omits the argument (or passes
        ``MISSING``).

    Raises
    ------
    TypeError
        If a name is not a str or ``arg_defaults`` is not a tuple.
    ValueError
        If names repeat, are not identifiers, are keywords, start like the wrapper's internal
        names (``__i_``) or appear in both lists, also once NFKC-normalized as Python
        normalizes identifiers; if there are more defaults than positional
        parameters, or a keyword-only default names an unknown parameter.

    Examples
    --------
    >>> add = make_kwargs_wrapper(lambda a, b: a + b, ["a", "b"], arg_defaults=(10,))
    >>> add(1), add(a=1, b=2)
    (11, 3)
    """
    arg_names = list(arg_names)
    kwonly_names = list(kwonly_names or [])
    kwonly_defaults = {} if kwonly_defaults is None else kwonly_defaults
    _validate_wrapper_args(arg_names, arg_defaults, kwonly_names, kwonly_defaults, _INTERNAL_NAMES)
    unpacked = set(map_dataclass_to_tuple or ()) & {*arg_names, *kwonly_names}
    source, runtime_defaults = _build_wrapper_code(
        arg_names, arg_defaults, kwonly_names, kwonly_defaults, unpacked
    )
    namespace: dict[str, Any] = {
        _INTERNAL_TARGET_FUNC: target_func,
        _INTERNAL_MISSING: MISSING,
        _INTERNAL_DEFAULTS_DICT: runtime_defaults,
    }
    if unpacked:
        namespace[_INTERNAL_UNPACK] = unpack_dataclass_to_tuple
    exec(source, namespace)
    wrapper: Callable[..., Any] = namespace.pop("wrapper")
    if prototype is not None:
        # As Apache's: the prototype's __dict__ is not copied onto the wrapper.
        functools.update_wrapper(wrapper, prototype, updated=())
    return wrapper


def make_kwargs_wrapper_from_signature(
    target_func: Callable[..., Any],
    signature: inspect.Signature,
    prototype: Callable[..., Any] | None = None,
    exclude_arg_names: Iterable[str] | None = None,
    map_dataclass_to_tuple: list[str] | None = None,
) -> Callable[..., Any]:
    """Like :func:`make_kwargs_wrapper`, with the parameters taken from ``signature``.

    Positional-only parameters become positional-or-keyword ones; annotations are dropped
    (give ``prototype`` to keep them).

    Parameters
    ----------
    target_func
        The callable to wrap; it receives positional arguments only.
    signature
        The wrapper's parameters, their kinds and defaults.
    prototype
        As for :func:`make_kwargs_wrapper`.
    exclude_arg_names
        Parameters of ``signature`` to leave out; names it lacks are ignored.
    map_dataclass_to_tuple
        As for :func:`make_kwargs_wrapper`.

    Returns
    -------
    Callable
        The wrapper.

    Raises
    ------
    ValueError
        If a parameter that is not excluded is ``*args`` or ``**kwargs``.
    """
    excluded = set(exclude_arg_names or ())
    arg_names: list[str] = []
    arg_defaults: list[Any] = []
    kwonly_names: list[str] = []
    kwonly_defaults: dict[str, Any] = {}
    for param in signature.parameters.values():
        if param.name in excluded:
            continue
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            raise ValueError("*args not supported in wrapper generation")
        if param.kind is inspect.Parameter.VAR_KEYWORD:
            raise ValueError("**kwargs not supported in wrapper generation")
        has_default = param.default is not inspect.Parameter.empty
        if param.kind is inspect.Parameter.KEYWORD_ONLY:
            kwonly_names.append(param.name)
            if has_default:
                kwonly_defaults[param.name] = param.default
        else:
            arg_names.append(param.name)
            if has_default:
                arg_defaults.append(param.default)
    return make_kwargs_wrapper(
        target_func,
        arg_names,
        tuple(arg_defaults),
        kwonly_names,
        kwonly_defaults,
        prototype=prototype,
        map_dataclass_to_tuple=map_dataclass_to_tuple,
    )
