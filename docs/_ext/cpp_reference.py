# SPDX-License-Identifier: Apache-2.0
"""Sphinx extension: the C++ API reference, from the headers' doc comments.

When the build starts, doxygen reads ``include/tvm/ffi`` and writes XML that breathe renders.
The ``{cpp-headers}`` directive renders every public header of one folder as a section of its
own (``{cpp-headers} tvm/ffi/container`` lists ``array.h``, ``map.h``...).
"""

from __future__ import annotations

import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

ROOT = Path(__file__).resolve().parents[2]
INCLUDE_DIR = ROOT / "include"
PROJECT = "tvm_ffi"


def _doxyfile(output_dir: Path) -> str:
    shared = (ROOT / "docs" / "doxygen.cfg").read_text(encoding="utf-8")
    return shared + f"OUTPUT_DIRECTORY = {output_dir}\n"


def _run_doxygen(output_dir: Path) -> Path:
    if shutil.which("doxygen") is None:
        raise ExtensionError("the C++ reference needs doxygen (apt-get install doxygen)")
    output_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run(["doxygen", "-"], input=_doxyfile(output_dir), text=True, check=True, cwd=ROOT)
    return output_dir / "xml"


def _name_files_by_path(xml_dir: Path) -> None:
    """Name each file compound by its path (``tvm/ffi/extra/dtype.h``), not its base name.

    Two headers share a base name (``dtype.h``, ``base.h``); with paths, breathe's
    ``doxygenfile`` finds each one.
    """
    index_path = xml_dir / "index.xml"
    index = ET.parse(index_path)
    for compound in index.getroot().iter("compound"):
        if compound.get("kind") != "file":
            continue
        file_path = xml_dir / f"{compound.get('refid')}.xml"
        tree = ET.parse(file_path)
        definition = tree.getroot().find("compounddef")
        location = definition.find("location").get("file")
        definition.find("compoundname").text = location
        compound.find("name").text = location
        tree.write(file_path, encoding="UTF-8", xml_declaration=True)
    index.write(index_path, encoding="UTF-8", xml_declaration=True)


def public_headers(folder: str) -> list[str]:
    """List the headers of ``folder`` (under ``include/``), implementation details left out."""
    headers = sorted((INCLUDE_DIR / folder).glob("*.h"))
    return [h.relative_to(INCLUDE_DIR).as_posix() for h in headers if "detail" not in h.stem]


class CppHeaders(SphinxDirective):
    """``{cpp-headers} <folder>``: a section with the reference of each header in the folder."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        """Render each header as a section holding its ``doxygenfile`` reference."""
        headers = public_headers(self.arguments[0])
        if not headers:
            raise self.error(f"no headers in include/{self.arguments[0]}")
        text = StringList()
        for header in headers:
            # The page is MyST Markdown, so the generated text is too.
            for line in (f"## `{header}`", "", f"```{{doxygenfile}} {header}", "```", ""):
                text.append(line, self.get_source_info()[0])
        container = nodes.section()
        nested_parse_with_titles(self.state, text, container)
        return container.children


def _suppress_repeated_namespaces(config: Config) -> None:
    """Each header is rendered with its namespaces, so ``tvm::ffi`` is declared once per header.

    Sphinx reports every such repeat as a duplicate C++ declaration; links go to the first.
    """
    config.suppress_warnings = [*config.suppress_warnings, "duplicate_declaration.cpp"]


def _generate_xml(app: Sphinx, config: Config) -> None:
    xml_dir = _run_doxygen(Path(app.doctreedir) / "doxygen")
    _name_files_by_path(xml_dir)
    config.breathe_projects = {PROJECT: str(xml_dir)}
    config.breathe_default_project = PROJECT
    _suppress_repeated_namespaces(config)


def setup(app: Sphinx) -> dict[str, object]:
    """Register the extension: breathe, the doxygen run and the ``{cpp-headers}`` directive."""
    app.setup_extension("breathe")
    app.connect("config-inited", _generate_xml)
    app.add_directive("cpp-headers", CppHeaders)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
