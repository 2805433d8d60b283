#pragma once
// The Memory tab (issue 6, the memory lab): on the device chosen in the Run dock, through the
// JobBridge (lane "memory": a new run replaces the one running), the chosen parts in order,
// each page drawn as its results arrive:
//   Reversal    GB/s of each buffer-reversal kernel (core/reverse.h: 2n bytes / median), the
//               reference text's four in one colour and HistLab's in another, a dashed line at
//               the same run's copy kernel; a table (kernel, reference?, GB/s, % of copy,
//               median ms, correct bytes of n, status, detail). A kernel that is unsupported
//               or failed has a row and no bar; a mismatch is red, unsupported in italics.
//   Ceilings    read-only and copy GB/s against the vector width (uint … uint16) on random
//               bytes (core/bandwidth.h), the best width of each named
//   Transfers   GB/s against the size (log2 axis in bytes, log GB/s) for h2d and d2h from
//               pageable and pinned memory and d2d (core/transfer.h: bytes / median wall
//               time), the kernel launch latency and pinned / pageable at the largest size
// Controls: which parts, reversal size, ceiling buffer size, largest transfer (each a byte
// size such as "16M" or "65539"; empty is auto), repeats; Run (Ctrl+Enter in the tab), Cancel.
// Export Plot (the page shown, PNG/PDF/SVG), Save JSON / Save CSV: reverseJson / reverseCsv on
// the Reversal page, memoryJson / memoryCsv on the other two, as histlab-cli reverse and
// histlab-cli memory write them (a temporary file and a rename).
//
// The controls are remembered in QSettings("HistLab", "HistLab") under "memory/...".
#include "bridge/jobbridge.h"
#include "window/exportdialog.h"
#include "window/exporter.h"

#include <QString>
#include <QWidget>

#include <functional>
#include <map>
#include <optional>
#include <vector>

class QAction;
class QCheckBox;
class QCPBars;
class QCPGraph;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTabWidget;

namespace histlab::ui {

class MemoryPanel : public QWidget {
    Q_OBJECT
public:
    explicit MemoryPanel(JobBridge* bridge, QWidget* parent = nullptr);

    /// Where the device comes from: asked at each run (the Run dock's selector); "auto" until
    /// set.
    void setDeviceSelectorSource(std::function<QString()> source) {
        m_deviceSelector = std::move(source);
    }

    /// The request the controls describe; a size that does not parse throws UsageError naming
    /// its field.
    MemoryLabRequest request() const;
    bool isRunning() const { return m_bridge->memoryLabRunning(); }
    /// The reversal results of the run shown, in arrival order (the running one's so far).
    const std::vector<ReverseResult>& reverseResults() const { return m_reverse; }
    const std::vector<TransferPoint>& transferPoints() const { return m_transfers; }
    /// The last run that finished (empty before the first, and while a new one runs).
    const std::optional<MemoryLabResult>& result() const { return m_result; }

    enum Page { ReversalPage, CeilingsPage, TransfersPage };
    /// The plot of the page shown is what Export Plot writes, and its data what Save writes.
    ExportResult exportPlotTo(const QString& path, const PlotExportOptions& options);
    /// reverseJson / reverseCsv on the Reversal page, memoryJson / memoryCsv on the others.
    ExportResult saveJsonTo(const QString& path);
    ExportResult saveCsvTo(const QString& path);
    /// How the export buttons ask for a file (QFileDialog by default; tests inject theirs).
    void setSaveFileChooser(FileChooser chooser) { m_saveChooser = std::move(chooser); }
    bool errorDialogsEnabled() const { return m_errorDialogs; }
    void setErrorDialogsEnabled(bool enabled) { m_errorDialogs = enabled; }

    QTabWidget* pages() const { return m_pages; }
    QCustomPlot* reversePlot() const { return m_reversePlot; }
    QCustomPlot* ceilingsPlot() const { return m_ceilingsPlot; }
    QCustomPlot* transfersPlot() const { return m_transfersPlot; }
    /// The page's plot.
    QCustomPlot* plot(Page page) const;
    /// Bars of the reference text's kernels and of HistLab's (x: the variant's place in
    /// reverseVariants()).
    QCPBars* referenceBars() const { return m_referenceBars; }
    QCPBars* ownBars() const { return m_ownBars; }
    /// The same run's copy kernel: a dashed line (empty until known).
    QCPGraph* copyLine() const { return m_copyLine; }
    QCPGraph* readWidthGraph() const { return m_readWidths; }
    QCPGraph* copyWidthGraph() const { return m_copyWidths; }
    QCPGraph* transferGraph(TransferKind kind) const;
    QTableWidget* reverseTable() const { return m_table; }
    QLabel* bestWidthLabel() const { return m_bestWidth; }
    QLabel* launchLabel() const { return m_launch; }

    QCheckBox* reversalCheck() const { return m_doReversal; }
    QCheckBox* ceilingsCheck() const { return m_doCeilings; }
    QCheckBox* transfersCheck() const { return m_doTransfers; }
    /// Byte sizes ("16M", "65539", "64 KiB"); empty is auto.
    QLineEdit* reverseSizeEdit() const { return m_reverseSize; }
    QLineEdit* ceilingSizeEdit() const { return m_ceilingSize; }
    QLineEdit* transferMaxEdit() const { return m_transferMax; }
    QSpinBox* repeatsSpin() const { return m_repeats; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* exportPlotButton() const { return m_exportPlot; }
    QPushButton* saveJsonButton() const { return m_saveJson; }
    QPushButton* saveCsvButton() const { return m_saveCsv; }
    QAction* runAction() const { return m_runAction; }
    QLabel* statusLabel() const { return m_status; }

    enum Column {
        KernelColumn,
        ReferenceColumn,
        GbpsColumn,
        PercentColumn,
        MedianColumn,
        CorrectColumn,
        StatusColumn,
        DetailColumn,
        ColumnCount
    };

public slots:
    void startRun();
    void cancelRun();
    void chooseExportPlot();
    void chooseSaveJson();
    void chooseSaveCsv();

signals:
    void runStarted();
    /// A result of any part arrived (and is drawn).
    void resultAdded();
    /// The run ended (finished, cancelled or failed): `message` says how.
    void runEnded(const QString& message);
    void problem(const QString& message);

private:
    void buildReversalPage();
    void buildCeilingsPage();
    void buildTransfersPage();
    void clearPages();
    void setRunning(bool running);
    void setStatus(const QString& text, bool bad = false);
    void addReverseResult(const ReverseResult& result);
    void setCopyLine(double gbps);
    void fitReversal();
    void showCeilings(const CeilingSweep& sweep);
    void addTransferPoint(const TransferPoint& point);
    void fitTransfers();
    void showTransferSummary(const TransferSweep& sweep);
    void refreshCorrectColumn();
    void showFinished(const MemoryLabResult& result);
    void showFailure(const JobError& error);
    void updateControls();
    void updateTitles(const QString& device);
    ExportResult fail(const QString& message);
    ExportResult save(const QString& path, bool json);
    QString defaultPath(const QString& suffix) const;
    void restoreSettings();
    void saveSettings() const;

    JobBridge* m_bridge;
    QTabWidget* m_pages;
    QCustomPlot* m_reversePlot;
    QCustomPlot* m_ceilingsPlot;
    QCustomPlot* m_transfersPlot;
    QCPTextElement* m_reverseTitle = nullptr;
    QCPTextElement* m_ceilingsTitle = nullptr;
    QCPTextElement* m_transfersTitle = nullptr;
    QCPBars* m_referenceBars = nullptr;
    QCPBars* m_ownBars = nullptr;
    QCPGraph* m_copyLine = nullptr;
    QCPGraph* m_readWidths = nullptr;
    QCPGraph* m_copyWidths = nullptr;
    std::map<TransferKind, QCPGraph*> m_transferGraphs;
    QTableWidget* m_table;
    QLabel* m_bestWidth;
    QLabel* m_launch;
    QCheckBox* m_doReversal;
    QCheckBox* m_doCeilings;
    QCheckBox* m_doTransfers;
    QLineEdit* m_reverseSize;
    QLineEdit* m_ceilingSize;
    QLineEdit* m_transferMax;
    QSpinBox* m_repeats;
    QLabel* m_deviceLabel;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_exportPlot;
    QPushButton* m_saveJson;
    QPushButton* m_saveCsv;
    QAction* m_runAction;
    QProgressBar* m_progress;
    QLabel* m_status;
    std::vector<ReverseResult> m_reverse;
    std::vector<TransferPoint> m_transfers;
    std::optional<CeilingSweep> m_ceilings;
    std::optional<MemoryLabResult> m_result;
    std::uint64_t m_reverseBytes = 0; ///< n of the reversal shown, 0 while unknown (auto)
    double m_copyGbps = 0;
    std::function<QString()> m_deviceSelector;
    FileChooser m_saveChooser = nativeSaveFileChooser();
    bool m_errorDialogs = true;
};

} // namespace histlab::ui
