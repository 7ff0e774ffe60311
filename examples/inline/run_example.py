# SPDX-License-Identifier: Apache-2.0
"""C++ inline: compile a kernel from a Python string with tvm_ffi.cpp.load_inline, then call it.

Run as ``python examples/inline/run_example.py``. The first run compiles (a few seconds); later
runs with the same source reuse the library cached under ``$TVM_FFI_CACHE_DIR``.
"""

from __future__ import annotations

import numpy as np

import tvm_ffi
import tvm_ffi.cpp

# [source-begin]
SCALE_SOURCE = r"""
// Rejects anything but a 1-D float32 CPU tensor, naming the argument.
void CheckFloat32Vector(const tvm::ffi::TensorView& t, const char* name) {
  if (t.dtype() != DLDataType{kDLFloat, 32, 1}) {
    TVM_FFI_THROW(TypeError) << "scale: " << name << " must be float32, got " << t.dtype();
  }
  if (t.ndim() != 1 || t.device().device_type != kDLCPU) {
    TVM_FFI_THROW(ValueError) << "scale: " << name << " must be a 1-D CPU tensor, got "
                              << t.ndim() << "-D";
  }
}

// Address of element 0: data_ptr() plus the tensor's byte offset.
float* FirstElement(const tvm::ffi::TensorView& t) {
  return reinterpret_cast<float*>(static_cast<char*>(t.data_ptr()) + t.byte_offset());
}

// scale(x, factor, out): out[i] = x[i] * factor.
void scale(tvm::ffi::TensorView x, double factor, tvm::ffi::TensorView out) {
  CheckFloat32Vector(x, "x");
  CheckFloat32Vector(out, "out");
  if (x.size(0) != out.size(0)) {
    TVM_FFI_THROW(ValueError) << "scale: x has " << x.size(0) << " elements, out has "
                              << out.size(0);
  }
  const float* in = FirstElement(x);
  float* result = FirstElement(out);
  for (int64_t i = 0; i < x.size(0); ++i) {
    result[i * out.stride(0)] = static_cast<float>(in[i * x.stride(0)] * factor);
  }
}
"""
# [source-end]


# [load-begin]
def load(build_directory: str | None = None) -> tvm_ffi.Module:
    """Compile SCALE_SOURCE (cached) and load it; ``functions`` names what to export."""
    return tvm_ffi.cpp.load_inline(
        "inline_scale",
        cpp_sources=SCALE_SOURCE,
        functions={"scale": "scale(x, factor, out): out = x * factor on float32 vectors"},
        build_directory=build_directory,
    )


# [load-end]


# [numpy-begin]
def run_numpy(scale: tvm_ffi.Function) -> None:
    """Scale a NumPy array into another; both are passed without copying."""
    x = np.arange(5, dtype=np.float32)
    out = np.empty_like(x)
    scale(x, 2.5, out)
    print("numpy:", x, "* 2.5 ->", out)
    assert np.array_equal(out, x * 2.5)


# [numpy-end]


# [torch-begin]
def run_torch(scale: tvm_ffi.Function) -> None:
    """Scale a torch tensor the same way (skipped when torch is not installed)."""
    try:
        import torch
    except ImportError:
        print("torch: not installed, skipped")
        return
    x = torch.arange(5, dtype=torch.float32)
    out = torch.empty_like(x)
    scale(x, -1.0, out)
    print("torch:", x.tolist(), "* -1 ->", out.tolist())
    assert torch.equal(out, -x)


# [torch-end]


# [errors-begin]
def show_errors(scale: tvm_ffi.Function) -> None:
    """Show the errors the checks in the C++ code raise."""
    try:
        scale(np.zeros(3, dtype=np.int32), 1.0, np.zeros(3, dtype=np.float32))
    except TypeError as err:
        print("a wrong dtype is reported as:", f"TypeError: {err}")
    try:
        scale(np.zeros((2, 2), dtype=np.float32), 1.0, np.zeros(4, dtype=np.float32))
    except ValueError as err:
        print("a wrong shape is reported as:", f"ValueError: {err}")


# [errors-end]


def main(build_directory: str | None = None) -> None:
    """Compile (in build_directory, else in the cache), load and run."""
    module = load(build_directory)
    print("docstring:", module.get_function_doc("scale"))
    run_numpy(module.scale)
    run_torch(module.scale)
    show_errors(module.scale)


if __name__ == "__main__":
    main()
