# SPDX-License-Identifier: Apache-2.0
"""The generators of ``tvm-ffi-stubgen``: one per ``--target`` language.

The pipeline (:mod:`tvm_ffi.stub.cli`) reads the registry and the files and knows nothing of
the target language; a :class:`Generator` (:mod:`.generator_base`) writes all the text. This
module names the generators.
"""

from __future__ import annotations

from .generator_base import Generator
from .python_generator import PythonGenerator
from .rust_generator import RustGenerator

__all__ = ["Generator", "PythonGenerator", "RustGenerator", "generator_names", "get_generator"]


_GENERATORS: dict[str, Generator] = {
    "python": PythonGenerator(),
    "rust": RustGenerator(),
}


def generator_names() -> list[str]:
    """Return the ``--target`` names, sorted."""
    return sorted(_GENERATORS)


def get_generator(target: str) -> Generator:
    """Return the generator of ``target``.

    Raises
    ------
    ValueError
        If no generator has that name.
    """
    generator = _GENERATORS.get(target)
    if generator is None:
        raise ValueError(
            f"Unknown stubgen generator: {target!r}. Known generators: "
            f"{', '.join(generator_names())}"
        )
    return generator
