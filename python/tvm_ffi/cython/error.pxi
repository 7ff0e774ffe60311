# SPDX-License-Identifier: Apache-2.0
# error.pxi: Error objects and the two-way conversion between FFI errors and Python exceptions.
import builtins
import collections
import threading
import types
import warnings


ERROR_NAME_TO_TYPE = {}
ERROR_TYPE_TO_NAME = {}

# KeyboardInterrupt is ours, not upstream's: Ctrl-C usually lands in a Python callback (the
# only place bytecode runs during a native call) and must come out of the call unchanged.
# RecursionError is ours too (the runtime's guard against nesting deeper than the stack); it
# derives from RuntimeError, which upstream raises for it.
for _error_cls in (RuntimeError, ValueError, TypeError, AttributeError, KeyError,
                   IndexError, AssertionError, MemoryError, KeyboardInterrupt, RecursionError):
    ERROR_NAME_TO_TYPE[_error_cls.__name__] = _error_cls
    ERROR_TYPE_TO_NAME[_error_cls] = _error_cls.__name__
del _error_cls


class Error(Object):
    """An FFI error object (``ffi.Error``): kind, message and backtrace (most recent first)."""

    def __init__(self, kind, message, backtrace=""):
        check_is_error(self)
        cdef bytes kind_b = exact_str(kind, "Error", "kind").encode("utf-8")
        cdef bytes message_b = exact_str(message, "Error", "message").encode("utf-8")
        cdef bytes backtrace_b = exact_str(backtrace, "Error", "backtrace").encode("utf-8")
        cdef TVMFFIByteArray k = bytes_view(kind_b)
        cdef TVMFFIByteArray m = bytes_view(message_b)
        cdef TVMFFIByteArray b = bytes_view(backtrace_b)
        cdef CObject this = <CObject>self
        cdef TVMFFIObjectHandle handle = NULL
        if TVMFFIErrorCreate(&k, &m, &b, &handle) != 0:
            raise MemoryError("Function.__call__(): cannot allocate an FFI error")
        if this.chandle != NULL:
            TVMFFIObjectDecRef(this.chandle)  # __init__ called again
        this.chandle = handle

    def __reduce__(self):
        """Pickles by value, as Apache does: ``Error(kind, message, backtrace)``; the
        ``extra_context`` payload is not kept."""
        if (<CObject>self).chandle == NULL:
            return (_new_object, (Error,))
        return (Error, (self.kind, self.message, self.backtrace))

    @property
    def kind(self) -> str:
        """The error kind, named after a Python exception class (e.g. ``"ValueError"``)."""
        return byte_array_to_str(TVMFFIPyErrorCell(error_handle(self)).kind)

    @property
    def message(self) -> str:
        """The error message."""
        return byte_array_to_str(TVMFFIPyErrorCell(error_handle(self)).message)

    @property
    def backtrace(self) -> str:
        """Frames as ``  File "<file>", line <n>, in <func>`` lines, most recent first."""
        return byte_array_to_str(TVMFFIPyErrorCell(error_handle(self)).backtrace)

    @property
    def extra_context(self):
        """An optional payload object attached to the error, or None."""
        cdef TVMFFIObjectHandle ctx = TVMFFIPyErrorCell(error_handle(self)).extra_context
        if ctx == NULL:
            return None
        TVMFFIObjectIncRef(ctx)
        return make_object_from_handle(ctx)

    def update_backtrace(self, backtrace) -> None:
        """Replaces the stored backtrace text."""
        error_update_backtrace(self, exact_str(backtrace, "Error.update_backtrace", "backtrace"), 0)

    def py_error(self) -> BaseException:
        """The Python exception for this error, with native frames in its traceback.

        An error made from a Python exception on this thread gives back that exception
        object itself; otherwise the class is the one registered for the kind, or the built-in
        exception of that name, else RuntimeError.
        """
        original = take_original_exception(self)
        if original is not None:
            return original
        exc = exception_of_kind(self.kind, self.message)
        exc.__tvm_ffi_error__ = self
        return exc.with_traceback(_traceback_from_backtrace(self.backtrace))

    def __repr__(self):
        return object_repr(self)


cdef int check_is_error(object obj) except -1:
    if not isinstance(obj, Error):
        raise TypeError(f"Error(): expected an ffi.Error, got '{type(obj).__name__}'")
    return 0


cdef TVMFFIObjectHandle error_handle(object error) except NULL:
    """The live handle of an ``Error``; TypeError for anything else."""
    check_is_error(error)
    return live_handle(error)


cdef void error_update_backtrace(error, str text, int32_t mode) except *:
    cdef bytes data = text.encode("utf-8")
    cdef TVMFFIByteArray arr = bytes_view(data)
    cdef TVMFFIObjectHandle handle = error_handle(error)
    TVMFFIPyErrorCell(handle).update_backtrace(handle, &arr, mode)


cdef bint is_env_error_already_set(TVMFFIObjectHandle handle) noexcept:
    cdef TVMFFIByteArray kind = TVMFFIPyErrorCell(handle).kind
    return kind.size == 18 and memcmp(kind.data, b"EnvErrorAlreadySet", 18) == 0


cdef int raise_ffi_error(int ret) except -1:
    """Raises the error left by a failed call (ret -1), or the pending Python exception."""
    cdef TVMFFIObjectHandle handle = NULL
    if ret != -2:
        TVMFFIErrorMoveFromRaised(&handle)
    if handle == NULL or is_env_error_already_set(handle):
        if PyErr_Occurred() != NULL:
            TVMFFIObjectDecRef(handle)
            return -1
        if handle == NULL:
            raise RuntimeError("Function.__call__(): an FFI call failed without reporting an error")
    error = make_object_from_handle(handle)
    raise error.py_error()


# ------------------------------------------------------------------------------------------
# Native frames in Python tracebacks
# ------------------------------------------------------------------------------------------
# The code objects of synthetic frames, by (file, function), least recently used first. Bounded:
# generated or JIT-compiled native code can name new functions without end (~2 KB each).
cdef object _SYNTHETIC_CODE = collections.OrderedDict()
cdef Py_ssize_t _SYNTHETIC_CODE_LIMIT = 1024
cdef dict _SYNTHETIC_GLOBALS = {"__tvm_ffi_synthetic__": True}


class _SyntheticFrameMarker(Exception):
    pass


def _parse_backtrace(text):
    """``(file, line, func)`` of every ``File "...", line N, in F`` line, in text order."""
    frames = []
    for line in exact_str(text, "_parse_backtrace", "text").splitlines():
        line = line.strip()
        if not line.startswith('File "'):
            continue
        file_end = line.find('", line ')
        if file_end < 0:
            continue
        rest = line[file_end + len('", line '):]
        lineno, _, func = rest.partition(", in ")
        try:
            frames.append((line[len('File "'):file_end], int(lineno), func))
        except ValueError:
            continue
    return frames


cdef object _synthetic_code(str filename, str func):
    """The cached code object raising _SyntheticFrameMarker as ``func`` in ``filename``."""
    key = (filename, func)
    code = _SYNTHETIC_CODE.get(key)
    if code is not None:
        try:
            _SYNTHETIC_CODE.move_to_end(key)  # now the most recently used; allocates nothing
        except KeyError:  # evicted by another thread meanwhile
            pass
        return code
    code = compile("raise _SyntheticFrameMarker()", filename, "exec")
    if hasattr(code, "co_positions"):  # 3.11+: no columns, so no carets under native lines
        from ._linetable import without_columns

        code = code.replace(co_linetable=without_columns(code.co_linetable))
    code = code.replace(co_name=func)
    if hasattr(code, "co_qualname"):
        code = code.replace(co_qualname=func)
    _SYNTHETIC_CODE[key] = code
    while len(_SYNTHETIC_CODE) > _SYNTHETIC_CODE_LIMIT:
        try:
            _SYNTHETIC_CODE.popitem(last=False)
        except KeyError:  # emptied by another thread meanwhile
            break
    return code


cdef object _synthetic_frame(str filename, int lineno, str func):
    """A finished frame object that reports the given file, line and function."""
    code = _synthetic_code(filename, func)
    code = code.replace(co_firstlineno=max(lineno, 0))  # 0: a native frame without line info
    scope = dict(_SYNTHETIC_GLOBALS)
    scope["_SyntheticFrameMarker"] = _SyntheticFrameMarker
    try:
        exec(code, scope)
    except _SyntheticFrameMarker as marker:
        tb = marker.__traceback__
        while tb.tb_next is not None:
            tb = tb.tb_next
        frame = tb.tb_frame
        marker.__traceback__ = None
        return frame, tb.tb_lasti
    raise RuntimeError("_synthetic_frame(): the synthetic frame did not raise")


cdef void _keep_linecache_out_of(str filename) except *:
    """A native frame without line information names its library file: tell linecache it has
    no source lines, so formatting the traceback never reads the binary (Python 3.9's linecache
    raises SyntaxError on one; later ones read it only to give up)."""
    import linecache

    if filename not in linecache.cache:
        linecache.cache[filename] = (0, None, [], filename)  # mtime None: checkcache keeps it


cdef bint _FILE_LINE_REPORT_CHECKED = False


cdef void _warn_once_without_libdw() except *:
    """At the first native frame without a line, warn (once per process) when it is because
    libdw.so.1 cannot be loaded, naming what to install."""
    global _FILE_LINE_REPORT_CHECKED
    if _FILE_LINE_REPORT_CHECKED:
        return
    _FILE_LINE_REPORT_CHECKED = True
    symbolizer = _get_global_func_or_none("ffi.backtrace.Symbolizer")
    report = str(symbolizer()) if symbolizer is not None else "libdw"
    if report.startswith("symbols-only (") and "cannot be loaded" in report:
        warnings.warn(
            f"tvm_ffi: C++ frames in tracebacks show no file:line: {report}",
            RuntimeWarning,
            stacklevel=2,
        )


def _native_frame(str filename, int lineno, str func):
    """A finished frame standing for the native frame of ``func`` at ``filename:lineno``."""
    if lineno <= 0:
        _warn_once_without_libdw()
        _keep_linecache_out_of(filename)
    frame, _ = _synthetic_frame(filename, lineno, func)
    return frame


def _traceback_from_backtrace(str backtrace):
    """A traceback chain (outermost first) of the native frames in ``backtrace``."""
    tb = None
    for filename, lineno, func in _parse_backtrace(backtrace):
        frame = _native_frame(filename, lineno, func)
        tb = types.TracebackType(tb, frame, frame.f_lasti, lineno)
    return tb


cdef str _format_python_frames(tb, Py_ssize_t count=-1):
    """The user's frames of the first ``count`` entries of a traceback (all when -1), as
    backtrace lines, most recent first: neither synthetic (native) frames nor those of this
    extension's own Cython functions."""
    lines = []
    own_prefix = __name__ + "."  # Cython names its traceback entries "tvm_ffi.core.<func>"
    while tb is not None and count != 0:
        count -= 1
        frame = tb.tb_frame
        code = frame.f_code
        synthetic = frame.f_globals.get("__tvm_ffi_synthetic__", False)
        if not synthetic and not code.co_name.startswith(own_prefix):
            lines.append(f'  File "{code.co_filename}", line {tb.tb_lineno}, in {code.co_name}\n')
        tb = tb.tb_next
    lines.reverse()
    return "".join(lines)


cdef object error_from_exception(BaseException exc):
    """The FFI error for a Python exception (reusing the one it came from, if any)."""
    existing = getattr(exc, "__tvm_ffi_error__", None)
    tb = exc.__traceback__
    if isinstance(existing, Error) and (<CObject>existing).chandle != NULL:
        append_new_frames(exc, existing, tb)
        error = existing
    else:
        error = Error(kind_of_exception_class(type(exc)), exception_message(exc),
                      _format_python_frames(tb))
    return error


def _convert_to_ffi_error(BaseException error):
    """The FFI error for a Python exception: the one it came from (with the frames it went
    through since), else a new one of its kind, message and traceback."""
    return error_from_exception(error)


# Upstream's hooks, set by tvm_ffi.error to its _with_append_backtrace and
# _traceback_to_backtrace_str; the core's own error path does not call them.
_WITH_APPEND_BACKTRACE = None
_TRACEBACK_TO_BACKTRACE_STR = None


# ------------------------------------------------------------------------------------------
# Exception classes <-> error kinds
# ------------------------------------------------------------------------------------------
cdef str kind_of_exception_class(type cls):
    """The kind of an exception class: its registered name, else that of its nearest
    registered or built-in base (every built-in exception is its own kind)."""
    for base in cls.__mro__:
        name = ERROR_TYPE_TO_NAME.get(base)
        if name is not None:
            return name
        if base.__module__ == "builtins" and issubclass(base, BaseException):
            return base.__name__
    return "RuntimeError"


cdef str exception_message(BaseException exc):
    """str(exc), or a placeholder when str() itself fails."""
    try:
        return str(exc)
    except BaseException as err:  # noqa: BLE001 - a message is needed whatever str() does
        return f"<str() of the {type(exc).__name__} failed with {type(err).__name__}>"


def _builtin_exception_class(str kind):
    """The built-in exception class named ``kind``, or None."""
    cls = getattr(builtins, kind, None)
    if isinstance(cls, type) and issubclass(cls, BaseException):
        return cls
    return None


cdef object exception_of_kind(str kind, str message):
    """A new exception of the class for ``kind`` (registered, else built-in, else
    RuntimeError) with ``message``; RuntimeError when that class cannot take a message."""
    cls = ERROR_NAME_TO_TYPE.get(kind)
    if cls is None:
        cls = _builtin_exception_class(kind) or RuntimeError
    try:
        exc = cls(message)
    except Exception as err:  # noqa: BLE001 - e.g. UnicodeDecodeError needs five arguments
        return runtime_error_instead(kind, message, cls,
                                     f"cannot be built from one message argument "
                                     f"({type(err).__name__}: {err})")
    if not isinstance(exc, BaseException):
        return runtime_error_instead(kind, message, cls,
                                     f"built from one message argument gives an object of "
                                     f"type '{type(exc).__name__}', not an exception")
    return exc


cdef object runtime_error_instead(str kind, str message, type cls, str problem):
    """The RuntimeError raised for an error whose kind's class cannot represent it."""
    fallback = RuntimeError(f"{kind}: {message}")
    fallback.__cause__ = TypeError(
        f"{cls.__qualname__}, the class of error kind '{kind}', {problem}; the error is a "
        "RuntimeError instead")
    return fallback


# ------------------------------------------------------------------------------------------
# Python exceptions that cross native code and come back
# ------------------------------------------------------------------------------------------
# Per thread: native error handle -> (the Error, the exception, its traceback, the size of the
# backtrace text when it crossed). Bounded, as native code may swallow errors.
cdef object _ORIGINALS = threading.local()
cdef Py_ssize_t _ORIGINALS_LIMIT = 16


cdef dict thread_originals():
    # No try/except: under the limited API, Cython's handler crashes on an exception that has
    # no traceback, which is what deep recursion leaves when Python cannot add one.
    entries = getattr(_ORIGINALS, "entries", None)
    if entries is None:
        entries = _ORIGINALS.entries = {}
    return entries


cdef void remember_original_exception(object error, BaseException exc) except *:
    entries = thread_originals()
    key = <uint64_t>(<CObject>error).chandle
    entries.pop(key, None)
    if len(entries) >= _ORIGINALS_LIMIT:
        del entries[next(iter(entries))]
    entries[key] = (error, exc, exc.__traceback__, backtrace_size(error))


cdef size_t backtrace_size(object error) except? 0:
    return TVMFFIPyErrorCell(error_handle(error)).backtrace.size


cdef str backtrace_suffix(object error, size_t start):
    """The backtrace text added after it was ``start`` bytes long (native layers append)."""
    cdef TVMFFIByteArray text = TVMFFIPyErrorCell(error_handle(error)).backtrace
    if start >= text.size:
        return ""
    return text.data[start:text.size].decode("utf-8", "replace")


cdef object take_original_exception(object error):
    """The exception that ``error`` was made from on this thread, with the native frames it
    went through before its own traceback; None when there is none."""
    entry = thread_originals().pop(<uint64_t>(<CObject>error).chandle, None)
    if entry is None:
        return None
    _, exc, tb, size_then = entry
    native = backtrace_suffix(error, size_then)
    chain = append_traceback(_traceback_from_backtrace(native), without_own_entries(tb))
    exc.__tvm_ffi_error__ = error
    exc.__tvm_ffi_recorded_frames__ = (error, traceback_length(chain))
    return exc.with_traceback(chain)


cdef object without_own_entries(object tb):
    """``tb`` without its leading entries in this extension's own functions (the callback
    trampoline the exception left through)."""
    own_prefix = __name__ + "."
    while tb is not None and tb.tb_frame.f_code.co_name.startswith(own_prefix):
        tb = tb.tb_next
    return tb


cdef object append_traceback(object head, object tail):
    """The traceback chain ``head`` followed by ``tail`` (either may be None)."""
    if head is None:
        return tail
    last = head
    while last.tb_next is not None:
        last = last.tb_next
    last.tb_next = tail
    return head


cdef int append_new_frames(BaseException exc, object error, object tb) except -1:
    """Appends to ``error``'s backtrace the entries of ``tb`` it has not been given yet.

    A traceback grows at its head each time the exception is raised again, so the entries
    already appended are its last ``recorded`` ones; ``exc`` remembers that count (not the
    entries, which would keep their frames alive) and the error it was counted for."""
    cdef Py_ssize_t total = traceback_length(tb)
    cdef Py_ssize_t recorded = 0
    previous = getattr(exc, "__tvm_ffi_recorded_frames__", None)
    if type(previous) is tuple and previous[0] is error and previous[1] <= total:
        recorded = previous[1]
    frames = _format_python_frames(tb, total - recorded)
    if frames:
        error_update_backtrace(error, frames, 1)
    exc.__tvm_ffi_recorded_frames__ = (error, total)
    return 0


cdef Py_ssize_t traceback_length(object tb):
    cdef Py_ssize_t length = 0
    while tb is not None:
        length += 1
        tb = tb.tb_next
    return length


cdef extern from "Python.h":
    int Py_GetRecursionLimit() noexcept
    void Py_SetRecursionLimit(int limit) noexcept


# Python frames the conversion of an exception may use beyond the recursion limit: an exception
# raised at the limit (a RecursionError, typically) is converted where no frame is left.
cdef int CONVERSION_HEADROOM = 200


cdef void set_raised_from_exception(BaseException exc) noexcept:
    """Stores the FFI error for ``exc`` in this thread's error slot (never raises); ``exc``
    is given back when the error returns to Python on this thread."""
    try:
        store_raised_exception(exc)
    except RecursionError:
        if not store_raised_with_headroom(exc):
            set_conversion_failure()
    except BaseException:  # noqa: BLE001 - last resort: report something
        set_conversion_failure()


cdef int store_raised_exception(BaseException exc) except -1:
    error = error_from_exception(exc)
    remember_original_exception(error, exc)
    TVMFFIErrorSetRaised((<CObject>error).chandle)
    return 0


cdef bint store_raised_with_headroom(BaseException exc) noexcept:
    """store_raised_exception with the recursion limit raised for the time of the conversion;
    whether it succeeded. The limit is put back unless someone else changed it meanwhile."""
    cdef int limit = Py_GetRecursionLimit()
    Py_SetRecursionLimit(limit + CONVERSION_HEADROOM)
    try:
        store_raised_exception(exc)
        return True
    except BaseException:  # noqa: BLE001 - the caller reports the failure
        return False
    finally:
        if Py_GetRecursionLimit() == limit + CONVERSION_HEADROOM:
            Py_SetRecursionLimit(limit)


cdef void set_conversion_failure() noexcept:
    TVMFFIErrorSetRaisedFromCStr(b"RuntimeError", b"failed to convert a Python exception")
