# SPDX-License-Identifier: Apache-2.0
"""scripts/check_header_docs.py, lint's measure of the public headers' doc comments: doxygen
warnings and undocumented C ABI declarations fail, the other headers must reach a documented
share, and implementation details, language-defined members and DLPack are not counted."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "check_header_docs.py"

INDEX = """<doxygenindex>
  <compound refid="c__api_8h" kind="file"><name>c_api.h</name></compound>
  <compound refid="struct_t_v_m_f_f_i_version" kind="struct"><name>TVMFFIVersion</name></compound>
</doxygenindex>"""

FILE = """<doxygen><compounddef id="c__api_8h" kind="file">
  <compoundname>c_api.h</compoundname>
  <memberdef kind="enum" id="e1"><name>TVMFFITypeIndex</name>
    <briefdescription><para>Type indices.</para></briefdescription>
    <enumvalue><name>kTVMFFINone</name>{none_doc}</enumvalue>
    <location file="include/tvm/ffi/c_api.h" line="10"/>
  </memberdef>
</compounddef></doxygen>"""

STRUCT = """<doxygen><compounddef id="struct_t_v_m_f_f_i_version" kind="struct">
  <compoundname>TVMFFIVersion</compoundname>
  <briefdescription><para>A version triple.</para></briefdescription>
  <location file="include/tvm/ffi/c_api.h" line="18"/>
  <memberdef kind="variable" id="v1"><name>major</name>
    <briefdescription><para>Major version.</para></briefdescription>
    <location file="include/tvm/ffi/c_api.h" line="20"/>
  </memberdef>
</compounddef></doxygen>"""

# A header of known counts. Counted (8): Widget, Widget::Widget(int), Widget::Size,
# Widget::count, Color, kRed, kBlue, WIDGET_MAX; documented: Widget, Widget(int), Color, kRed.
# Not counted: the defaulted and deleted members, the destructor, operator=, the private
# member, _type_key, the details namespace, the helper macro WIDGET_HELPER_, the guard.
WIDGET = """/*! \\file widget.h \\brief A test header. */
#ifndef WIDGET_H
#define WIDGET_H
namespace tvm {
namespace ffi {
/*! \\brief A widget. */
class Widget {
 public:
  /*! \\brief Make a widget of n parts. \\param n The parts. */
  explicit Widget(int n);
  Widget() = default;
  Widget(const Widget&) = delete;
  ~Widget();
  Widget& operator=(Widget&& other);
  int Size() const;
  int count;
  static constexpr const char* _type_key = "test.Widget";

 private:
  int hidden_;
};
/*! \\brief Colors. */
enum class Color {
  kRed,  ///< Red.
  kBlue,
};
namespace details {
int Helper(int x);
}  // namespace details
}  // namespace ffi
}  // namespace tvm
#define WIDGET_MAX 8
#define WIDGET_HELPER_(x) (x)
#endif  // WIDGET_H
"""

C_API = """/*! \\file c_api.h \\brief A test C ABI header. */
#ifdef __cplusplus
extern "C" {
#endif
/*! \\brief Add two numbers. \\param a One. \\param b The other. \\return Their sum. */
int TVMFFITestAdd(int a, int b);
#ifdef __cplusplus
}
#endif
"""

DLPACK = "struct DLUndocumented { int field; };\n"


def run_script(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False
    )


def write_xml(xml_dir: Path, none_doc: str) -> Path:
    xml_dir.mkdir(exist_ok=True)
    (xml_dir / "index.xml").write_text(INDEX)
    (xml_dir / "c__api_8h.xml").write_text(FILE.format(none_doc=none_doc))
    (xml_dir / "struct_t_v_m_f_f_i_version.xml").write_text(STRUCT)
    return xml_dir


def make_tree(root: Path, widget: str = WIDGET, c_api: str = C_API) -> Path:
    """A tree with the repository's doxygen settings and test headers in include/."""
    (root / "docs").mkdir(parents=True)
    shutil.copy(REPO / "docs" / "doxygen.cfg", root / "docs" / "doxygen.cfg")
    (root / "include" / "tvm" / "ffi").mkdir(parents=True)
    (root / "include" / "tvm" / "ffi" / "widget.h").write_text(widget)
    (root / "include" / "tvm" / "ffi" / "c_api.h").write_text(c_api)
    (root / "include" / "dlpack").mkdir()
    (root / "include" / "dlpack" / "dlpack.h").write_text(DLPACK)
    return root


def check_tree(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert shutil.which("doxygen"), "lint's dependency doxygen is missing (install_deps.sh)"
    return run_script("--doxygen", "--out", str(root / "out"), "--root", str(root), *args)


def test_an_undocumented_c_abi_enumerator_fails_with_its_place(tmp_path: Path) -> None:
    result = run_script("--xml", str(write_xml(tmp_path / "xml", "")))
    assert result.returncode == 1
    assert "include/tvm/ffi/c_api.h:10: undocumented enumvalue kTVMFFINone\n" in result.stderr
    assert "include/tvm/ffi/c_api.h: 3/4 (75.0%) (C ABI: every declaration)" in result.stdout


def test_a_documented_c_abi_passes(tmp_path: Path) -> None:
    doc = "<briefdescription><para>No value.</para></briefdescription>"
    result = run_script("--xml", str(write_xml(tmp_path / "xml", doc)))
    assert (result.returncode, result.stderr) == (0, "")
    assert "include/tvm/ffi/c_api.h: 4/4 (100.0%)" in result.stdout


def test_a_folder_without_doxygen_output_is_refused(tmp_path: Path) -> None:
    result = run_script("--xml", str(tmp_path))
    assert result.returncode == 2
    assert "no index.xml" in result.stderr


def test_counts_public_declarations_and_fails_below_the_threshold(tmp_path: Path) -> None:
    result = check_tree(make_tree(tmp_path))
    assert result.returncode == 1
    assert "include/tvm/ffi/widget.h: 4/8 (50.0%)\n" in result.stdout
    assert "include/tvm/ffi/c_api.h: 1/1 (100.0%) (C ABI: every declaration)" in result.stdout
    assert "total (other headers): 4/8 (50.0%), required 90%" in result.stdout
    assert "below 90%" in result.stderr
    assert "dlpack" not in result.stdout + result.stderr


def test_a_met_threshold_passes_and_list_names_the_undocumented(tmp_path: Path) -> None:
    result = check_tree(make_tree(tmp_path), "--threshold", "50", "--list")
    assert (result.returncode, result.stderr) == (0, "")
    undocumented = sorted(
        line.split(" undocumented ")[1]
        for line in result.stdout.splitlines()
        if " undocumented " in line
    )
    assert undocumented == [
        "define WIDGET_MAX",
        "enumvalue tvm::ffi::Color::kBlue",
        "function tvm::ffi::Widget::Size",
        "variable tvm::ffi::Widget::count",
    ]


def test_an_undocumented_c_abi_function_fails_whatever_the_threshold(tmp_path: Path) -> None:
    c_api = C_API.replace(
        "/*! \\brief Add two numbers. \\param a One. \\param b The other. \\return Their sum. */\n",
        "",
    )
    result = check_tree(make_tree(tmp_path, c_api=c_api), "--threshold", "0")
    assert result.returncode == 1
    assert "undocumented function TVMFFITestAdd" in result.stderr


def test_a_doxygen_warning_fails(tmp_path: Path) -> None:
    widget = WIDGET.replace("\\param n The parts.", "\\param m The parts.")
    result = check_tree(make_tree(tmp_path, widget=widget), "--threshold", "0")
    assert result.returncode == 1
    assert "doxygen warned" in result.stderr
    assert "widget.h" in result.stderr
