#include "spmv/tuning/matrix_fingerprint.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace spk {

namespace {

constexpr std::int64_t chunk_words = 1 << 20;

// splitmix64's finalizer: a good avalanche for combining.
std::uint64_t mix(std::uint64_t value) {
  value ^= value >> 30;
  value *= 0xbf58476d1ce4e5b9ULL;
  value ^= value >> 27;
  value *= 0x94d049bb133111ebULL;
  return value ^ (value >> 31);
}

// FNV-1a over 32-bit words of one chunk, seeded with the chunk's position.
std::uint64_t hash_chunk(const index_t* words, std::int64_t count, std::uint64_t seed) {
  std::uint64_t hash = 0xcbf29ce484222325ULL ^ mix(seed);
  for (std::int64_t i = 0; i < count; ++i) {
    hash ^= static_cast<std::uint32_t>(words[i]);
    hash *= 0x100000001b3ULL;
  }
  return mix(hash);
}

// Chunk hashes of `words` (in parallel), folded in chunk order.
std::uint64_t hash_array(const index_t* words, std::int64_t count, std::uint64_t salt) {
  const std::int64_t chunks = (count + chunk_words - 1) / chunk_words;
  std::vector<std::uint64_t> chunk_hashes(static_cast<std::size_t>(chunks));
#pragma omp parallel for schedule(static)
  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::int64_t begin = c * chunk_words;
    const std::int64_t length = std::min(chunk_words, count - begin);
    chunk_hashes[static_cast<std::size_t>(c)] = hash_chunk(
        words + begin, length, salt * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(c));
  }
  std::uint64_t hash = mix(salt ^ static_cast<std::uint64_t>(count));
  for (const std::uint64_t chunk : chunk_hashes) hash = mix(hash ^ chunk) * 0x100000001b3ULL;
  return hash;
}

}  // namespace

MatrixFingerprint fingerprint_pattern(index_t rows, index_t cols, const index_t* row_offsets,
                                      const index_t* columns) {
  MatrixFingerprint fingerprint;
  fingerprint.rows = rows;
  fingerprint.cols = cols;
  fingerprint.nnz = rows > 0 ? row_offsets[rows] : 0;
  const std::uint64_t offsets_hash =
      hash_array(row_offsets, static_cast<std::int64_t>(rows) + 1, 1);
  const std::uint64_t columns_hash = hash_array(columns, fingerprint.nnz, 2);
  fingerprint.pattern_hash =
      mix(offsets_hash ^ mix(columns_hash) ^ (static_cast<std::uint64_t>(cols) << 1));
  return fingerprint;
}

std::string hex_text(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace spk
