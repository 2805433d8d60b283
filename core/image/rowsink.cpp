#include "image/rowsink.h"

#include "runtime/log.h"

#include <exception>

namespace histlab {

RowPipe::RowPipe(std::vector<Consumer> consumers)
    : m_consumers(std::move(consumers))
    , m_thread([this] { consume(); }) {}

RowPipe::~RowPipe() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_changed.notify_all();
    m_thread.join();
}

void RowPipe::begin(const RowsShape& shape) {
    {
        std::lock_guard lock(m_mutex);
        m_shape = shape;
        m_begun = true;
    }
    m_changed.notify_all();
}

void RowPipe::rows(const std::uint8_t* image, int end) {
    {
        std::lock_guard lock(m_mutex);
        m_image = image;
        m_available = end;
    }
    m_changed.notify_all();
}

void RowPipe::end(bool complete) {
    std::unique_lock lock(m_mutex);
    m_ended = true;
    m_accepted = complete;
    m_changed.notify_all();
    m_changed.wait(lock, [this] { return m_drained; });
}

bool RowPipe::complete() const {
    std::lock_guard lock(m_mutex);
    return m_drained && m_accepted && !m_failed && m_begun && m_seen == m_shape.height;
}

void RowPipe::consume() {
    std::unique_lock lock(m_mutex);
    bool told = false;
    for (;;) {
        m_changed.wait(lock, [this] {
            return m_stop || m_ended || (m_begun && !m_failed && m_available > m_seen);
        });
        if (m_stop && !m_ended)
            return; // the pipe is going away without a decode: nothing waits
        // A failed consumer, or a failed decode, reads no further rows.
        if (m_begun && !m_failed && (m_available > m_seen || !told)) {
            const RowsShape shape = m_shape;
            const std::uint8_t* image = m_image;
            const int first = m_seen, end = m_available;
            const bool firstCall = !told;
            lock.unlock();
            try {
                for (Consumer& c : m_consumers) {
                    if (firstCall && c.begin)
                        c.begin(shape);
                    if (end > first && c.rows)
                        c.rows(image, first, end);
                }
            } catch (...) {
                std::string why = "an unknown error";
                try {
                    throw;
                } catch (const std::exception& e) {
                    why = e.what();
                } catch (...) {
                }
                logWarning("image", "computing while decoding stopped: " + why);
                lock.lock();
                m_failed = true;
                continue;
            }
            lock.lock();
            told = true;
            m_seen = end;
            continue;
        }
        if (m_ended) {
            m_drained = true;
            m_changed.notify_all();
            // Wait for the destructor: end() has returned, nothing more comes.
            m_changed.wait(lock, [this] { return m_stop; });
            return;
        }
    }
}

} // namespace histlab
