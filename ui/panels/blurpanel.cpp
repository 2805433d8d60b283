#include "panels/blurpanel.h"
#include "common/settings.h"
#include "views/imagelist.h"

#include "bridge/logging.h"
#include "panels/resulttable.h"
#include "views/compareview.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace histlab::ui {

// The worker's side ------------------------------------------------------------------------

namespace {

/// The worker's side of the tab: loads the image through `images` (the window's image is
/// not read again), blurs it with histlab-cli blur's plan and run (every output kept, for the
/// previews and Save Result) and makes the previews.
JobWork blurJob(const BlurRequest& request, std::shared_ptr<ImageCache> images) {
    return [request, images](JobContext& ctx, const ItemSink& post) -> std::any {
        BlurShown shown;
        shown.request = request;
        const auto [full, device] = openImageJob(ctx, *images, request, "blur", shown);
        BlurParams params;
        params.input.loaded = full;
        params.radii = {request.radius};
        params.repeats = request.repeats;
        params.keepOutputs = true;
        if (request.mode == BlurRequest::Mode::Launches) {
            if (!request.launches.empty())
                params.launches = request.launches;
        } else {
            params.border = request.border;
            params.variants = request.variants.empty() ? std::vector<BlurVariant>{BlurVariant::Auto}
                                                       : request.variants;
        }
        BlurResult run = runBlurJob(ctx, device, planBlur(device.info(), params), post);
        const int side = request.maxPreviewSide; // of every preview
        shown.note = QString::fromStdString(run.note);
        if (request.mode == BlurRequest::Mode::Launches) {
            shown.channels = 1; // the 8-bit gray plane
            shown.depth = 8;
            shown.inputPreview = previewOf(run.plane, side);
            for (const BlurLaunchResult& launch : run.launches)
                shown.previews.push_back(launch.output.empty() ? QImage()
                                                               : previewOf(launch.output, side));
            shown.launches = std::move(run.launches);
        } else {
            shown.inputPreview = previewOf(*full, side);
            for (const BlurVariantRow& row : run.rows)
                shown.previews.push_back(row.run && !row.run->output.empty()
                                             ? previewOf(row.run->output, side)
                                             : QImage());
            shown.runs = std::move(run.rows);
        }
        return shown;
    };
}

} // namespace

// The tab ----------------------------------------------------------------------------------

namespace {

enum class PanelMode { WholeImage, Launches };
constexpr int kAll = -1; // the variant and launch combos' "all"

/// Unsupported (a launch refused as the text says it must be, or what the device lacks) and not
/// applicable (no interior, or a variant not made for the radius): outcomes the core expects,
/// with their reason; failed is an error of one variant among several.
bool isExpected(Status status) {
    return status == Status::Unsupported || status == Status::NotApplicable;
}

QString size2(std::size_t x, std::size_t y);

/// A run's kernels as range and local size cells ("64×48, 16×48" and "64×1, 8×1").
std::pair<QString, QString> launchCells(const std::vector<KernelLaunch>& kernels) {
    if (kernels.empty())
        return {QStringLiteral("—"), QStringLiteral("—")};
    QStringList ranges, locals;
    for (const KernelLaunch& k : kernels) {
        ranges << size2(k.globalX, k.globalY);
        locals << size2(k.localX, k.localY);
    }
    return {ranges.join(QStringLiteral(", ")), locals.join(QStringLiteral(", "))};
}

QString size2(std::size_t x, std::size_t y) {
    return QStringLiteral("%1×%2").arg(x).arg(y);
}

} // namespace

BlurPanel::BlurPanel(JobBridge* bridge, QWidget* parent)
    : ResultPanel(bridge,
                  {QStringLiteral("blur"), tr("blur"), tr("Run Blur"), QStringLiteral("blur")},
                  {tr("blur"), tr("the Blur tab blurs the image the Image tab shows"),
                   tr("blurred image"), tr("Save Blurred Image"), tr("Result")},
                  parent)
    , m_mode(new QComboBox)
    , m_border(new QComboBox)
    , m_variant(new QComboBox)
    , m_launch(new QComboBox)
    , m_radius(new QSpinBox)
    , m_runs(new QTableWidget)
    , m_corners(new QTableWidget)
    , m_cornersTitle(new QLabel)
    , m_timings(new QLabel) {
    m_mode->addItem(tr("Whole image"), int(PanelMode::WholeImage));
    m_mode->addItem(tr("Launch demo"), int(PanelMode::Launches));
    m_mode->setItemData(0, tr("The whole image, every channel, with a border mode"),
                        Qt::ToolTipRole);
    m_mode->setItemData(1,
                        tr("The reference text's launches of the interior blur, on the image's "
                           "8-bit gray plane (a color image's luma, a 16-bit image's high byte)"),
                        Qt::ToolTipRole);
    for (BorderMode b : {BorderMode::Interior, BorderMode::Replicate, BorderMode::Reflect101})
        m_border->addItem(QString::fromLatin1(borderModeName(b)), int(b));
    m_border->setItemData(0,
                          tr("Only pixels whose whole window is inside; the frame of width R "
                             "is copied"),
                          Qt::ToolTipRole);
    m_border->setItemData(1, tr("Outside pixels repeat the edge (aaa|abcd|ddd)"), Qt::ToolTipRole);
    m_border->setItemData(2,
                          tr("Outside pixels mirror without the edge (dcb|abcd|cba), "
                             "cv::blur's default"),
                          Qt::ToolTipRole);
    m_border->setCurrentIndex(2);
    m_variant->addItem(QString::fromLatin1(blurVariantName(BlurVariant::Auto)),
                       int(BlurVariant::Auto));
    for (BlurVariant v : allBlurVariants())
        m_variant->addItem(QString::fromLatin1(blurVariantName(v)), int(v));
    m_variant->addItem(tr("all (compare)"), kAll);
    m_variant->setToolTip(tr("direct: one work-item per pixel; tiled: 16 bytes of a row per "
                             "work-item, small radii; sliding: running sums, any radius; auto "
                             "picks by radius; all: each in turn"));
    m_launch->addItem(tr("all"), kAll);
    for (BlurLaunch l : allBlurLaunches())
        m_launch->addItem(QString::fromLatin1(blurLaunchName(l)), int(l));
    m_launch->setToolTip(tr("cl12: -cl-std=CL1.2; cl20: -cl-std=CL2.0; null: the runtime picks "
                            "the local size; 16x16: 16 × 16 groups; padded: the range rounded "
                            "up to whole groups"));
    m_radius->setRange(1, 256);
    m_radius->setValue(1);
    m_radius->setToolTip(tr("The window is (2R + 1) × (2R + 1) pixels"));
    runButton()->setToolTip(tr("Blur the image with these settings (Ctrl+Enter); a run in "
                               "progress is replaced"));
    setProgressFormat(tr("blurring: %1…"));

    // Mnemonics that the device tool bar and the menu bar do not use.
    form()->addRow(tr("M&ode"), m_mode);
    form()->addRow(tr("Border"), m_border);
    form()->addRow(tr("Varian&t"), m_variant);
    form()->addRow(tr("Launc&h"), m_launch);
    form()->addRow(tr("R&adius"), m_radius);
    addRepeatsRow(tr("Timed runs after one warm-up; median and min are shown"));
    addDeviceRow();
    filesGrid()->addWidget(saveResultButton(), 0, 0);

    // The corners table: small, so it sits with the controls; the runs table takes the width.
    m_corners->setColumnCount(3);
    m_corners->setRowCount(4);
    m_corners->setHorizontalHeaderLabels({tr("global id"), tr("local size"), tr("enqueued")});
    m_corners->horizontalHeaderItem(2)->setToolTip(
        tr("get_enqueued_local_size: n/a under OpenCL C 1.2"));
    m_corners->setVerticalHeaderLabels(
        {tr("top-left"), tr("top-right"), tr("bottom-left"), tr("bottom-right")});
    m_corners->setToolTip(tr("get_global_id, get_local_size and get_enqueued_local_size as the "
                             "work-item at each corner of the range saw them"));
    setUpFixedTable(m_corners);
    m_corners->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_corners->horizontalHeader()->setStretchLastSection(true);
    m_cornersTitle->setWordWrap(true);
    m_timings->setWordWrap(true);
    m_timings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_timings->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    columnEnd()->addSpacing(8);
    columnEnd()->addWidget(m_cornersTitle);
    columnEnd()->addWidget(m_corners);
    columnEnd()->addSpacing(8);
    columnEnd()->addWidget(m_timings);

    QStringList headers(ColumnCount);
    headers[NameColumn] = tr("variant");
    headers[StatusColumn] = tr("status");
    headers[MedianColumn] = tr("median ms");
    headers[MinColumn] = tr("min ms");
    headers[GbpsColumn] = tr("GB/s");
    headers[VerifiedColumn] = tr("verified");
    headers[RangeColumn] = tr("range");
    headers[LocalColumn] = tr("local size");
    headers[OptionsColumn] = tr("build options");
    headers[DetailColumn] = tr("detail");
    setUpResultTable(m_runs, headers);
    m_runs->setSelectionMode(QAbstractItemView::SingleSelection);
    m_runs->setMinimumHeight(120);

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(viewer());
    right->addWidget(m_runs);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 0);
    right->setChildrenCollapsible(false);
    right->setSizes({480, 190}); // five runs and the header
    setResults(right);

    connect(m_mode, &QComboBox::currentIndexChanged, this, &BlurPanel::showModeRows);
    connect(m_runs, &QTableWidget::itemSelectionChanged, this, &BlurPanel::showSelection);

    remember(m_border, QStringLiteral("border"));
    remember(m_variant, QStringLiteral("variant"));
    remember(m_launch, QStringLiteral("launch"));
    m_mode->setCurrentIndex(settings().value(settingsKey(QStringLiteral("mode"))).toString() ==
                                    QStringLiteral("launches")
                                ? 1
                                : 0);
    remember(m_radius, QStringLiteral("radius"));
    setImage({}, 1, 1, {}, {});
    showModeRows();
}

void BlurPanel::saveSettings() const {
    settings().setValue(settingsKey(QStringLiteral("mode")),
                        m_mode->currentData().toInt() == int(PanelMode::Launches)
                            ? QStringLiteral("launches")
                            : QStringLiteral("whole"));
}

void BlurPanel::showModeRows() {
    const bool launches = m_mode->currentData().toInt() == int(PanelMode::Launches);
    form()->setRowVisible(m_border, !launches);
    form()->setRowVisible(m_variant, !launches);
    form()->setRowVisible(m_launch, launches);
    m_cornersTitle->setVisible(launches); // the launch demo's kernel records them
    m_corners->setVisible(launches);
}

void BlurPanel::clearResult() {
    m_result.reset();
    m_runs->setRowCount(0);
    fillCorners(nullptr);
    m_timings->clear();
}

BlurRequest BlurPanel::request() const {
    BlurRequest r;
    r.source = imageSource();
    r.page = imagePage();
    r.device = deviceSelector();
    r.mode = m_mode->currentData().toInt() == int(PanelMode::Launches)
                 ? BlurRequest::Mode::Launches
                 : BlurRequest::Mode::WholeImage;
    r.radius = m_radius->value();
    r.repeats = repeatsSpin()->value();
    r.border = BorderMode(m_border->currentData().toInt());
    const int variant = m_variant->currentData().toInt();
    r.variants = variant == kAll ? allBlurVariants() : std::vector{BlurVariant(variant)};
    const int launch = m_launch->currentData().toInt();
    r.launches = launch == kAll ? allBlurLaunches() : std::vector{BlurLaunch(launch)};
    return r;
}

void BlurPanel::startRun() {
    if (refuseWithoutImage())
        return;
    const BlurRequest r = request();
    qCInfo(lcUi).noquote() << "blur" << imageLogName(r.source) << "radius" << r.radius
                           << "on device" << r.device;
    start(blurJob(r, bridge()->imageCache()), tr("blurring…"));
}

QString BlurPanel::present(const BlurShown& result) {
    const bool launches = result.request.mode == BlurRequest::Mode::Launches;
    showDevice(result.device);
    compareView()->setImages(result.inputPreview, {}, result.imageSize);
    compareView()->setLabels(launches ? tr("Original (gray plane)") : tr("Original"), tr("Result"));
    fillRunsTable(result);

    // The first row with an output is shown; its outcome and the summary go to the status.
    int ran = 0, mismatches = 0, firstWithOutput = -1;
    QStringList expected;
    const int rows = m_runs->rowCount();
    for (int row = 0; row < rows; ++row) {
        const Status status = launches ? result.launches[std::size_t(row)].status
                                       : result.runs[std::size_t(row)].status;
        ran += statusRan(status) ? 1 : 0;
        mismatches += status == Status::Mismatch ? 1 : 0;
        if (status == Status::Unsupported)
            expected << QString::fromLatin1(statusName(status));
        if (firstWithOutput < 0 && !result.previews[std::size_t(row)].isNull())
            firstWithOutput = row;
    }
    selectRow(firstWithOutput >= 0 ? firstWithOutput : 0);
    QString summary = tr("%1 of %2 ran").arg(ran).arg(rows);
    if (!expected.isEmpty())
        summary += tr(" (%1, as expected)").arg(expected.join(QStringLiteral(", ")));
    if (mismatches)
        summary += tr("; %1 differ from the CPU reference").arg(mismatches);
    else if (ran)
        summary += tr("; verified byte for byte against the CPU reference");
    setStatus(summary, mismatches > 0);
    return summary;
}

void BlurPanel::fillRunsTable(const BlurShown& result) {
    const bool launches = result.request.mode == BlurRequest::Mode::Launches;
    const QSignalBlocker blocker(m_runs); // selection follows once the rows are in
    m_runs->setRowCount(0);
    m_runs->horizontalHeaderItem(NameColumn)->setText(launches ? tr("launch") : tr("variant"));
    const QColor red(0xc0, 0, 0);
    const QColor green(0, 0x80, 0);
    // The cells in column order.
    auto addRow = [&](const QStringList& cells, Status status, const QString& detail) {
        const int row = m_runs->rowCount();
        m_runs->insertRow(row);
        for (int c = 0; c < ColumnCount; ++c) {
            auto* item = new QTableWidgetItem(cells.value(c));
            item->setToolTip(cells.value(c));
            m_runs->setItem(row, c, item);
        }
        QTableWidgetItem* outcomeItem = m_runs->item(row, StatusColumn);
        if (status == Status::Failed) {
            outcomeItem->setForeground(red);
        } else if (isExpected(status)) {
            // Expected: the text said the launch must fail there (or there was nothing to do).
            QFont italic = outcomeItem->font();
            italic.setItalic(true);
            outcomeItem->setFont(italic);
            outcomeItem->setToolTip(tr("An expected outcome: %1").arg(detail));
        }
        QTableWidgetItem* verifiedItem = m_runs->item(row, VerifiedColumn);
        if (status == Status::Mismatch) {
            QFont bold = verifiedItem->font();
            bold.setBold(true);
            for (int c : {int(VerifiedColumn), int(DetailColumn)}) {
                m_runs->item(row, c)->setForeground(red);
                m_runs->item(row, c)->setFont(bold);
            }
        } else if (status == Status::Verified) {
            verifiedItem->setForeground(green);
        }
    };
    auto verifiedText = [](Status status) {
        return status == Status::Verified   ? tr("yes")
               : status == Status::Mismatch ? tr("NO")
                                            : QStringLiteral("—");
    };
    if (launches) {
        for (const BlurLaunchResult& r : result.launches) {
            const bool ran = statusRan(r.status);
            const QString detail = QString::fromStdString(r.detail);
            addRow({QString::fromLatin1(blurLaunchName(r.launch)),
                    QString::fromLatin1(statusName(r.status)),
                    ran ? msText(r.stats.medianMs) : QString(),
                    ran ? msText(r.stats.minMs) : QString(), ran ? gbpsText(r.gbps) : QString(),
                    verifiedText(r.status),
                    r.globalX ? size2(r.globalX, r.globalY) : QStringLiteral("—"),
                    r.localX ? size2(r.localX, r.localY) : QStringLiteral("NULL"),
                    QString::fromStdString(r.buildOptions), detail},
                   r.status, detail);
        }
    } else {
        for (const BlurVariantRow& v : result.runs) {
            const BlurRun* run = v.run ? &*v.run : nullptr;
            QString name = QString::fromLatin1(blurVariantName(v.requested));
            if (run && v.requested != run->variant)
                name += QStringLiteral(" → ") + QString::fromLatin1(blurVariantName(run->variant));
            const auto [range, local] =
                run ? launchCells(run->kernels) : std::pair{QString(), QString()};
            const QString detail = QString::fromStdString(v.detail);
            addRow({name, QString::fromLatin1(statusName(v.status)),
                    run ? msText(run->stats.medianMs) : QString(),
                    run ? msText(run->stats.minMs) : QString(),
                    run ? gbpsText(run->gbps) : QString(), verifiedText(v.status), range, local,
                    run ? QString::fromStdString(run->buildOptions) : QString(), detail},
                   v.status, detail);
        }
    }
    m_runs->resizeColumnsToContents();
}

int BlurPanel::selectedRow() const {
    const QList<QTableWidgetItem*> items = m_runs->selectedItems();
    return items.isEmpty() ? -1 : items.first()->row();
}

void BlurPanel::selectRow(int row) {
    if (row < 0 || row >= m_runs->rowCount())
        return;
    if (row == selectedRow())
        showSelection(); // already selected: no selection signal, but a new result
    else
        m_runs->selectRow(row);
}

const HostImage* BlurPanel::selectedOutput() const {
    const int row = selectedRow();
    if (!m_result || row < 0)
        return nullptr;
    if (m_result->request.mode == BlurRequest::Mode::Launches) {
        const BlurLaunchResult& r = m_result->launches[std::size_t(row)];
        return r.output.empty() ? nullptr : &r.output;
    }
    const BlurVariantRow& v = m_result->runs[std::size_t(row)];
    return v.run && !v.run->output.empty() ? &v.run->output : nullptr;
}

void BlurPanel::showSelection() {
    const int row = selectedRow();
    if (!m_result || row < 0)
        return;
    const BlurShown& result = *m_result;
    const bool launches = result.request.mode == BlurRequest::Mode::Launches;
    const QString name = m_runs->item(row, NameColumn)->text();
    const QString outcome = m_runs->item(row, StatusColumn)->text();
    CompareView* compare = compareView();
    compare->setLabels(compare->originalLabel(),
                       launches
                           ? name
                           : tr("%1, radius %2, %3")
                                 .arg(QString::fromLatin1(borderModeName(result.request.border)))
                                 .arg(result.request.radius)
                                 .arg(name));
    compare->setPlaceholder(
        tr("%1: %2, no output\n\n%3").arg(name, outcome, m_runs->item(row, DetailColumn)->text()));
    compare->setResult(result.previews[std::size_t(row)]);
    fillCorners(launches ? &result.launches[std::size_t(row)] : nullptr);
    updateActions(); // Save Result follows the selected output

    // The timings of the selected row, with what was measured.
    QStringList lines;
    QString input = tr("%1 × %2").arg(result.imageSize.width()).arg(result.imageSize.height());
    input += launches ? tr(", 8-bit gray")
                      : tr(", %1 channel(s), %2-bit").arg(result.channels).arg(result.depth);
    lines << tr("%1 · %2 · radius %3 · %4")
                 .arg(QString::fromStdString(result.device.name), input)
                 .arg(result.request.radius)
                 .arg(launches
                          ? tr("interior blur (launch demo)")
                          : tr("border %1")
                                .arg(QString::fromLatin1(borderModeName(result.request.border))));
    if (!result.note.isEmpty())
        lines << result.note;
    const TimingStats* stats = nullptr;
    double rate = 0;
    bool verified = true;
    QString mismatch;
    if (launches) {
        const BlurLaunchResult& r = result.launches[std::size_t(row)];
        if (statusRan(r.status)) {
            stats = &r.stats;
            rate = r.gbps;
            verified = r.status == Status::Verified;
            mismatch = QString::fromStdString(r.detail);
        }
    } else {
        const BlurVariantRow& v = result.runs[std::size_t(row)];
        if (v.run) {
            stats = &v.run->stats;
            rate = v.run->gbps;
            verified = v.status == Status::Verified;
            mismatch = QString::fromStdString(v.detail);
        }
    }
    if (stats) {
        lines << tr("%1: median %2 ms, min %3 ms over %4 timed run(s) after a warm-up · %5 GB/s "
                    "(%6 bytes read + written, per second)")
                     .arg(name, msText(stats->medianMs), msText(stats->minMs))
                     .arg(stats->samplesMs.size())
                     .arg(gbpsText(rate), launches ? tr("interior") : tr("image"));
        lines << (verified ? tr("verified: byte for byte equal to the CPU reference")
                           : tr("<b style=\"color:%1\">MISMATCH: %2</b>")
                                 .arg(errorColor())
                                 .arg(mismatch.toHtmlEscaped()));
    } else {
        lines << tr("%1: %2 (%3)").arg(name, outcome, m_runs->item(row, DetailColumn)->text());
    }
    for (QString& line : lines)
        if (!line.startsWith(QLatin1String("<b")))
            line = line.toHtmlEscaped();
    m_timings->setText(lines.join(QStringLiteral("<br>")));
}

void BlurPanel::fillCorners(const BlurLaunchResult* launch) {
    m_corners->clearContents();
    m_corners->setEnabled(launch != nullptr);
    if (!launch) {
        m_cornersTitle->setText(tr("Corners: the launch demo's kernel records them"));
        return;
    }
    const QString name = QString::fromLatin1(blurLaunchName(launch->launch));
    if (!statusRan(launch->status)) {
        m_cornersTitle->setText(tr("Corners of %1: none, it did not run (%2)")
                                    .arg(name, QString::fromLatin1(statusName(launch->status))));
        return;
    }
    m_cornersTitle->setText(
        tr("Corners of %1 (range %2, local %3)")
            .arg(name, size2(launch->globalX, launch->globalY),
                 launch->localX ? size2(launch->localX, launch->localY) : QStringLiteral("NULL")));
    for (int k = 0; k < 4; ++k) {
        const LaunchCorner& c = launch->corners[std::size_t(k)];
        const QStringList cells = {
            QStringLiteral("(%1, %2)").arg(c.globalX).arg(c.globalY),
            QStringLiteral("(%1, %2)").arg(c.localX).arg(c.localY),
            c.enqueuedX < 0 ? tr("n/a (OpenCL C 1.2)")
                            : QStringLiteral("(%1, %2)").arg(c.enqueuedX).arg(c.enqueuedY)};
        for (int col = 0; col < 3; ++col)
            m_corners->setItem(k, col, new QTableWidgetItem(cells[col]));
    }
}

QString BlurPanel::resultFileName() const {
    const QString what = m_runs->item(selectedRow(), NameColumn)
                             ->text()
                             .section(QStringLiteral(" → "), -1); // "auto → tiled": tiled
    return QStringLiteral("%1-blur-r%2-%3")
        .arg(imageBaseName())
        .arg(m_result->request.radius)
        .arg(what);
}

} // namespace histlab::ui
