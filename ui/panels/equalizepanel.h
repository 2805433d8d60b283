#pragma once
// The Equalize tab (issue 5, "Cumulative histograms and equalization"): the histogram
// equalization of the image the window shows, on the device chosen in the Run dock, through the
// JobBridge (lane "equalize": a new run replaces the one running). Run (Ctrl+Enter in the tab),
// Cancel, the timed repeats.
//
// The results: a CompareView (the original against the equalized image; side by side or split),
// the per-stage timings (histogram, cdf, lut, apply, total: median and min ms; the apply pass's
// GB/s, image bytes read + written) with the verification against the CPU reference (red when
// it differs), and a plot of the plane's histogram before and after (256 bins for 8-bit images,
// 65,536 for 16-bit; a step line) with the cumulative histogram (CDF, in % of the pixels on the
// right axis) of both laid over it. The plane is the gray values, or a color image's luma.
// Save Result writes the equalized image at full size and depth (saveImage: a temporary file
// and a rename, so a failure leaves nothing behind); Export Plot writes the plot as PNG, PDF or
// SVG; Export CSV writes bin,count,cdf (the plane's histogram before, as histlab-cli equalize
// --csv does). Errors (an image too large for one device buffer, ...) go to the status line.
//
// The controls are remembered in QSettings("HistLab", "HistLab") under "equalize/...".
#include "bridge/jobbridge.h"
#include "window/exportdialog.h"
#include "window/exporter.h"

#include <QImage>
#include <QSize>
#include <QString>
#include <QWidget>

#include <functional>
#include <optional>

class QAction;
class QCPGraph;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace histlab::ui {

class CompareView;

class EqualizePanel : public QWidget {
    Q_OBJECT
public:
    explicit EqualizePanel(JobBridge* bridge, QWidget* parent = nullptr);

    /// The image the window shows (as BlurPanel::setImage): a different image clears the
    /// results (and cancels an equalization of the old one); the same one again keeps them.
    void setImage(const QString& source, const QSize& imageSize, const QImage& preview);
    QString imageSource() const { return m_source; }

    /// Where the device comes from: asked at each run (the Run dock's selector); "auto" until
    /// set.
    void setDeviceSelectorSource(std::function<QString()> source) {
        m_deviceSelector = std::move(source);
    }

    EqualizeRequest request() const;
    bool isRunning() const { return m_bridge->equalizeRunning(); }
    /// The last equalization that finished (empty before the first, and after the image
    /// changed).
    const std::optional<EqualizeResult>& result() const { return m_result; }

    /// Writes the equalized image to `path` (the format by its suffix). A failure is reported
    /// (status line, problem(), a message box when dialogs are enabled) and returned; no file
    /// is left behind.
    ExportResult saveResultTo(const QString& path);
    /// The plot as PNG, JPG, PDF or SVG (by options.format).
    ExportResult exportPlotTo(const QString& path, const PlotExportOptions& options);
    /// bin,count,cdf: the plane's histogram and its cumulative sum (256 or 65,536 rows).
    ExportResult exportCsvTo(const QString& path);
    /// How the Save/Export buttons ask for a file (QFileDialog by default; tests inject theirs).
    void setSaveFileChooser(FileChooser chooser) { m_saveChooser = std::move(chooser); }
    /// Save errors open a window-modal message box unless turned off (tests, scripts).
    bool errorDialogsEnabled() const { return m_errorDialogs; }
    void setErrorDialogsEnabled(bool enabled) { m_errorDialogs = enabled; }

    CompareView* compareView() const { return m_compare; }
    QCustomPlot* plot() const { return m_plot; }
    /// The plot's graphs: the histogram before and after, and their CDFs (right axis, %).
    QCPGraph* histogramGraph(bool after) const { return after ? m_after : m_before; }
    QCPGraph* cdfGraph(bool after) const { return after ? m_cdfAfter : m_cdfBefore; }
    QSpinBox* repeatsSpin() const { return m_repeats; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* saveButton() const { return m_save; }
    QPushButton* exportPlotButton() const { return m_exportPlot; }
    QPushButton* exportCsvButton() const { return m_exportCsv; }
    /// Run (Ctrl+Enter while the focus is in the tab).
    QAction* runAction() const { return m_runAction; }
    /// One row per stage: histogram, cdf, lut, apply, total.
    QTableWidget* timingsTable() const { return m_timings; }
    QLabel* verifiedLabel() const { return m_verified; }
    QLabel* statusLabel() const { return m_status; }

    enum Column { StageColumn, MedianColumn, MinColumn, GbpsColumn, ColumnCount };
    enum Row { HistogramRow, CdfRow, LutRow, ApplyRow, TotalRow, RowCount };

public slots:
    /// Equalizes the image; a run in progress is replaced.
    void startRun();
    void cancelRun();
    /// Save Result…: asks for a file, then saveResultTo().
    void chooseSaveFile();
    void chooseExportPlot();
    void chooseExportCsv();

signals:
    void runStarted();
    /// The run ended (finished, cancelled or failed): `message` says how.
    void runEnded(const QString& message);
    /// A run could not start or failed, or a save failed: the reason.
    void problem(const QString& message);

private:
    void updateControls();
    void setRunning(bool running);
    void showResult(const EqualizeResult& result);
    void showFailure(const JobError& error);
    void fillTimings(const EqualizeRun& run);
    void fillPlot(const EqualizeResult& result);
    void clearResult();
    void setStatus(const QString& text, bool bad = false);
    ExportResult fail(const QString& message, const QString& what);
    QString defaultPath(const QString& what, const QString& suffix) const;
    void restoreSettings();
    void saveSettings() const;

    JobBridge* m_bridge;
    CompareView* m_compare;
    QCustomPlot* m_plot;
    QCPGraph* m_before = nullptr;
    QCPGraph* m_after = nullptr;
    QCPGraph* m_cdfBefore = nullptr;
    QCPGraph* m_cdfAfter = nullptr;
    QSpinBox* m_repeats;
    QLabel* m_imageLabel;
    QLabel* m_deviceLabel;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_save;
    QPushButton* m_exportPlot;
    QPushButton* m_exportCsv;
    QAction* m_runAction;
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_hover;
    QTableWidget* m_timings;
    QLabel* m_verified;
    QString m_source;
    QSize m_imageSize;
    std::optional<EqualizeResult> m_result;
    std::function<QString()> m_deviceSelector;
    FileChooser m_saveChooser = nativeSaveFileChooser();
    bool m_errorDialogs = true;
    bool m_dropAnswer = false; // the running equalization is of an image no longer shown
};

} // namespace histlab::ui
