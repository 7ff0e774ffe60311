// SPDX-License-Identifier: Apache-2.0
// address_table.h: AddressTable, a flat hash table from addresses to small values, for
// traversals that look up every node they meet (no allocation per entry, no removal).
#ifndef TVM_FFI_SRC_FFI_ADDRESS_TABLE_H_
#define TVM_FFI_SRC_FFI_ADDRESS_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tvm {
namespace ffi {

/// A hash table from non-null addresses to default-constructible values, with open addressing
/// and linear probing. Entries are never removed (a caller resets a value instead), so a
/// reference to a value stays valid until the table grows, which changes `generation()`.
template <typename Value>
class AddressTable {
 public:
  /// The value of key, default-constructed and inserted when key is new.
  Value& operator[](const void* key) {
    if (slots_.empty()) Rehash(kInitialCapacity);
    Slot* slot = Probe(key);
    if (slot->key == key) return slot->value;
    if ((size_ + 1) * 2 > slots_.size()) {
      Rehash(slots_.size() * 2);
      slot = Probe(key);
    }
    slot->key = key;
    ++size_;
    return slot->value;
  }

  /// How many times the table has grown (and moved its values).
  size_t generation() const { return generation_; }

  /// The value of key, or nullptr when key was never inserted.
  Value* Find(const void* key) {
    if (slots_.empty()) return nullptr;
    Slot* slot = Probe(key);
    return slot->key == key ? &slot->value : nullptr;
  }

 private:
  struct Slot {
    const void* key = nullptr;
    Value value{};
  };

  static constexpr size_t kInitialCapacity = 64;

  /// The slot holding key, or the empty slot where key belongs.
  Slot* Probe(const void* key) {
    size_t mask = slots_.size() - 1;
    // Fibonacci hashing: the high bits of the product spread aligned addresses evenly.
    uint64_t mixed = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(key)) * kGolden;
    for (size_t i = static_cast<size_t>(mixed >> shift_);; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.key == key || slot.key == nullptr) return &slot;
    }
  }

  /// Moves every entry into a table of `capacity` slots (a power of two).
  void Rehash(size_t capacity) {
    ++generation_;
    std::vector<Slot> old = std::move(slots_);
    slots_ = std::vector<Slot>(capacity);
    shift_ = 64;
    for (size_t c = capacity; c > 1; c >>= 1) --shift_;
    for (Slot& slot : old) {
      if (slot.key != nullptr) *Probe(slot.key) = std::move(slot);
    }
  }

  static constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ULL;
  std::vector<Slot> slots_;
  size_t size_ = 0;
  size_t generation_ = 0;
  unsigned shift_ = 64;
};

}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_SRC_FFI_ADDRESS_TABLE_H_
