#pragma once
// What bag-of-visual-words needs from OpenCV (features2d, FileStorage, the CPU peers), given to
// the core by the front ends: setBowOpenCv(bowThroughOpenCv()).
#include "pipelines/bow/collection.h"

namespace histlab {

/// KAZE/SIFT description of image files (decoded by loadImage, reduced to the longer side
/// asked with INTER_AREA, as 8-bit luma), FileStorage descriptors and codebooks, and the
/// BFMatcher and cv::kmeans peers.
BowOpenCv bowThroughOpenCv();

} // namespace histlab
