#pragma once
// keep_until_exit(buffer): memory an abandoned MPI operation may still read or write, kept
// (never freed) until the process ends. When a DistributedSolver gives up on a call because
// another process failed (fault_watch.hpp), some of its operations stay pending: a nonblocking
// collective the failed process will never join (MPI forbids freeing or cancelling its
// request), a halo receive whose cancel came too late. MPI's progress engine may still touch
// their buffers, so the buffers move here instead of being freed with the solver. This
// happens only after a failure, and holds one solver's halo and a few scalars.
#include <memory>
#include <type_traits>
#include <utility>

namespace spk {

void keep_object_until_exit(std::shared_ptr<void> object);

// Takes the buffer (an rvalue: a moved std::vector keeps its heap block, so what MPI was
// given stays valid).
template <class Buffer>
void keep_until_exit(Buffer&& buffer) {
  static_assert(!std::is_lvalue_reference_v<Buffer>, "move the buffer in");
  keep_object_until_exit(std::make_shared<std::decay_t<Buffer>>(std::move(buffer)));
}

}  // namespace spk
