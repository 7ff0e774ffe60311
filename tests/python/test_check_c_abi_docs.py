# SPDX-License-Identifier: Apache-2.0
"""scripts/check_c_abi_docs.py, which lint runs on doxygen's XML of the C ABI headers: it
reports every undocumented declaration, enumerators included (doxygen 1.9.4 does not)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check_c_abi_docs.py"

INDEX = """<doxygenindex>
  <compound refid="c__api_8h" kind="file"><name>c_api.h</name></compound>
  <compound refid="struct_t_v_m_f_f_i_version" kind="struct"><name>TVMFFIVersion</name></compound>
</doxygenindex>"""

FILE = """<doxygen><compounddef id="c__api_8h" kind="file">
  <compoundname>c_api.h</compoundname>
  <memberdef kind="enum"><name>TVMFFITypeIndex</name>
    <briefdescription><para>Type indices.</para></briefdescription>
    <enumvalue><name>kTVMFFINone</name>{none_doc}</enumvalue>
    <location file="c_api.h" line="10"/>
  </memberdef>
</compounddef></doxygen>"""

STRUCT = """<doxygen><compounddef id="struct_t_v_m_f_f_i_version" kind="struct">
  <compoundname>TVMFFIVersion</compoundname>
  <briefdescription><para>A version triple.</para></briefdescription>
  <memberdef kind="variable"><name>major</name>
    <briefdescription><para>Major version.</para></briefdescription>
    <location file="c_api.h" line="20"/>
  </memberdef>
</compounddef></doxygen>"""


def run_check(xml_dir: Path, none_doc: str, *options: str) -> subprocess.CompletedProcess[str]:
    xml_dir.mkdir(exist_ok=True)
    (xml_dir / "index.xml").write_text(INDEX)
    (xml_dir / "c__api_8h.xml").write_text(FILE.format(none_doc=none_doc))
    (xml_dir / "struct_t_v_m_f_f_i_version.xml").write_text(STRUCT)
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(xml_dir), *options],
        capture_output=True,
        text=True,
        check=False,
    )


def test_an_undocumented_enumerator_fails_with_its_place(tmp_path: Path) -> None:
    result = run_check(tmp_path / "xml", "")
    assert result.returncode == 1
    assert result.stderr == "c_api.h:10: undocumented enumvalue c_api.h::kTVMFFINone\n"
    assert run_check(tmp_path / "xml", "", "--count").stdout == "3/4\n"


def test_everything_documented_passes(tmp_path: Path) -> None:
    doc = "<briefdescription><para>No value.</para></briefdescription>"
    result = run_check(tmp_path / "xml", doc)
    assert (result.returncode, result.stderr) == (0, "")
    assert run_check(tmp_path / "xml", doc, "--count").stdout == "4/4\n"


def test_a_folder_without_doxygen_output_is_refused(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert "no index.xml" in result.stderr
