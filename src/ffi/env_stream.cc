// SPDX-License-Identifier: Apache-2.0
// env_stream.cc: the current stream of each (device type, device id), per thread.
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace {

/// This thread's streams. Kernels look one up on every launch, so the table is a short
/// vector searched linearly: a thread rarely uses more than a few devices.
struct ThreadStreams {
  struct Entry {
    int32_t device_type;
    int32_t device_id;
    TVMFFIStreamHandle stream;
  };
  std::vector<Entry> entries;

  TVMFFIStreamHandle* Find(int32_t device_type, int32_t device_id) {
    for (Entry& entry : entries) {
      if (entry.device_type == device_type && entry.device_id == device_id) return &entry.stream;
    }
    return nullptr;
  }
};

ThreadStreams& CurrentThreadStreams() {
  thread_local ThreadStreams streams;
  return streams;
}

}  // namespace

extern "C" {

int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id, TVMFFIStreamHandle stream,
                       TVMFFIStreamHandle* opt_out_original_stream) {
  TVM_FFI_SAFE_CALL_BEGIN();
  ThreadStreams& streams = CurrentThreadStreams();
  TVMFFIStreamHandle* slot = streams.Find(device_type, device_id);
  TVMFFIStreamHandle previous = slot != nullptr ? *slot : nullptr;
  if (slot != nullptr) {
    *slot = stream;
  } else if (stream != nullptr) {
    streams.entries.push_back({device_type, device_id, stream});
  }
  if (opt_out_original_stream != nullptr) *opt_out_original_stream = previous;
  TVM_FFI_SAFE_CALL_END();
}

TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id) {
  TVMFFIStreamHandle* slot = CurrentThreadStreams().Find(device_type, device_id);
  return slot != nullptr ? *slot : nullptr;
}

}  // extern "C"
