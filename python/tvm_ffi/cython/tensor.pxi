# SPDX-License-Identifier: Apache-2.0
# tensor.pxi: Tensor (ffi.Tensor), a DLTensor owned by the runtime, and its DLPack export.

__dlpack_version__ = (DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION)
# Lets TVMFFIPyIsReadOnlyTensor recognise the runtime's read-only imports.
TVMFFIPyLearnVersionedTensors()


cdef class Tensor(CObject):
    """An n-dimensional array (``ffi.Tensor``) shared zero-copy through DLPack.

    Made by :func:`from_dlpack`, by argument conversion or returned from calls; never
    constructed directly. ``np.from_dlpack(t)`` and ``torch.from_dlpack(t)`` share its memory.
    A Tensor of read-only memory exports read-only (versioned DLPack only) and cannot be a
    call's argument (see :func:`from_dlpack`).
    """

    def __init__(self, *args, **kwargs):
        raise TypeError("Tensor(): cannot be constructed directly; use tvm_ffi.from_dlpack")

    cdef inline DLTensor* cell(self) except NULL:
        return TVMFFIPyTensorCell(live_handle(self))

    @property
    def shape(self) -> tuple:
        """The size of each dimension (a plain tuple)."""
        cdef DLTensor* t = self.cell()
        return tuple([t.shape[i] for i in range(t.ndim)])

    @property
    def strides(self) -> tuple:
        """The stride of each dimension, in elements."""
        cdef DLTensor* t = self.cell()
        if t.strides == NULL:
            return tuple(compact_strides(t))
        return tuple([t.strides[i] for i in range(t.ndim)])

    @property
    def dtype(self):
        """The element type (``tvm_ffi.dtype``)."""
        return make_dtype(self.cell().dtype)

    @property
    def device(self):
        """The device that holds the data."""
        return make_device(self.cell().device)

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return self.cell().ndim

    def numel(self) -> int:
        """The number of elements (the product of the shape)."""
        cdef DLTensor* t = self.cell()
        cdef int64_t count = 1
        for i in range(t.ndim):
            count *= t.shape[i]
        return count

    def size(self, int idx) -> int:
        """The size of dimension ``idx``; negative values count from the end."""
        cdef DLTensor* t = self.cell()
        cdef int position = idx + t.ndim if idx < 0 else idx
        if position < 0 or position >= t.ndim:
            raise IndexError(f"Dimension {idx} out of range for tensor with {t.ndim} dimensions")
        return t.shape[position]

    def is_contiguous(self) -> bool:
        """Whether the layout is compact row-major (size-1 dimensions are ignored)."""
        return is_row_major(self.cell())

    def data_ptr(self) -> int:
        """The address of the first element (data plus byte offset)."""
        cdef DLTensor* t = self.cell()
        return <uint64_t>t.data + t.byte_offset

    def __dlpack_device__(self) -> tuple:
        """``(device_type, device_id)`` as the DLPack protocol defines it."""
        cdef DLTensor* t = self.cell()
        return (t.device.device_type, t.device.device_id)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule sharing this tensor's memory (versioned when the consumer asks for
        ``max_version >= (1, 0)``); ``stream`` is ignored, no synchronisation happens."""
        if copy:
            raise BufferError("copy not yet supported")
        if dl_device is not None and tuple(dl_device) != self.__dlpack_device__():
            raise BufferError("dl_device of different type not supported")
        return tensor_to_capsule(self, max_version is not None and max_version[0] >= 1)

    def _to_dlpack(self):
        """A legacy ``"dltensor"`` capsule sharing this tensor's memory."""
        return tensor_to_capsule(self, False)

    def _to_dlpack_versioned(self):
        """A versioned ``"dltensor_versioned"`` capsule sharing this tensor's memory."""
        return tensor_to_capsule(self, True)

    def __reduce__(self):
        raise TypeError("cannot pickle 'Tensor' object")


Object.register(Tensor)


cdef list compact_strides(const DLTensor* t):
    cdef list strides = [1] * t.ndim
    cdef int64_t step = 1
    for i in range(t.ndim - 1, -1, -1):
        strides[i] = step
        step *= t.shape[i]
    return strides


def _make_strides_from_shape(tuple shape):
    """The row-major (C-contiguous) strides, in elements, of a tensor of ``shape``."""
    strides = [1] * len(shape)
    step = 1
    for i in range(len(shape) - 1, -1, -1):
        strides[i] = step
        step *= shape[i]
    return tuple(strides)


cdef bint is_row_major(const DLTensor* t) noexcept:
    cdef int64_t expected = 1
    if t.strides == NULL:
        return True
    for i in range(t.ndim):
        if t.shape[i] == 0:
            return True
    for i in range(t.ndim - 1, -1, -1):
        if t.shape[i] != 1 and t.strides[i] != expected:
            return False
        expected *= t.shape[i]
    return True


cdef object tensor_to_capsule(Tensor tensor, bint versioned):
    cdef PyObject* capsule = NULL
    if not versioned and TVMFFIPyIsReadOnlyTensor(live_handle(tensor)):
        raise BufferError("Tensor.__dlpack__(): cannot export a read-only Tensor as a legacy "
                          "DLPack capsule, which cannot mark it read-only; ask for "
                          "max_version=(1, 0) or later")
    TVMFFIPyTensorToCapsule(live_handle(tensor), versioned, &capsule)
    result = <object>capsule
    Py_DECREF(result)  # <object> took a new reference; the capsule's own one is dropped
    return result


# The class of returned tensors (core._set_class_tensor); the Python-visible name upstream has.
_CLASS_TENSOR = Tensor


def _set_class_tensor(cls) -> None:
    """Makes returned tensors, and those :func:`from_dlpack` makes, instances of ``cls``.

    ``cls`` is any subclass of :class:`Tensor` (a framework's own tensor class, with or without
    an instance ``__dict__``), set at any time: tensors already made keep their class.
    """
    global _CLASS_TENSOR
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError(f"_set_class_tensor(): expected a subclass of Tensor, got {cls!r}")
    install_object_class(kTVMFFITensor, cls)
    _CLASS_TENSOR = cls


cdef object make_tensor_from_borrowed(const DLTensor* tensor):
    """A Tensor that views a borrowed DLTensor* without owning it (valid during the call)."""
    cdef TVMFFIObjectHandle handle = NULL
    TVMFFIPyTensorViewOfBorrowed(tensor, &handle)
    return make_object_from_handle(handle)
