# SPDX-License-Identifier: Apache-2.0
# env.pxi: this thread's stream per device in the runtime's environment (tvm_ffi.stream).


def _env_set_stream(int32_t device_type, int32_t device_id, stream) -> int:
    """Sets this thread's stream for a device; returns the previous one (0 for none)."""
    cdef void* previous = NULL
    CHECK_CALL(TVMFFIEnvSetStream(device_type, device_id, <void*><uint64_t>int(stream or 0),
                                  &previous))
    return <uint64_t>previous


def _env_get_stream(int32_t device_type, int32_t device_id) -> int:
    """This thread's stream for a device (0 when none is set)."""
    return <uint64_t>TVMFFIEnvGetStream(device_type, device_id)


# Upstream's names for the two (tvm_ffi.stream and downstream code call them).
_env_set_current_stream = _env_set_stream
_env_get_current_stream = _env_get_stream
