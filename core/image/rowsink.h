#pragma once
// What a decoder shows of an image while it decodes, so that what depends on every pixel but
// not on their order (histograms, a preview) is computed on an idle core as the rows arrive
// instead of after the last one: a 24-megapixel JPEG takes about 80 ms to decode on one core of
// the 2-core machine, its CPU reference counts about 45 ms more (docs/ui.md, latency).
#include "runtime/parallel.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace histlab {

/// The decoded image the rows belong to: 8-bit unsigned, `channels` interleaved, rows
/// width * channels bytes apart, and the EXIF/TIFF orientation (1 ... 8) still to be applied
/// to it after the last row (1: none).
struct RowsShape {
    int width = 0, height = 0, channels = 0;
    int orientation = 1;
};

/// Called by a decoder on its own thread: begin() once, rows() as rows become final, in order
/// from row 0, then end() once, after the last row or on failure. Between begin() and the end
/// of end(), rows [0, end) of the last rows() stay where `image` points (row 0); the decoder
/// changes or frees them only after end() has returned.
class RowSink {
public:
    virtual ~RowSink() = default;
    virtual void begin(const RowsShape& shape) = 0;
    virtual void rows(const std::uint8_t* image, int end) = 0;
    /// `complete`: every row was delivered and the decoder accepted the file.
    virtual void end(bool complete) = 0;
};

/// A RowSink that hands the rows to a thread of its own, where each consumer sees them in
/// order: begin(shape), then rows(image, first, end) for each new range of rows. end() waits
/// until the consumers have seen every row (the decoder may then free them). A consumer that
/// throws stops receiving rows; complete() then says false.
class RowPipe : public RowSink {
public:
    struct Consumer {
        std::function<void(const RowsShape&)> begin;
        std::function<void(const std::uint8_t* image, int first, int end)> rows;
    };

    explicit RowPipe(std::vector<Consumer> consumers);
    ~RowPipe() override;
    RowPipe(const RowPipe&) = delete;
    RowPipe& operator=(const RowPipe&) = delete;

    void begin(const RowsShape& shape) override;
    void rows(const std::uint8_t* image, int end) override;
    void end(bool complete) override;

    /// After end(): whether every consumer saw every row of an image the decoder accepted.
    bool complete() const;

private:
    void consume();

    std::vector<Consumer> m_consumers;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    RowsShape m_shape;
    const std::uint8_t* m_image = nullptr;
    bool m_begun = false, m_ended = false, m_accepted = false, m_failed = false;
    bool m_stop = false, m_drained = false;
    int m_available = 0, m_seen = 0;
    Thread m_thread;
};

} // namespace histlab
