# SPDX-License-Identifier: Apache-2.0
"""Sphinx configuration of the tvm_ffi reference docs (MyST Markdown, built with -W)."""

project = "tvm_ffi"
author = "tvm_ffi developers"
copyright = "tvm_ffi developers"

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]

# Headings get stable anchors (#the-value-cell), so code and other pages can link to sections.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

html_theme = "alabaster"
html_title = "tvm_ffi"
