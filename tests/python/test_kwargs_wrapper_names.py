# SPDX-License-Identifier: Apache-2.0
"""make_kwargs_wrapper checks argument names as Python compiles them: NFKC-normalized.

``def f(\\uff41)`` defines the parameter ``a`` (PEP 3131), so a name that differs from another,
a keyword or an internal name of the generated code only before normalization must be refused
with a ValueError (not a SyntaxError, nor a wrapper that calls the wrong function).
"""

from __future__ import annotations

import pytest

from tvm_ffi.utils.kwargs_wrapper import make_kwargs_wrapper

FULLWIDTH_A = "\uff41"


def _target(*args):
    return ("target", args)


def test_name_normalizing_to_the_target_is_refused():
    name = "__i_\uff54arget_func"  # fullwidth t: the compiler sees __i_target_func
    with pytest.raises(ValueError, match=r"internal name '__i_target_func' after NFKC"):
        make_kwargs_wrapper(_target, [name])


@pytest.mark.parametrize("internal", ["__i_MISSING", "__i_arg_defaults", "__i_unpack"])
def test_names_normalizing_to_other_internal_names_are_refused(internal):
    name = internal.replace("i", "\uff49", 1)  # fullwidth i
    with pytest.raises(ValueError, match=rf"internal name '{internal}' after NFKC"):
        make_kwargs_wrapper(_target, ["x"], kwonly_names=[name])


@pytest.mark.parametrize(
    ("arg_names", "kwonly_names"),
    [
        (["a", FULLWIDTH_A], []),
        ([], ["a", FULLWIDTH_A]),
        (["a"], [FULLWIDTH_A]),
        (["\ufb01le", "file"], []),  # the fi ligature
    ],
)
def test_names_equal_after_normalization_are_refused(arg_names, kwonly_names):
    with pytest.raises(ValueError, match=r"are the same name '\w+' after NFKC normalization"):
        make_kwargs_wrapper(_target, arg_names, kwonly_names=kwonly_names)


def test_name_normalizing_to_a_keyword_is_refused():
    with pytest.raises(ValueError, match=r"is 'if' after NFKC normalization"):
        make_kwargs_wrapper(_target, ["\uff49f"])


def test_normalizing_names_that_stay_distinct_work():
    wrapper = make_kwargs_wrapper(_target, [FULLWIDTH_A, "b"], arg_defaults=(7,))
    assert wrapper(1) == ("target", (1, 7))
    assert wrapper(a=2, b=3) == ("target", (2, 3))


# Apache's exception types and messages for names that need no normalization.
@pytest.mark.parametrize(
    ("arg_names", "kwonly_names", "error", "message"),
    [
        (["a", "a"], [], ValueError, "Duplicate argument names found in: ['a', 'a']"),
        ([], ["k", "k"], ValueError, "Duplicate keyword-only argument names found in: ['k', 'k']"),
        (
            ["if"],
            [],
            ValueError,
            "Invalid argument name: 'if' is a Python keyword "
            "and cannot be used as a parameter name",
        ),
        (["1a"], [], ValueError, "Invalid argument name: '1a' is not a valid Python identifier"),
        (
            ["__i_target_func"],
            [],
            ValueError,
            "Argument names conflict with internal names: {'__i_target_func'}. "
            'Please avoid using names starting with "__i_"',
        ),
        ([1], [], TypeError, "Argument name must be a string, got int: 1"),
        (
            ["a"],
            ["a"],
            ValueError,
            "Arguments cannot be both positional and keyword-only: {'a'}",
        ),
    ],
)
def test_plain_bad_names_keep_apache_messages(arg_names, kwonly_names, error, message):
    with pytest.raises(error) as caught:
        make_kwargs_wrapper(_target, arg_names, kwonly_names=kwonly_names)
    assert str(caught.value) == message
