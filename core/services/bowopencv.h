#pragma once
// What bag-of-visual-words needs from OpenCV (features2d, FileStorage, the CPU peers), given to
// the core by the front ends: setBowOpenCv(bowThroughOpenCv()).
#include "pipelines/bow/collection.h"

#include <cstdint>
#include <string_view>

namespace histlab {

/// KAZE/SIFT description of image files (decoded by loadImage, reduced to the longer side
/// asked with INTER_AREA, as 8-bit luma), FileStorage descriptors and codebooks, and the
/// BFMatcher and cv::kmeans peers.
BowOpenCv bowThroughOpenCv();

/// The most a codebook or descriptor file (FileStorage) may hold: 256 MiB. OpenCV's parser
/// builds a tree of several times the text, so this keeps one such file within a few GiB.
inline constexpr std::uint64_t kStorageFileLimit = std::uint64_t(256) << 20;
/// The deepest nesting a FileStorage file may have: 64 levels (a matrix needs 3). OpenCV's
/// parsers recurse once a level and overflow the stack on files nested some 100,000 deep.
inline constexpr std::size_t kStorageMaxNesting = 64;

/// How deeply FileStorage text nests, counted without parsing it (a cheap scan that may count
/// more, never fewer, levels than the parser would meet): XML's elements; YAML's and JSON's
/// brackets and braces outside quoted strings and comments, plus YAML's block levels (each
/// deeper indentation, each "- " of a sequence inside a sequence).
std::size_t storageNesting(std::string_view text);

/// A codebook (the matrix "vocabulary", else the first) or descriptors (the matrix
/// "descriptors", else the first) from FileStorage text read from `path`: refused, naming the
/// path, when nested more than kStorageMaxNesting levels, when it is no FileStorage text, when
/// its matrix is missing, empty, too wide, or holds a value that is not a finite float.
Codebook codebookFromStorage(const std::string& text, const std::string& path);
Descriptors descriptorsFromStorage(const std::string& text, const std::string& path);

} // namespace histlab
