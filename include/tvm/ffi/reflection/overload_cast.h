// SPDX-License-Identifier: Apache-2.0
// reflection/overload_cast.h: overload_cast, picking one function of an overload set by its
// leading parameter types, for the registration helpers that need a single function pointer:
//
//   refl::overload_cast<int>(&Pet::Set)                  // void (Pet::*)(int)
//   refl::overload_cast<const Cat*>(&Pet::Feed)          // trailing parameters are deduced
//   refl::overload_cast<int>(&Pet::Get, refl::const_)    // a const method needs the tag
//
// Spelling every parameter picks the exact overload even when another one shares the prefix.
#ifndef TVM_FFI_REFLECTION_OVERLOAD_CAST_H_
#define TVM_FFI_REFLECTION_OVERLOAD_CAST_H_

#include <type_traits>

namespace tvm {
namespace ffi {
namespace reflection {
namespace details {

/// The function object behind overload_cast<Args...>: each call returns its argument, a free
/// function, a method or (with the const_ tag) a const method whose parameters start with
/// Args. Exact parameter lists are more specialized than prefixes, so they win ties.
template <typename... Args>
struct OverloadCastImpl {
  template <typename R>
  constexpr auto operator()(R (*func)(Args...)) const noexcept {
    return func;
  }
  template <typename R, typename C>
  constexpr auto operator()(R (C::*method)(Args...), std::false_type = {}) const noexcept {
    return method;
  }
  template <typename R, typename C>
  constexpr auto operator()(R (C::*method)(Args...) const, std::true_type) const noexcept {
    return method;
  }

  template <typename R, typename... Rest>
  constexpr auto operator()(R (*func)(Args..., Rest...)) const noexcept {
    return func;
  }
  template <typename R, typename C, typename... Rest>
  constexpr auto operator()(R (C::*method)(Args..., Rest...), std::false_type = {}) const noexcept {
    return method;
  }
  template <typename R, typename C, typename... Rest>
  constexpr auto operator()(R (C::*method)(Args..., Rest...) const, std::true_type) const noexcept {
    return method;
  }
};

}  // namespace details

/// Picks the overload whose parameters start with Args (see the file comment).
template <typename... Args>
inline constexpr details::OverloadCastImpl<Args...> overload_cast = {};

/// The tag selecting a const method in overload_cast.
inline constexpr std::true_type const_ = {};

}  // namespace reflection
}  // namespace ffi
}  // namespace tvm
#endif  // TVM_FFI_REFLECTION_OVERLOAD_CAST_H_
