#pragma once
// What only OpenCV (and the image libraries of io/) can do, given to the pipeline families'
// hooks in one call, so that every front end (histlab-cli, the window, the tests that need
// them) wires the same services: the image file reader and writer (batch), cv::blur (blur
// --compare-opencv), and local features, FileStorage and the CPU peers (bag of words).
// This floor sits above pipelines/: it may include the families whose hooks it fills; no
// family includes it.
namespace histlab {

/// Sets the image file reader and writer, the blur peer and the bag-of-words functions.
/// Call it once, before any run.
void installOpenCvServices();

} // namespace histlab
