// SPDX-License-Identifier: Apache-2.0
// old_queue_lib.cc: a library compiled with the delete queue of earlier headers
// (tests/compat/old_delete_queue first on the include path), which keeps its own thread-local
// queue, frees long chains that alternate its own objects with containers of the runtime: the
// runtime frees every other link with its queue, the library the rest with its own.
// test_delete_queue_compat.py loads it on the current runtime.
#include <tvm/ffi/any.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/memory.h>
#include <tvm/ffi/object.h>

#include <atomic>
#include <thread>
#include <utility>
#include <vector>

namespace old_queue_lib {
using namespace tvm::ffi;  // NOLINT(*)

std::atomic<int64_t> freed{0};

/// A link of a chain, freed by this library's deleter.
class LinkObj : public Object {
 public:
  explicit LinkObj(Any next) : next(std::move(next)) {}
  ~LinkObj() { freed.fetch_add(1, std::memory_order_relaxed); }
  Any next;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("old_queue_lib.Link", LinkObj, Object);
};

/// A chain of `links` links, each but the first wrapped in an Array the runtime makes (and
/// frees): LinkObj -> runtime Array -> LinkObj -> ...
Any MakeChain(int64_t links) {
  Function make_array = Function::GetGlobalRequired("ffi.Array");
  Any chain;
  for (int64_t i = 0; i < links; ++i) {
    chain = ObjectRef(make_object<LinkObj>(make_array(std::move(chain))));
  }
  return chain;
}

/// Frees a chain of `links` links on `threads` threads at once; the links freed in all.
int64_t FreeChains(int64_t links, int64_t threads) {
  freed.store(0);
  std::vector<std::thread> workers;
  for (int64_t t = 0; t < threads; ++t) {
    workers.emplace_back([links] {
      Any chain = MakeChain(links);
      chain = nullptr;
    });
  }
  for (std::thread& worker : workers) worker.join();
  return freed.load();
}

/// Frees `depth` Arrays of the runtime nested in each other around one link: the library's
/// queue runs the outermost deletion, the runtime's queue all the nested ones. The links freed.
int64_t FreeRuntimeChain(int64_t depth) {
  Function make_array = Function::GetGlobalRequired("ffi.Array");
  freed.store(0);
  Any chain = ObjectRef(make_object<LinkObj>(Any()));
  for (int64_t i = 0; i < depth; ++i) chain = make_array(std::move(chain));
  chain = nullptr;
  return freed.load();
}

/// Frees a chain of `links` links from a thread_local destructor at the thread's exit.
int64_t FreeChainAtThreadExit(int64_t links) {
  struct Holder {
    ~Holder() { chain = nullptr; }
    Any chain;
  };
  freed.store(0);
  std::thread([links] {
    static thread_local Holder holder;
    holder.chain = MakeChain(links);
  }).join();
  return freed.load();
}
}  // namespace old_queue_lib

TVM_FFI_DLL_EXPORT_TYPED_FUNC(free_chains, old_queue_lib::FreeChains);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(free_runtime_chain, old_queue_lib::FreeRuntimeChain);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(free_chain_at_thread_exit, old_queue_lib::FreeChainAtThreadExit);
