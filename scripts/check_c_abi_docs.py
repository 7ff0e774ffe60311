# SPDX-License-Identifier: Apache-2.0
"""Report the declarations of the C ABI headers that have no doc comment.

Reads the XML doxygen wrote for the C ABI headers (scripts/lint.sh, doxygen_c_abi_check) and
lists every undocumented struct, struct member, function, typedef, enum, enumerator and macro.
doxygen's own WARN_IF_UNDOCUMENTED covers most of them, but doxygen before 1.9.8 never reports
enumerators, so this check sees every kind. Exits 1 when something is undocumented; with
--count it prints "documented/total" instead and always exits 0.
"""

from __future__ import annotations

import argparse
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple


class Declaration(NamedTuple):
    """One declaration doxygen found: where, what, and whether it has a doc comment."""

    location: str
    kind: str
    name: str
    documented: bool


def _has_doc(element: ET.Element) -> bool:
    """Whether an XML element has a non-empty brief or detailed description."""
    for tag in ("briefdescription", "detaileddescription"):
        description = element.find(tag)
        if description is not None and "".join(description.itertext()).strip():
            return True
    return False


def _location(element: ET.Element) -> str:
    """Return the ``file:line`` doxygen recorded for an element."""
    location = element.find("location")
    if location is None:
        return "?"
    return f"{location.get('file')}:{location.get('line')}"


def _declarations(xml_dir: Path) -> Iterator[Declaration]:
    """Every struct, member and enumerator of the file and struct compounds in xml_dir."""
    index = ET.parse(xml_dir / "index.xml").getroot()
    for compound in index.iter("compound"):
        kind = compound.get("kind")
        if kind not in ("file", "struct", "union"):
            continue
        compound_xml = ET.parse(xml_dir / f"{compound.get('refid')}.xml").getroot()
        definition = compound_xml.find("compounddef")
        if definition is None:
            continue
        owner = definition.findtext("compoundname", "")
        if kind != "file":
            yield Declaration(_location(definition), kind, owner, _has_doc(definition))
        for member in definition.iter("memberdef"):
            if member.findtext("name", "").startswith("@"):
                continue  # an anonymous union: its members are checked in its own compound
            name = f"{owner}::{member.findtext('name', '')}"
            yield Declaration(_location(member), member.get("kind", ""), name, _has_doc(member))
            for value in member.iter("enumvalue"):
                value_name = f"{owner}::{value.findtext('name', '')}"
                yield Declaration(_location(member), "enumvalue", value_name, _has_doc(value))


def main() -> int:
    """Check (or count) the doc comments of the declarations in the given XML directory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("xml_dir", type=Path, help="doxygen's XML output directory")
    parser.add_argument("--count", action="store_true", help="print documented/total only")
    args = parser.parse_args()
    if not (args.xml_dir / "index.xml").is_file():
        print(f"check_c_abi_docs: no index.xml in {args.xml_dir}", file=sys.stderr)
        return 2
    declarations = list(_declarations(args.xml_dir))
    missing = [item for item in declarations if not item.documented]
    if args.count:
        print(f"{len(declarations) - len(missing)}/{len(declarations)}")
        return 0
    for item in missing:
        print(f"{item.location}: undocumented {item.kind} {item.name}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
