# SPDX-License-Identifier: Apache-2.0
# type_schema_format.pxi: the two written forms of a TypeSchema: its "type_schema" JSON (read
# in both the named_args and the older flat function form) and its annotation-like text.

# The type attribute naming the schema an object type's ``__ffi_convert__`` accepts.
cdef str _CONVERT_TYPE_SCHEMA_ATTR = "__ffi_convert_type_schema__"


# ------------------------------------------------------------------------------------------
# JSON
# ------------------------------------------------------------------------------------------
cdef object _schema_from_json(object obj):
    if not isinstance(obj, dict) or "type" not in obj:
        raise TypeError(f"expected schema dict with 'type' key, got {type(obj).__name__}")
    raw_origin = obj["type"]
    if not isinstance(raw_origin, str):
        raise TypeError("schema type must be a string")
    options = {
        "fallback": _schema_from_json(obj["fallback"]) if "fallback" in obj else None,
        "named_args": _named_args_from_json(obj["named_args"]) if "named_args" in obj else None,
        "type_key": raw_origin if raw_origin in _RETAINED_TYPE_KEYS else None,
    }
    origin = _TYPE_SCHEMA_ORIGIN_CONVERTER.get(raw_origin, raw_origin)
    if "args" not in obj:
        return TypeSchema(origin, **options)
    raw_args = obj["args"]
    if raw_origin == "std::function" and _is_legacy_std_function_args(raw_args):
        options["named_args"] = {"return": (_schema_from_json(raw_args[0]),),
                                 "params": tuple(_schema_from_json(p) for p in raw_args[1])}
        return TypeSchema(origin, **options)
    if not isinstance(raw_args, (list, tuple)):
        raw_args = ()
    args = tuple(_schema_from_json(arg) for arg in raw_args if isinstance(arg, dict))
    return TypeSchema(origin, args, **options)


cdef bint _is_legacy_std_function_args(object raw_args):
    """The oldest std::function form: ``[return, [param, ...]]``."""
    return (isinstance(raw_args, (list, tuple)) and len(raw_args) == 2
            and isinstance(raw_args[1], (list, tuple)))


cdef dict _named_args_from_json(object raw):
    if not isinstance(raw, dict):
        raise TypeError("named_args must be a map of names to type lists")
    named = {}
    for name, values in raw.items():
        if not isinstance(name, str) or not name or not isinstance(values, list):
            raise TypeError("named_args must map names to type lists")
        if not all(isinstance(value, dict) for value in values):
            raise TypeError("named_args lists must contain type schemas")
        named[name] = tuple(_schema_from_json(value) for value in values)
    return named


cdef dict _schema_to_json(schema):
    result = {"type": schema.type_key or schema.origin}
    args = schema.args
    if args is not None and (args or schema.origin == "tuple"):
        result["args"] = [arg.to_json() for arg in args]
    if schema.named_args is not None:
        result["named_args"] = {name: [value.to_json() for value in values]
                                for name, values in schema.named_args.items()}
    if schema.fallback is not None:
        result["fallback"] = schema.fallback.to_json()
    return result


# ------------------------------------------------------------------------------------------
# Text
# ------------------------------------------------------------------------------------------
cdef str _schema_text(schema, ty_map, bint input_mode, frozenset expanded):
    if (schema.fallback is not None and schema.origin_type_index == _ORIGIN_TYPE_INDEX_UNKNOWN
            and schema.origin not in ("tuple", "list", "dict")):
        return _schema_text(schema.fallback, ty_map, input_mode, expanded)
    if input_mode and schema.origin_type_index >= kTVMFFIStaticObjectBegin:
        accepted = _accepted_schema_text(schema, ty_map, expanded)
        if accepted is not None:
            return accepted
    origin = schema.origin if ty_map is None else ty_map(schema.origin)
    if origin == "Callable":
        return _callable_text(schema, ty_map, input_mode, expanded)
    args = [_schema_text(arg, ty_map, input_mode, expanded) for arg in schema.args or ()]
    if origin == "Union":
        return " | ".join(args)
    if origin == "Optional":
        return args[0] + " | None"
    if origin == "tuple" and schema.args == ():
        return "tuple[()]"
    return f"{origin}[{', '.join(args)}]" if args else origin


cdef object _accepted_schema_text(schema, ty_map, frozenset expanded):
    """The input text from the type's ``__ffi_convert_type_schema__`` (None when absent)."""
    cdef int32_t index = schema.origin_type_index
    if index in expanded or not type_index_is_registered(index):
        return None
    raw = _lookup_type_attr(index, _CONVERT_TYPE_SCHEMA_ATTR)
    if raw is None:
        return None
    accepted = TypeSchema._from_maybe_json(raw)
    return _schema_text(accepted, ty_map, True, expanded | {index})


cdef str _callable_text(schema, ty_map, bint input_mode, frozenset expanded):
    named = schema.named_args
    if not named:
        return "Callable[..., Any]"
    ret = _schema_text(named["return"][0], ty_map, input_mode, expanded)
    if "params" not in named:
        return f"Callable[..., {ret}]"
    params = ", ".join(_schema_text(p, ty_map, input_mode, expanded) for p in named["params"])
    return f"Callable[[{params}], {ret}]"
