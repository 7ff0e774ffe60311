# SPDX-License-Identifier: Apache-2.0
"""Sphinx configuration of the tvm_ffi docs (MyST Markdown, built with -W)."""

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "tvm_ffi"
author = "tvm_ffi developers"
copyright = "tvm_ffi developers"

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "cpp_reference"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "snippets"]

# Headings get stable anchors (#the-value-cell), so code and other pages can link to sections.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist", "substitution"]


def _version() -> str:
    """Return the version from the TVM_FFI_VERSION_* macros of c_api.h (its single source)."""
    header = (Path(__file__).parents[1] / "include/tvm/ffi/c_api.h").read_text(encoding="utf-8")
    macros = dict(re.findall(r"#define TVM_FFI_VERSION_(\w+) (\S+)", header))
    number = ".".join(macros[part] for part in ("MAJOR", "MINOR", "PATCH"))
    return number + macros.get("SUFFIX", '""').strip('"')


# {{ version }} in a page is the package's version.
myst_substitutions = {"version": _version()}

# The Python reference documents the installed package; annotations are shown as text.
autodoc_typehints = "description"
autodoc_member_order = "bysource"
# "Attributes" sections of class docstrings become fields of the class entry, not entries of
# their own beside the annotated attributes.
napoleon_use_ivar = True
# Annotations such as ``type[Object]`` would link ``type`` to any attribute named ``type``
# (``Device.type``...), and Sphinx warns that the target is ambiguous; they stay unlinked.
suppress_warnings = ["ref.python"]

html_theme = "alabaster"
html_title = "tvm_ffi"
# A column wide enough for most code lines (820px of text beside the 220px sidebar); what is
# still wider scrolls sideways inside the column (_static/layout.css), which
# tests/python/test_docs_layout.py checks on every page in a headless browser.
html_theme_options = {"page_width": "1100px", "body_max_width": "none"}
html_static_path = ["_static"]
html_css_files = ["layout.css"]
