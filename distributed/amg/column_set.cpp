#include "distributed/amg/column_set.hpp"

#include <algorithm>

namespace spk {

namespace {

// The span [min, max] of the ids outside [own_begin, own_end); empty: min > max.
void outside_span(const std::vector<global_index_t>& ids, global_index_t own_begin,
                  global_index_t own_end, global_index_t& min, global_index_t& max) {
  for (const global_index_t id : ids)
    if (id < own_begin || id >= own_end) {
      min = std::min(min, id);
      max = std::max(max, id);
    }
}

}  // namespace

std::vector<global_index_t> distinct_outside(const std::vector<global_index_t>& ids,
                                             global_index_t own_begin, global_index_t own_end,
                                             const std::vector<global_index_t>& more) {
  global_index_t min = INT64_MAX, max = INT64_MIN;
  outside_span(ids, own_begin, own_end, min, max);
  outside_span(more, own_begin, own_end, min, max);
  std::vector<global_index_t> distinct;
  if (min > max) return distinct;
  const auto outside = [&](global_index_t id) { return id < own_begin || id >= own_end; };
  if (max - min < dense_span_limit) {  // a bitmap over the span, read in order
    std::vector<std::uint64_t> words(static_cast<std::size_t>((max - min) / 64 + 1), 0);
    const auto mark = [&](const std::vector<global_index_t>& list) {
      for (const global_index_t id : list)
        if (outside(id)) {
          const auto bit = static_cast<std::uint64_t>(id - min);
          words[bit >> 6] |= std::uint64_t{1} << (bit & 63);
        }
    };
    mark(ids);
    mark(more);
    for (std::size_t w = 0; w < words.size(); ++w)
      for (std::uint64_t word = words[w]; word != 0; word &= word - 1)
        distinct.push_back(min + static_cast<global_index_t>(64 * w) + __builtin_ctzll(word));
    return distinct;
  }
  for (const auto* list : {&ids, &more})
    for (const global_index_t id : *list)
      if (outside(id)) distinct.push_back(id);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  return distinct;
}

ColumnSlots::ColumnSlots(const std::vector<global_index_t>& members) {
  if (members.empty()) {
    dense_ = true;  // first_ > last_: nothing is a member
    return;
  }
  first_ = members.front();
  last_ = members.back();
  dense_ = last_ - first_ < dense_span_limit;
  if (!dense_) {
    members_ = members;
    return;
  }
  words_.assign(static_cast<std::size_t>((last_ - first_) / 64 + 1), 0);
  for (const global_index_t id : members) {
    const auto bit = static_cast<std::uint64_t>(id - first_);
    words_[bit >> 6] |= std::uint64_t{1} << (bit & 63);
  }
  before_.resize(words_.size());
  index_t count = 0;
  for (std::size_t w = 0; w < words_.size(); ++w) {
    before_[w] = count;
    count += static_cast<index_t>(__builtin_popcountll(words_[w]));
  }
}

index_t ColumnSlots::sparse_slot(global_index_t id) const {
  const auto at = std::lower_bound(members_.begin(), members_.end(), id);
  if (at == members_.end() || *at != id) return -1;
  return static_cast<index_t>(at - members_.begin());
}

}  // namespace spk
