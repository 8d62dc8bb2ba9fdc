#include "kvlab/testing/failing_allocator.h"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cassert>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define KVLAB_HOOK_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define KVLAB_HOOK_MALLOC 0
#endif
#endif
#ifndef KVLAB_HOOK_MALLOC
#define KVLAB_HOOK_MALLOC 1
#endif

namespace {

// The calling thread's counter. Plain data, so that reading it inside
// malloc needs no dynamic initialisation.
struct FailureState {
  bool counting = false;
  // Set while operator new throws: the malloc that allocates the exception
  // object is the runtime's, not the caller's, and must neither count nor
  // fail.
  bool next_malloc_is_the_exception = false;
  bool and_all_after = false;
  uint64_t nth = 0;
  uint64_t allocations = 0;
  uint64_t failures = 0;
};
constinit thread_local FailureState state;

// Counts one allocation; true if it must fail.
bool ShouldFail() {
  if (!state.counting) return false;
  if (state.next_malloc_is_the_exception) {
    state.next_malloc_is_the_exception = false;
    return false;
  }
  const uint64_t number = ++state.allocations;
  const bool fail =
      state.nth != 0 &&
      (number == state.nth || (state.and_all_after && number > state.nth));
  if (fail) ++state.failures;
  return fail;
}

}  // namespace

#if KVLAB_HOOK_MALLOC
// glibc's own entry points, which the interposed functions forward to.
extern "C" void* __libc_malloc(size_t size);
extern "C" void* __libc_calloc(size_t count, size_t size);
extern "C" void* __libc_realloc(void* ptr, size_t size);
extern "C" void __libc_free(void* ptr);

namespace {
void* RawMalloc(size_t size) { return __libc_malloc(size); }
}  // namespace

extern "C" void* malloc(size_t size) {
  if (ShouldFail()) {
    errno = ENOMEM;
    return nullptr;
  }
  return __libc_malloc(size);
}

extern "C" void* calloc(size_t count, size_t size) {
  if (ShouldFail()) {
    errno = ENOMEM;
    return nullptr;
  }
  return __libc_calloc(count, size);
}

extern "C" void* realloc(void* ptr, size_t size) {
  if (ShouldFail()) {
    errno = ENOMEM;
    return nullptr;
  }
  return __libc_realloc(ptr, size);
}

extern "C" void free(void* ptr) { __libc_free(ptr); }

// Programs linked with this file call this mmap instead of glibc's; glibc's
// own internal mappings (malloc's, thread stacks) do not come through here.
extern "C" void* mmap(void* addr, size_t length, int prot, int flags, int fd,
                      off_t offset) {
  if (ShouldFail()) {
    errno = ENOMEM;
    return MAP_FAILED;
  }
  const long result = syscall(SYS_mmap, addr, length, prot, flags, fd, offset);
  // The raw system call returns -errno on failure and sets errno itself.
  if (result == -1) return MAP_FAILED;
  return reinterpret_cast<void*>(result);
}
#else
namespace {
void* RawMalloc(size_t size) { return std::malloc(size); }
}  // namespace
#endif

namespace {

void* NewOrNull(size_t size) {
  if (ShouldFail()) return nullptr;
  // operator new(0) must return a unique pointer.
  return RawMalloc(size == 0 ? 1 : size);
}

void* AlignedNewOrNull(size_t size, std::align_val_t alignment) {
  if (ShouldFail()) return nullptr;
  const size_t align = static_cast<size_t>(alignment);
  // aligned_alloc wants a size that is a multiple of the alignment.
  const size_t rounded = (size + align - 1) / align * align;
  return std::aligned_alloc(align, rounded == 0 ? align : rounded);
}

}  // namespace

namespace {
[[noreturn]] void ThrowBadAlloc() {
  state.next_malloc_is_the_exception = kvlab::testing::MallocFailuresInjected();
  throw std::bad_alloc();
}
}  // namespace

void* operator new(size_t size) {
  void* p = NewOrNull(size);
  if (p == nullptr) ThrowBadAlloc();
  return p;
}
void* operator new[](size_t size) { return operator new(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  return NewOrNull(size);
}
void* operator new[](size_t size, const std::nothrow_t&) noexcept {
  return NewOrNull(size);
}
void* operator new(size_t size, std::align_val_t alignment) {
  void* p = AlignedNewOrNull(size, alignment);
  if (p == nullptr) ThrowBadAlloc();
  return p;
}
void* operator new[](size_t size, std::align_val_t alignment) {
  return operator new(size, alignment);
}
void* operator new(size_t size, std::align_val_t alignment,
                   const std::nothrow_t&) noexcept {
  return AlignedNewOrNull(size, alignment);
}
void* operator new[](size_t size, std::align_val_t alignment,
                     const std::nothrow_t&) noexcept {
  return AlignedNewOrNull(size, alignment);
}

void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete(void* p, std::align_val_t,
                     const std::nothrow_t&) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::align_val_t,
                       const std::nothrow_t&) noexcept {
  std::free(p);
}

namespace kvlab::testing {

bool MallocFailuresInjected() { return KVLAB_HOOK_MALLOC != 0; }

FailingAllocations::FailingAllocations(uint64_t nth, bool and_all_after) {
  assert(!state.counting && "FailingAllocations scopes do not nest");
  state = FailureState{.counting = true,
                       .and_all_after = and_all_after,
                       .nth = nth,
                       .allocations = 0,
                       .failures = 0};
}

FailingAllocations::~FailingAllocations() { state.counting = false; }

void FailingAllocations::Pause() { state.counting = false; }
void FailingAllocations::Resume() { state.counting = true; }

uint64_t FailingAllocations::allocations() const { return state.allocations; }
uint64_t FailingAllocations::failures() const { return state.failures; }

}  // namespace kvlab::testing
