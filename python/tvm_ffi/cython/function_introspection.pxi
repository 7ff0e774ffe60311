# SPDX-License-Identifier: Apache-2.0
# function_introspection.pxi: ``__doc__`` and ``__signature__`` of a Function, built on first
# use from the metadata of where it was found: a global name, a module export or a reflected
# method. A Function keeps only a small reference saying where (its ``metadata_origin``):
#   name (a str: the global function of that name; one defined several times under that name,
#       C++ OverloadGlobalDef, lists each definition in its metadata's "overloads")
#   ("module", name, module, query_imports)
#   ("method", qualified name, metadata dict, doc, is_static)
#   ("overloads", qualified name, ((metadata dict, doc), ...), is_static): a reflected method
#       defined several times under one name (C++ OverloadObjectDef), one entry per definition
import inspect
import json

cdef extern from *:
    """
    /* Sets an attribute of a class, immutable ones included (Function is as immutable as
       its Cython base, except under the limited API where both are mutable). */
    static int TVMFFIPySetClassAttr(PyObject* cls, const char* name, PyObject* value) {
    #ifdef Py_LIMITED_API
      return PyObject_SetAttrString(cls, name, value);
    #else
      if (PyDict_SetItemString(((PyTypeObject*)cls)->tp_dict, name, value) != 0) return -1;
      PyType_Modified((PyTypeObject*)cls);
      return 0;
    #endif
    }
    """
    int TVMFFIPySetClassAttr(object cls, const char* name, object value) except -1


cdef object _PACKED_SIGNATURE = inspect.Signature(
    [inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL)])
cdef object _PACKED_METHOD_SIGNATURE = inspect.Signature(
    [inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY),
     inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL)])


class _AnnotationText(str):
    """A type annotation given as text, shown unquoted in signatures."""

    def __repr__(self):
        return str.__str__(self)


cdef inline void set_metadata_origin(object func, object origin):
    if isinstance(func, _FunctionBase):
        (<_FunctionBase>func).metadata_origin = origin


cdef inline void note_global_origin(object func, str name):
    set_metadata_origin(func, name)


cdef void note_method_origin(object func, str qualname, object metadata, object doc,
                             bint is_static):
    set_metadata_origin(func, ("method", qualname, metadata, doc, is_static))


cdef void note_overloads(list methods, str type_key):
    """Reflected methods (TypeMethod) sharing a name and staticness are the definitions of one
    overloaded method: gives each of their Functions an origin listing all of them."""
    groups = {}
    for method in methods:
        groups.setdefault((method.name, method.is_static), []).append(method)
    for (name, is_static), group in groups.items():
        if len(group) < 2:
            continue
        definitions = tuple((method.metadata, method.doc) for method in group)
        origin = ("overloads", f"{type_key}.{name}", definitions, is_static)
        for method in group:
            set_metadata_origin(method.func, origin)


cdef bint is_overloaded(object func):
    """Whether func is a reflected method with several definitions."""
    if not isinstance(func, _FunctionBase):
        return False
    return is_overloads_origin((<_FunctionBase>func).metadata_origin)


cdef inline bint is_overloads_origin(object origin):
    return isinstance(origin, tuple) and origin[0] == "overloads"


cdef object resolved_origin(object origin):
    """The origin of an overloaded global function as the definitions its metadata lists;
    any other origin as it is."""
    if not isinstance(origin, str):
        return origin
    metadata = global_metadata_or_none(origin)
    definitions = metadata.get("overloads") if isinstance(metadata, dict) else None
    if not isinstance(definitions, list) or len(definitions) < 2:
        return origin
    listed = tuple((d, d.get("doc")) for d in definitions if isinstance(d, dict))
    return ("overloads", origin, listed, True)


def _note_module_function(func, module, name, query_imports=False):
    """Records that ``func`` is the export ``name`` of ``module``, for its ``__doc__`` and
    ``__signature__``; returns ``func``."""
    set_metadata_origin(func, ("module", name, module, bool(query_imports)))
    return func


cdef tuple origin_facts(object origin):
    """(name, metadata dict or None, doc or None, whether the first parameter is self)."""
    if isinstance(origin, str):
        return origin, global_metadata_or_none(origin), global_doc_or_none(origin), False
    kind = origin[0]
    if kind == "module":
        _, name, module, query_imports = origin
        return (name, module.get_function_metadata(name, query_imports),
                module.get_function_doc(name, query_imports), False)
    _, name, metadata, doc, is_static = origin
    return name, metadata, doc, not is_static


cdef object global_metadata_or_none(str name):
    try:
        text = _get_global_func_metadata(name)
    except RuntimeError:  # removed since it was looked up
        return None
    return json.loads(text)


cdef object global_doc_or_none(str name):
    try:
        return _get_global_func_doc(name) or None
    except RuntimeError:  # removed since it was looked up
        return None


cdef object function_schema(object metadata):
    """The parsed ``type_schema`` of ``metadata``; None when absent or unreadable."""
    if not metadata or "type_schema" not in metadata:
        return None
    try:
        return TypeSchema._from_maybe_json(metadata["type_schema"])
    except (TypeError, ValueError):
        return None


cdef object signature_of(object metadata, bint first_is_self):
    """The signature a type schema describes; ``(*args)`` for packed or unknown ones."""
    schema = function_schema(metadata)
    if schema is None or schema.named_args is None:
        return _PACKED_SIGNATURE
    params = []
    for i, param in enumerate(schema.named_args.get("params", ())):
        params.append(inspect.Parameter(
            "self" if i == 0 and first_is_self else f"_{i}",
            inspect.Parameter.POSITIONAL_ONLY, annotation=_AnnotationText(param.input_repr())))
    returns = schema.named_args.get("return", ())
    result = _AnnotationText(returns[0].output_repr()) if returns else inspect.Signature.empty
    return inspect.Signature(params, return_annotation=result)


cdef object function_signature(_FunctionBase func):
    if func.metadata_origin is None:
        return _PACKED_SIGNATURE
    origin = resolved_origin(func.metadata_origin)
    if is_overloads_origin(origin):
        # No one signature describes them all: self (for a method), then whatever fits one.
        return _PACKED_SIGNATURE if origin[3] else _PACKED_METHOD_SIGNATURE
    _, metadata, _, first_is_self = origin_facts(origin)
    return signature_of(metadata, first_is_self)


cdef object overloads_doc(tuple origin):
    """One ``name(signature)`` line per definition (as builtins list theirs), then their doc
    strings, each once, in definition order."""
    _, name, definitions, is_static = origin
    headers = [f"{name}{signature_of(metadata, not is_static)}" for metadata, _ in definitions]
    docs = dict.fromkeys(inspect.cleandoc(doc) for _, doc in definitions if doc)
    return "\n\n".join(["\n".join(headers), *docs])


cdef object function_doc(_FunctionBase func, str class_doc):
    """``name(signature)``, then the exported doc string when there is one."""
    if func.metadata_origin is None:
        return class_doc
    origin = resolved_origin(func.metadata_origin)
    if is_overloads_origin(origin):
        return overloads_doc(origin)
    name, metadata, doc, first_is_self = origin_facts(origin)
    header = f"{name}{signature_of(metadata, first_is_self)}"
    return f"{header}\n\n{inspect.cleandoc(doc)}" if doc else header


cdef class _FunctionDocDescriptor:
    """``Function.__doc__``: the class's doc on the class; on an instance, its own doc, built
    on first use and then kept in the instance's ``__dict__`` (where assignments go too)."""

    cdef str class_doc

    def __init__(self, str class_doc):
        self.class_doc = class_doc

    def __get__(self, instance, owner):
        if instance is None:
            return self.class_doc
        doc = function_doc(<_FunctionBase>instance, self.class_doc)
        instance.__dict__["__doc__"] = doc
        return doc


cdef class _FunctionSignatureDescriptor:
    """``Function.__signature__``: None on the class; on an instance, the signature its
    metadata describes (``(*args)`` without one), built on first use and then kept in the
    instance's ``__dict__``."""

    def __get__(self, instance, owner):
        if instance is None:
            return None
        signature = function_signature(<_FunctionBase>instance)
        instance.__dict__["__signature__"] = signature
        return signature


TVMFFIPySetClassAttr(Function, b"__doc__", _FunctionDocDescriptor(Function.__doc__))
TVMFFIPySetClassAttr(Function, b"__signature__", _FunctionSignatureDescriptor())
