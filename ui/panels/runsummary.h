#pragma once
// The Image tab's account of its last run, in plain words: what was counted and on which
// device, how long it took and how fast, whether the CPU reference agrees, and what the speed
// means (a small image is bound by launching, not by memory). The kernel's configuration, every
// pass and the read-only ceiling are one click away (Details), as selectable text. The status
// bar keeps only passing messages and the pixel readout.
#include "bridge/analysis.h"

#include <QString>
#include <QWidget>

class QLabel;
class QToolButton;

namespace histlab::ui {

class RunSummary : public QWidget {
    Q_OBJECT
public:
    /// How the device's result compares with the CPU reference.
    enum class Check { None, Verified, Mismatch, NotChecked };

    struct Content {
        QString what;  ///< "256-bin histograms of 451 × 300 pixels (R, G, B, gray) on ..."
        QString speed; ///< "0.122 ms, 3.31 GB/s (median of 5 runs)", or "timing…"
        Check check = Check::None;
        QString checkText; ///< "verified: equal to the CPU's count, bin for bin"
        QString note;      ///< what the speed means, in grey; may be empty
        QString details;   ///< configuration, passes, ceiling: the Details text
    };

    explicit RunSummary(QWidget* parent = nullptr);

    void setContent(const Content& content);
    /// A line while there is no result yet ("sample.png: computing its histograms…").
    void showWorking(const QString& text);
    void clear();

    const Content& content() const { return m_content; }
    /// Everything shown (and the details), one line each: what tests and the clipboard read.
    QString text() const;
    QToolButton* detailsButton() const { return m_detailsButton; }
    QLabel* detailsLabel() const { return m_details; }

protected:
    void changeEvent(QEvent* event) override;

private:
    /// The note in the palette's placeholder grey.
    void greyNote();

    Content m_content;
    QLabel* m_what;
    QLabel* m_speed;
    QLabel* m_note;
    QLabel* m_details;
    QToolButton* m_detailsButton;
};

/// The summary of an image's analysis: `timingNote` is "timing…" while the counts are shown
/// before their timing, "timing cancelled" when it was stopped, else empty.
RunSummary::Content summarizeAnalysis(const ImageAnalysis& analysis, const QString& timingNote);

/// One line on a 256-bin run, in the kernel's own terms, e.g. "pthread-… · cpu copies=4 wg=1 …
/// · median 1.24 ms · 0.33 GB/s · 1.5 % of read-only ceiling · verified": what tests and the
/// log read.
QString describeRun(const HistogramRun& run);
/// The same for the exact large-bin histograms: device, bins and method, the channels' summed
/// median time and GB/s, and "verified" or each channel's status.
QString describeLargeBins(const ImageBinsRun& run);
/// Every pass and the read-only ceiling, one per line, with the configuration and why it was
/// chosen: the Details text of a 256-bin run.
QString describePasses(const HistogramRun& run);

/// Below this many input bytes a kernel's speed is bound by launching and per-group set-up
/// rather than by memory (16 MiB: below it, the GPU benchmarks measured the histogram at
/// 74-89 % of the read-only kernel, against 98.5 % at 1 GiB).
inline constexpr std::uint64_t kSmallInputBytes = 16ull << 20;

} // namespace histlab::ui
