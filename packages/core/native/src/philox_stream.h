// One call's share of a Generator's Philox stream: the key and the first 128-bit block's counter.
// Any thread can compute any block, so results do not depend on the thread count.
#pragma once

#include <array>
#include <cstdint>

#include "ember/ops/factory.h"

namespace ember {

struct PhiloxStream {
  std::array<uint32_t, 2> key;
  uint64_t counter;
  std::array<uint32_t, 4> block(uint64_t b) const {
    const uint64_t c = counter + b;
    return philox4x32_10({static_cast<uint32_t>(c), static_cast<uint32_t>(c >> 32), 0, 0}, key);
  }
};

// Reserves ceil(numel / k) blocks of `gen` (the default generator when null): k values per block.
inline PhiloxStream reserve_stream(Generator* gen, int64_t numel, int k) {
  Generator& g = gen ? *gen : default_generator();
  const Generator::Range r = g.reserve(static_cast<uint64_t>((numel + k - 1) / k));
  return {{static_cast<uint32_t>(r.seed), static_cast<uint32_t>(r.seed >> 32)}, r.counter};
}

}  // namespace ember
