#pragma once
// Bytes in host memory counted on one device as they arrive, chunk by chunk: what the
// end-to-end mode, batch and the split across devices stream with (histogramstream.cpp).
#include "pipelines/histogram256/histogram256.h"
#include "runtime/cancel.h"
#include "runtime/device.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace histlab {

/// The histogram of bytes in host memory streamed to one device in chunks of `chunkBytes` (a
/// multiple of 48 bytes): each chunk is written on a copy queue of its own and counted as soon
/// as it has arrived, so a chunk's transfer overlaps the previous chunk's kernel (three device
/// buffers in rotation). With `copyThreads`, a staged run first copies each chunk of ordinary
/// memory with that many threads into pinned buffers, from which the driver writes at the
/// pinned rate. What the end-to-end mode, batch and the split across devices stream with.
class HistogramStream {
public:
    HistogramStream(Device& device, HistogramKernel& kernel, std::size_t chunkBytes,
                    unsigned copyThreads = 0);
    ~HistogramStream();
    HistogramStream(const HistogramStream&) = delete;
    HistogramStream& operator=(const HistogramStream&) = delete;
    /// The counts (kernel.bins()) of `bytes` at `data`, through the pinned staging buffers when
    /// `staged` (which needs copy threads).
    std::vector<cl_uint> run(const std::uint8_t* data, std::size_t bytes, bool staged,
                             const CancelToken& cancel = {});
    cl::CommandQueue& copyQueue();

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace histlab
