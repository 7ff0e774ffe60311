// SPDX-License-Identifier: Apache-2.0
// extra/cuda/cubin_launcher.h: CubinModule/CubinKernel (load a CUBIN image from memory and launch
// its kernels on any device) and the macros that bind an embedded CUBIN to a lazy module.
//
// Embedding: compile kernels with `nvcc --cubin`, then let `python -m tvm_ffi.utils.embed_cubin`
// (or the CMake function tvm_ffi_embed_bin_into) add the image to an object file under the symbols
// __tvm_ffi__cubin_<name> and __tvm_ffi__cubin_<name>_end. In the C++ source:
//
//   TVM_FFI_EMBED_CUBIN(my_kernels);
//   void Run(void** args, cudaStream_t stream) {
//     static auto kernel = TVM_FFI_EMBED_CUBIN_GET_KERNEL(my_kernels, "add_one");
//     TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(
//         kernel.Launch(args, tvm::ffi::dim3(64), tvm::ffi::dim3(256), stream));
//   }
#ifndef TVM_FFI_EXTRA_CUDA_CUBIN_LAUNCHER_H_
#define TVM_FFI_EXTRA_CUDA_CUBIN_LAUNCHER_H_

#include <cuda.h>
#include <cuda_runtime.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/cuda/base.h>
#include <tvm/ffi/extra/cuda/internal/unified_api.h>
#include <tvm/ffi/string.h>

#include <climits>
#include <cstdint>

/// Declares the CUBIN image that the embed tools link in as __tvm_ffi__cubin_<name> (start) and
/// __tvm_ffi__cubin_<name>_end, and a lazily loaded module for it, at namespace scope.
#define TVM_FFI_EMBED_CUBIN(name)                        \
  extern "C" const char __tvm_ffi__cubin_##name[];       \
  extern "C" const char __tvm_ffi__cubin_##name##_end[]; \
  TVM_FFI_EMBED_CUBIN_MODULE_(name, __tvm_ffi__cubin_##name)

/// Declares a lazily loaded module for an in-source image: a byte array or pointer (e.g. from
/// bin2c or `#embed`) or a tvm::ffi::Bytes, at namespace scope.
#define TVM_FFI_EMBED_CUBIN_FROM_BYTES(name, imageBytes) \
  TVM_FFI_EMBED_CUBIN_MODULE_(name, imageBytes)

/// The kernel kernel_name (a C string) of the module declared by TVM_FFI_EMBED_CUBIN[_FROM_BYTES]
/// in this translation unit, as a CubinKernel; keep it in a `static auto` to look it up once.
/// The image is loaded on first use; a failure throws RuntimeError and is retried next time.
#define TVM_FFI_EMBED_CUBIN_GET_KERNEL(name, kernel_name) \
  (EmbedCubinModule_##name::Global()->mod[kernel_name])

// The per-image singleton behind the two embed macros. Its name, `mod` and `Global()` are used
// directly by code that needs more than operator[], e.g.
// `EmbedCubinModule_<name>::Global()->mod.GetKernelWithMaxDynamicSharedMemory("k", bytes)`.
#define TVM_FFI_EMBED_CUBIN_MODULE_(name, image) \
  namespace {                                    \
  struct EmbedCubinModule_##name {               \
    ::tvm::ffi::CubinModule mod{image};          \
    static EmbedCubinModule_##name* Global() {   \
      static EmbedCubinModule_##name instance;   \
      return &instance;                          \
    }                                            \
  };                                             \
  } /* namespace */

namespace tvm {
namespace ffi {

class CubinKernel;

/// Owns a CUDA library loaded from a CUBIN (or FATBIN/PTX) image in memory; the library is
/// context-independent, so its kernels run on whichever device is current. Move-only; the
/// library is unloaded by the destructor.
class CubinModule {
 public:
  /// Loads the image held by bytes; throws ValueError if it is empty, RuntimeError on failure.
  explicit CubinModule(const Bytes& bytes) {
    if (bytes.size() == 0) TVM_FFI_THROW(ValueError) << "CubinModule: the CUBIN image is empty";
    Load(bytes.data());
  }
  /// Loads the image at code (an ELF/FATBIN image, so its size is read from its header).
  explicit CubinModule(const char* code) { Load(code); }
  /// Loads the image at code (an ELF/FATBIN image, so its size is read from its header).
  explicit CubinModule(const unsigned char* code) { Load(code); }

  ~CubinModule() { Unload(); }

  CubinModule(const CubinModule&) = delete;
  CubinModule& operator=(const CubinModule&) = delete;

  /// Takes the library of other, which is left empty.
  CubinModule(CubinModule&& other) noexcept : library_(other.library_) { other.library_ = nullptr; }

  /// Unloads the current library and takes the one of other, which is left empty.
  CubinModule& operator=(CubinModule&& other) noexcept {
    if (this != &other) {
      Unload();
      library_ = other.library_;
      other.library_ = nullptr;
    }
    return *this;
  }

  /// The kernel called name; throws RuntimeError naming it if the image has no such kernel.
  CubinKernel GetKernel(const char* name);

  /// GetKernel, then allow up to dynamic_smem_max bytes of dynamic shared memory per launch on
  /// every device; -1 means all the device allows beyond the kernel's static shared memory.
  CubinKernel GetKernelWithMaxDynamicSharedMemory(const char* name, int64_t dynamic_smem_max = -1);

  /// Same as GetKernel(name).
  CubinKernel operator[](const char* name);

  /// The CUDA library handle (null after a move).
  cuda_api::LibraryHandle GetHandle() const { return library_; }

 private:
  void Load(const void* image) {
    if (image == nullptr) TVM_FFI_THROW(ValueError) << "CubinModule: the CUBIN image is null";
    cuda_api::LibraryHandle library = nullptr;
    TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR(cuda_api::LoadLibrary(&library, image));
    library_ = library;
  }

  // Errors are ignored: this also runs at exit, when CUDA may already be shut down.
  void Unload() noexcept {
    if (library_ != nullptr) (void)cuda_api::UnloadLibrary(library_);
    library_ = nullptr;
  }

  cuda_api::LibraryHandle library_ = nullptr;
};

/// A kernel of a CubinModule; the handle stays valid while the module's library is loaded.
/// Move-only. Launch results are returned, not thrown: wrap them in
/// TVM_FFI_CHECK_CUBIN_LAUNCHER_CUDA_ERROR.
class CubinKernel {
 public:
  /// Looks up kernel name in library; throws RuntimeError naming it if it is not found.
  CubinKernel(cuda_api::LibraryHandle library, const char* name) {
    if (library == nullptr) {
      TVM_FFI_THROW(RuntimeError) << "CubinKernel: no CUDA library loaded (moved-from module?)";
    }
    if (name == nullptr) TVM_FFI_THROW(ValueError) << "CubinKernel: the kernel name is null";
    cuda_api::ResultType err = cuda_api::GetKernel(&kernel_, library, name);
    if (err != cuda_api::kSuccess) {
      const char* err_name = nullptr;
      const char* err_text = nullptr;
      cuda_api::GetErrorString(err, &err_name, &err_text);
      TVM_FFI_THROW(RuntimeError) << "CUDA Error: " << err_name << " (" << static_cast<int>(err)
                                  << "): " << err_text << " (looking up kernel '" << name << "')";
    }
  }

  ~CubinKernel() = default;

  CubinKernel(const CubinKernel&) = delete;
  CubinKernel& operator=(const CubinKernel&) = delete;

  /// Takes the handle of other, which is left empty.
  CubinKernel(CubinKernel&& other) noexcept : kernel_(other.kernel_) { other.kernel_ = nullptr; }

  /// Takes the handle of other, which is left empty.
  CubinKernel& operator=(CubinKernel&& other) noexcept {
    if (this != &other) {
      kernel_ = other.kernel_;
      other.kernel_ = nullptr;
    }
    return *this;
  }

  /// Launches asynchronously on stream (0: the default stream) of the current device; args[i]
  /// is the address of the i-th argument's value.
  cuda_api::ResultType Launch(void** args, dim3 grid, dim3 block, cuda_api::StreamHandle stream,
                              uint32_t dyn_smem_bytes = 0) {
    return cuda_api::LaunchKernel(kernel_, args, grid, block, stream, dyn_smem_bytes);
  }

  /// Launches with a configuration from cuda_api::ConstructLaunchConfig (e.g. with clusters).
  cuda_api::ResultType LaunchEx(void** args, const cuda_api::LaunchConfig& config) {
    return cuda_api::LaunchKernelEx(kernel_, args, config);
  }

  /// The CUDA kernel handle (null after a move).
  cuda_api::KernelHandle GetHandle() const { return kernel_; }

 private:
  friend class CubinModule;

  /// Raises the kernel's dynamic shared memory limit on every device (see
  /// CubinModule::GetKernelWithMaxDynamicSharedMemory). Devices that refuse are skipped; throws
  /// RuntimeError only if every device refused, ValueError for a bad dynamic_smem_max.
  void SetMaxDynamicSharedMemory(int64_t dynamic_smem_max) {
    if (dynamic_smem_max < -1 || dynamic_smem_max > INT_MAX) {
      TVM_FFI_THROW(ValueError) << "GetKernelWithMaxDynamicSharedMemory: dynamic_smem_max must be "
                                << "-1 or a byte count in [0, " << INT_MAX << "], got "
                                << dynamic_smem_max;
    }
    int device_count = 0;
    if (cuda_api::GetDeviceCount(&device_count) != cuda_api::kSuccess || device_count == 0) {
      return;  // nothing to configure without devices
    }
    bool any_set = false;
    for (int device_id = 0; device_id < device_count; ++device_id) {
      any_set |=
          SetMaxDynamicSharedMemoryOn(cuda_api::GetDeviceHandle(device_id), dynamic_smem_max);
    }
    if (!any_set) {
      TVM_FFI_THROW(RuntimeError) << "CubinKernel: could not set the maximum dynamic shared memory "
                                  << "on any of the " << device_count << " CUDA devices";
    }
  }

  /// One device's part of SetMaxDynamicSharedMemory; false if the device refused.
  bool SetMaxDynamicSharedMemoryOn(cuda_api::DeviceHandle device, int64_t dynamic_smem_max) {
    int limit = static_cast<int>(dynamic_smem_max);
    if (dynamic_smem_max == -1) {
      int device_max = 0;
      int static_smem = 0;
      if (cuda_api::GetDeviceAttribute(&device_max, cuda_api::kMaxSharedMemoryPerBlockOptin,
                                       device) != cuda_api::kSuccess ||
          cuda_api::GetKernelSharedMem(kernel_, static_smem, device) != cuda_api::kSuccess) {
        return false;
      }
      limit = device_max > static_smem ? device_max - static_smem : 0;
    }
    return cuda_api::SetKernelMaxDynamicSharedMem(kernel_, limit, device) == cuda_api::kSuccess;
  }

  cuda_api::KernelHandle kernel_ = nullptr;
};

inline CubinKernel CubinModule::GetKernel(const char* name) { return CubinKernel(library_, name); }

inline CubinKernel CubinModule::GetKernelWithMaxDynamicSharedMemory(const char* name,
                                                                    int64_t dynamic_smem_max) {
  CubinKernel kernel(library_, name);
  kernel.SetMaxDynamicSharedMemory(dynamic_smem_max);
  return kernel;
}

inline CubinKernel CubinModule::operator[](const char* name) { return GetKernel(name); }

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_CUDA_CUBIN_LAUNCHER_H_
