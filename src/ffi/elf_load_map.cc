// SPDX-License-Identifier: Apache-2.0
// elf_load_map.cc: ElfLoadMap, the loadable segments of a library file.
#include <elf.h>

#include <cstdint>
#include <sstream>
#include <string>

#include "elf_dynamic_internal.h"

namespace tvm {
namespace ffi {
namespace details {
namespace {

/// "[begin, end)" in hexadecimal.
std::string AddressRange(uint64_t begin, uint64_t size) {
  std::ostringstream os;
  os << std::hex << "[0x" << begin << ", 0x" << begin + size << ")";
  return os.str();
}

bool Contains(uint64_t begin, uint64_t length, uint64_t address, uint64_t size) {
  return address >= begin && address - begin <= length && size <= length - (address - begin);
}

}  // namespace

ElfLoadMap::ElfLoadMap(const ElfFileView& file, const ElfW(Ehdr) & header) : file_(file) {
  const auto* headers = file.At<ElfW(Phdr)>(header.e_phoff, header.e_phnum);
  if (headers == nullptr) return;
  for (size_t i = 0; i < header.e_phnum; ++i) {
    if (headers[i].p_type == PT_LOAD) segments_.push_back(&headers[i]);
  }
}

std::string ElfLoadMap::Problem() const {
  for (size_t i = 0; i < segments_.size(); ++i) {
    const ElfW(Phdr) & segment = *segments_[i];
    std::string name = "loadable segment " + std::to_string(i);
    if (segment.p_filesz > segment.p_memsz) {
      return "truncated or corrupt: " + name + " has more bytes in the file (" +
             std::to_string(segment.p_filesz) + ") than in memory (" +
             std::to_string(segment.p_memsz) + ")";
    }
    if (segment.p_memsz > UINT64_MAX - segment.p_vaddr) {
      return "truncated or corrupt: " + name + " ends past the end of the address space";
    }
    if (i == 0) continue;
    const ElfW(Phdr) & previous = *segments_[i - 1];
    if (segment.p_vaddr < uint64_t{previous.p_vaddr} + previous.p_memsz) {
      return "truncated or corrupt: loadable segments " + std::to_string(i - 1) + " and " +
             std::to_string(i) + " overlap or are out of order (addresses " +
             AddressRange(previous.p_vaddr, previous.p_memsz) + " and " +
             AddressRange(segment.p_vaddr, segment.p_memsz) + ")";
    }
  }
  return "";
}

bool ElfLoadMap::InImage(uint64_t address, uint64_t size) const {
  const ElfW(Phdr)* segment = SegmentAt(address);
  return segment != nullptr && Contains(segment->p_vaddr, segment->p_memsz, address, size);
}

const ElfW(Phdr) * ElfLoadMap::SegmentAt(uint64_t address) const {
  for (const ElfW(Phdr)* segment : segments_) {
    if (address >= segment->p_vaddr && address - segment->p_vaddr < segment->p_memsz) {
      return segment;
    }
  }
  return nullptr;
}

const ElfW(Phdr) * ElfLoadMap::FileSegment(uint64_t address, uint64_t count, uint64_t size) const {
  if (size != 0 && count > UINT64_MAX / size) return nullptr;
  const ElfW(Phdr)* segment = SegmentAt(address);
  if (segment == nullptr || !Contains(segment->p_vaddr, segment->p_filesz, address, count * size)) {
    return nullptr;
  }
  return segment;
}

}  // namespace details
}  // namespace ffi
}  // namespace tvm
