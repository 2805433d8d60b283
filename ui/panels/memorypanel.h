#pragma once
// The Memory tab, the memory lab: on the device chosen in the tool bar above the tabs (lane
// "memory": a new run replaces the one running), the chosen parts in order, each page drawn as its
// results arrive:
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
// size such as "16M" or "65539"; empty is auto), repeats. Export Plot writes the page shown;
// Save JSON / Save CSV write reverseJson / reverseCsv on the Reversal page, memoryJson /
// memoryCsv on the other two, as histlab-cli reverse and histlab-cli memory write them.
#include "panels/copykernelline.h"
#include "panels/resultpanel.h"

#include <pipelines/bandwidth/bandwidth.h>
#include <pipelines/memorylab/memorylab.h>
#include <pipelines/reverse/reverse.h>
#include <pipelines/transfer/transfer.h>

#include <map>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QCPBars;
class QCPGraph;
class QCPTextElement;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QTableWidget;
class QTabWidget;

namespace histlab::ui {

/// The memory lab (lane "memory"): on one device, the chosen parts in order: buffer reversal
/// (every variant), the bandwidth ceilings per vector width, the transfer sweep and the kernel
/// launch latency.
struct MemoryLabRequest {
    QString device = QStringLiteral("auto"); ///< a core device selector (see selectDevice)
    bool reversal = true;
    bool ceilings = true;
    bool transfers = true;
    /// The sizes; unset: the core's plans decide, as for histlab-cli reverse and memory
    /// (planReverse, planMemoryLab).
    std::optional<std::uint64_t> reverseBytes;
    std::optional<std::uint64_t> ceilingBytes;
    std::optional<std::uint64_t> transferMaxBytes; ///< the transfer sweep's largest size

    int repeats = 5;
};

/// One finished memory lab run: what the chosen parts measured.
struct MemoryLabResult {
    MemoryLabRequest request;
    DeviceInfo device;
    std::optional<ReverseRun> reversal; ///< when asked for
    MemoryRun memory;                   ///< memory.ceilings, memory.transfers: when asked for
};

class MemoryPanel : public ResultPanel<MemoryLabResult> {
    Q_OBJECT
public:
    explicit MemoryPanel(JobBridge* bridge, QWidget* parent = nullptr);
    /// Runs the parts ticked (a bad size is refused before anything runs).
    void startRun() override;

    /// The plot of the page shown is what Export Plot writes, and its data what Save writes.
    enum Page { ReversalPage, CeilingsPage, TransfersPage };
    QTabWidget* pages() const { return m_pages; }
    /// The page's plot.
    QCustomPlot* plot(Page page) const;
    QCustomPlot* reversePlot() const { return m_reversePlot; }
    QCustomPlot* ceilingsPlot() const { return m_ceilingsPlot; }
    QCustomPlot* transfersPlot() const { return m_transfersPlot; }
    /// Bars of the reference text's kernels and of HistLab's (x: the variant's place in
    /// reverseVariants()).
    QCPBars* referenceBars() const { return m_referenceBars; }
    QCPBars* ownBars() const { return m_ownBars; }
    /// The same run's copy kernel: a dashed line (empty until known).
    QCPGraph* copyLine() const { return m_copyLine->graph(); }
    QCPGraph* readWidthGraph() const { return m_readWidths; }
    QCPGraph* copyWidthGraph() const { return m_copyWidths; }
    QCPGraph* transferGraph(TransferKind kind) const;
    QLabel* bestWidthLabel() const { return m_bestWidth; }
    QLabel* launchLabel() const { return m_launch; }
    QTableWidget* reverseTable() const { return m_table; }
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
    /// The reversal results of the run shown, in arrival order (the running one's so far).
    const std::vector<ReverseResult>& reverseResults() const { return m_reverse; }
    const std::vector<TransferPoint>& transferPoints() const { return m_transfers; }

    QCheckBox* reversalCheck() const { return m_doReversal; }
    QCheckBox* ceilingsCheck() const { return m_doCeilings; }
    QCheckBox* transfersCheck() const { return m_doTransfers; }
    /// Byte sizes ("16M", "65539", "64 KiB"); empty is auto.
    QLineEdit* reverseSizeEdit() const { return m_reverseSize; }
    QLineEdit* ceilingSizeEdit() const { return m_ceilingSize; }
    QLineEdit* transferMaxEdit() const { return m_transferMax; }

signals:
    /// A result of any part arrived (and is drawn).
    void resultAdded();

private:
    /// The request the controls describe; a size that does not parse throws UsageError naming
    /// its field.
    MemoryLabRequest request() const;
    QString cancelledStatus() const override;
    void showItem(const std::any& item) override;
    QString present(const MemoryLabResult& result) override;
    QString fileBaseName(Output kind) const override;
    void saveSettings() const override;
    void buildReversalPage();
    void buildCeilingsPage();
    void buildTransfersPage();
    void clearPages();
    void addReverseResult(const ReverseResult& result);
    void fitReversal();
    void showCeilings(const CeilingSweep& sweep);
    void addTransferPoint(const TransferPoint& point);
    void fitTransfers();
    void showTransferSummary(const TransferSweep& sweep);
    void refreshCorrectColumn();
    std::optional<std::string> pageText(bool json, QString* why) const;
    void updateTitles(const QString& device);

    QTabWidget* m_pages;
    QCustomPlot* m_reversePlot;
    QCustomPlot* m_ceilingsPlot;
    QCustomPlot* m_transfersPlot;
    QCPTextElement* m_reverseTitle = nullptr;
    QCPTextElement* m_ceilingsTitle = nullptr;
    QCPTextElement* m_transfersTitle = nullptr;
    QCPBars* m_referenceBars = nullptr;
    QCPBars* m_ownBars = nullptr;
    std::unique_ptr<CopyKernelLine> m_copyLine;
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
    std::vector<ReverseResult> m_reverse;
    std::vector<TransferPoint> m_transfers;
    std::optional<CeilingSweep> m_ceilings;
    std::uint64_t m_reverseBytes = 0; ///< n of the reversal shown, 0 while unknown (auto)
};

} // namespace histlab::ui
