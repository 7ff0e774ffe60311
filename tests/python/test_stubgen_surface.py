# SPDX-License-Identifier: Apache-2.0
"""The module paths and names of ``tvm_ffi.stub`` that code written for Apache's imports."""

from __future__ import annotations

import importlib
import inspect

import pytest

#: Apache TVM FFI 0.1.15.post2's stub modules and the names each defines or re-exports.
APACHE_NAMES = {
    "tvm_ffi.stub.cli": "CodeBlock FileInfo FuncInfo InitConfig Options _declared_objects "
    "_new_blocks _object_type_key_to_index _parse_args _remove_unregistered_blocks "
    "_roll_out_prefixes _stage_1 _stage_2 _stage_3 classify collect_files collect_global_funcs "
    "collect_type_keys generator_names get_generator object_info_from_type_key syntax_for "
    "toposort_objects write_coverage_report __main__",
    "tvm_ffi.stub.consts": "BUILTIN_TYPE_KEYS DOC_URL FN_NAME_MAP MarkerSyntax "
    "PIPELINE_DIRECTIVE_KINDS PYTHON_SYNTAX RUST_SYNTAX SYNTAX_BY_EXT STUB_BLOCK_KINDS TERM_BLACK "
    "TERM_BLUE TERM_BOLD TERM_CYAN TERM_GREEN TERM_MAGENTA TERM_RED TERM_RESET TERM_WHITE "
    "TERM_YELLOW",
    "tvm_ffi.stub.file_utils": "CodeBlock FileInfo collect_files path_walk syntax_for",
    "tvm_ffi.stub.generator": "Generator PythonGenerator RustGenerator _GENERATORS "
    "generator_names get_generator",
    "tvm_ffi.stub.layout": "ByteRange FieldBytes OBJECT_HEADER_ALIGNMENT Verdict "
    "_apply_target_rules _classify_one _field_bytes _fill _prove_layout _record_gap align_up "
    "classify coverage_report write_coverage_report",
    "tvm_ffi.stub.lib_state": "FuncInfo NamedTypeSchema ObjectInfo TypeSchema "
    "_func_info_from_global_name _lookup_or_register_type_info_from_type_key "
    "collect_global_funcs collect_type_keys get_global_func_metadata list_global_func_names "
    "object_info_from_type_key toposort_objects",
    "tvm_ffi.stub.python_generator": "PythonGenerator",
    "tvm_ffi.stub.python_generator.codegen": "CodeBlock FuncInfo ImportItem InitConfig "
    "ObjectInfo Options _make_input_ty_map _prompt_all_section _prompt_class_def _prompt_globals "
    "_prompt_import_object _prompt_import_section _type_suffix_and_record generate_python_all "
    "generate_python_export generate_python_ffi_api generate_python_global_funcs "
    "generate_python_import_section generate_python_init generate_python_object "
    "render_func_signature render_object_ffi_init render_object_fields render_object_init "
    "render_object_methods",
    "tvm_ffi.stub.python_generator.consts": "MOD_MAP TY_MAP_DEFAULTS TY_MAP_INPUT_DEFAULTS",
    "tvm_ffi.stub.python_generator.generator": "ImportItem PythonGenerator PythonImports",
    "tvm_ffi.stub.python_generator.utils": "FuncInfo ImportItem ObjectInfo PythonImports "
    "_format_field_params _render_ffi_init_from_fields _render_ffi_init_from_method "
    "_render_init_from_fields render_func_signature render_object_ffi_init "
    "render_object_fields render_object_init render_object_methods",
    "tvm_ffi.stub.rust_generator": "RustGenerator",
    "tvm_ffi.stub.rust_generator.codegen": "RustImports Verdict _ObjectRenderer "
    "_allow_non_snake_case _builtin_mirror_lines _call_lines _check_width _forward _param_type "
    "builtin_mirror_name classify finalize_rust_module_tree generate_rust_api_file "
    "generate_rust_import_section generate_rust_object is_crate_type_key "
    "object_info_from_type_key render_rust_type rust_ident",
    "tvm_ffi.stub.rust_generator.consts": "RUST_ANY_BACKED_OPTIONAL_PAYLOADS "
    "RUST_DIRECTIVE_KINDS RUST_EXACT_PARAMS RUST_KEYWORDS RUST_MAX_WIDTH RUST_MOD_MAP "
    "RUST_NOT_RAW_IDENTIFIERS RUST_OBJECT_OPTIONAL_FIELD_SIZE RUST_OPTIONAL_FIELD_SIZE "
    "RUST_OPTIONAL_PATH RUST_POINTER_SIZE RUST_RESERVED_MEMBERS RUST_ROOT_TYPE_KEY "
    "RUST_SCALAR_BY_SIZE RUST_SCALAR_WIDTHS RUST_TY_MAP_DEFAULTS RUST_UNSUPPORTED_ORIGINS",
    "tvm_ffi.stub.rust_generator.directives": "Directives EnumSpec _ENUM_RE _MEMBER_RE "
    "_field_target _invalid _parse_enum _split_arrow _type_target",
    "tvm_ffi.stub.rust_generator.generator": "RustGenerator RustImports RustUse "
    "_DeclaredModules check_tokens finalize_rust_module_tree generate_rust_api_file "
    "generate_rust_import_section generate_rust_object is_crate_type_key rust_module_path",
    "tvm_ffi.stub.rust_generator.utils": "Directives RustImports RustUse _MODULE_QUALIFIER "
    "_generic builtin_mirror_name check_tokens is_crate_type_key render_rust_type rust_ident "
    "rust_module_path",
    "tvm_ffi.stub.utils": "FuncInfo InitConfig InitFieldInfo MISSING NamedTypeSchema ObjectInfo "
    "Options TypeInfo TypeSchema _lookup_type_attr _parse_type_schema",
}

#: Parameters of callables that callers pass by name.
APACHE_PARAMS = {
    "tvm_ffi.stub.cli._stage_2": "files ty_map init_cfg init_path global_funcs generator",
    "tvm_ffi.stub.cli._stage_3": "file opt ty_map global_funcs generator declared",
    "tvm_ffi.stub.cli._roll_out_prefixes": "files generator",
    "tvm_ffi.stub.cli._parse_args": "",
    "tvm_ffi.stub.file_utils.collect_files": "paths source_exts",
    "tvm_ffi.stub.file_utils.path_walk": "p top_down on_error follow_symlinks",
    "tvm_ffi.stub.layout.classify": "infos forced_opaque unmirrored field_renderable",
    "tvm_ffi.stub.layout.write_coverage_report": "path verdicts",
    "tvm_ffi.stub.python_generator.codegen.generate_python_ffi_api": (
        "code_blocks ty_map module_name object_infos init_cfg is_root syntax"
    ),
    "tvm_ffi.stub.python_generator.utils.render_func_signature": "func ty_map indent input_ty_map",
    "tvm_ffi.stub.rust_generator.codegen.generate_rust_object": (
        "code ty_map imports opt obj_info declared"
    ),
    "tvm_ffi.stub.rust_generator.codegen._call_lines": "open_ items close",
    "tvm_ffi.stub.rust_generator.utils.render_rust_type": "schema ty_render",
}

#: Our own module paths from before the reorganization, still importable.
OUR_NAMES = {
    "tvm_ffi.stub.blocks": "fill_all fill_export fill_global fill_import_section fill_object",
    "tvm_ffi.stub.directives": "BEGIN END DirectiveError Block parse_blocks",
    "tvm_ffi.stub.generate": "Options RunResult collect_ty_map read_files regenerate update",
    "tvm_ffi.stub.imports": "ImportItem MODULE_MAP import_lines",
    "tvm_ffi.stub.init_package": "BUILTIN_TYPE_KEYS init_package skipped_type_keys",
    "tvm_ffi.stub.prefixes": "roll_out_prefixes",
    "tvm_ffi.stub.reflection": "FuncInfo ObjectInfo collect_global_funcs collect_type_keys "
    "is_registered object_info sorted_by_inheritance",
    "tvm_ffi.stub.scaffold": "API_FILE INIT_FILE InitConfig api_file_text class_text "
    "import_object init_file_text",
    "tvm_ffi.stub.signatures": "field_stubs function_stub init_stubs method_stubs",
    "tvm_ffi.stub.source_file": "SourceFile source_paths",
    "tvm_ffi.stub.terminal": "paint color_diff_line RED",
    "tvm_ffi.stub.type_names": "DEFAULT_TY_MAP INPUT_TY_MAP TypeNamer input_ty_map",
}


@pytest.mark.parametrize("module", sorted({**APACHE_NAMES, **OUR_NAMES}))
def test_module_defines_the_names(module: str) -> None:
    names = {**APACHE_NAMES, **OUR_NAMES}[module].split()
    imported = importlib.import_module(module)
    assert [name for name in names if not hasattr(imported, name)] == []


@pytest.mark.parametrize("path", sorted(APACHE_PARAMS))
def test_callable_parameters(path: str) -> None:
    module, _, name = path.rpartition(".")
    function = getattr(importlib.import_module(module), name)
    assert list(inspect.signature(function).parameters) == APACHE_PARAMS[path].split()


def test_classes_are_classes_and_aliases_agree() -> None:
    from tvm_ffi.stub import cli, file_utils, layout, lib_state, utils
    from tvm_ffi.stub.python_generator import generator as python_generator
    from tvm_ffi.stub.rust_generator import codegen as rust_codegen
    from tvm_ffi.stub.rust_generator import generator as rust_generator

    assert cli.CodeBlock is file_utils.CodeBlock
    assert cli.FuncInfo is lib_state.FuncInfo is utils.FuncInfo
    assert cli.classify is layout.classify is rust_codegen.classify
    assert rust_codegen.Verdict is layout.Verdict
    assert rust_generator.RustImports is rust_codegen.RustImports
    for cls in (python_generator.PythonGenerator, rust_generator.RustGenerator, layout.Verdict):
        assert inspect.isclass(cls)
