#include "panels/blurpanel.h"

#include "bridge/logging.h"
#include "views/compareview.h"

#include <io/imageio.h>
#include <runtime/errors.h>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace histlab::ui {

namespace {

enum class PanelMode { WholeImage, Launches };
constexpr int kAll = -1; // the variant and launch combos' "all"

const QString kSaveFilter = QObject::tr(
    "PNG (*.png);;TIFF (*.tif *.tiff);;BMP (*.bmp);;JPEG (*.jpg *.jpeg);;PGM/PPM (*.pgm *.ppm);;"
    "WebP (*.webp);;All files (*)");

QSettings settings() {
    return QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab"));
}

/// Unsupported (a launch refused as the text says it must be, or what the device lacks) and not
/// applicable (no interior, or a variant not made for the radius): outcomes the core expects,
/// with their reason; failed is an error of one variant among several.
bool isExpected(Status status) {
    return status == Status::Unsupported || status == Status::NotApplicable;
}

QString ms(double value) {
    return QString::number(value, 'f', value >= 100 ? 1 : value >= 1 ? 3 : 4);
}

QString gbps(double value) {
    return QString::number(value, 'f', value >= 100 ? 0 : 2);
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
    : QWidget(parent)
    , m_bridge(bridge)
    , m_compare(new CompareView)
    , m_mode(new QComboBox)
    , m_border(new QComboBox)
    , m_variant(new QComboBox)
    , m_launch(new QComboBox)
    , m_radius(new QSpinBox)
    , m_repeats(new QSpinBox)
    , m_imageLabel(new QLabel)
    , m_deviceLabel(new QLabel)
    , m_run(new QPushButton(tr("Ru&n")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_save(new QPushButton(tr("Save Result…")))
    , m_runAction(new QAction(tr("Run Blur"), this))
    , m_progress(new QProgressBar)
    , m_status(new QLabel)
    , m_hover(new QLabel)
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
    m_repeats->setRange(1, 1000);
    m_repeats->setValue(5);
    m_repeats->setToolTip(tr("Timed runs after one warm-up; median and min are shown"));
    m_imageLabel->setWordWrap(true);
    m_deviceLabel->setWordWrap(true);
    m_deviceLabel->setText(tr("the Run dock's"));
    m_deviceLabel->setToolTip(tr("The device chosen in the Run dock (Run › Run)"));
    m_cancel->setEnabled(false);
    m_save->setEnabled(false);
    m_save->setToolTip(tr("The shown result at full size and depth (PNG, TIFF, BMP, JPEG, "
                          "PGM/PPM, WebP)"));
    m_run->setToolTip(tr("Blur the image with these settings (Ctrl+Enter); a run in progress "
                         "is replaced"));
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setVisible(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // Ctrl+Enter while the focus is anywhere in the tab: F5 is the window's Run Again.
    m_runAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_runAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_runAction);

    // Mnemonics that the Run dock (always shown) and the menu bar do not use.
    m_form = new QFormLayout;
    m_form->addRow(tr("Image"), m_imageLabel);
    m_form->addRow(tr("M&ode"), m_mode);
    m_form->addRow(tr("Border"), m_border);
    m_form->addRow(tr("Varian&t"), m_variant);
    m_form->addRow(tr("Launc&h"), m_launch);
    m_form->addRow(tr("R&adius"), m_radius);
    m_form->addRow(tr("Repeat&s"), m_repeats);
    m_form->addRow(tr("Device"), m_deviceLabel);
    auto* runRow = new QHBoxLayout;
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancel);

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
    m_corners->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_corners->horizontalHeader()->setStretchLastSection(true);
    m_corners->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_corners->setSelectionMode(QAbstractItemView::NoSelection);
    m_corners->setWordWrap(false);
    m_corners->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_corners->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_corners->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_corners->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_cornersTitle->setWordWrap(true);
    m_timings->setWordWrap(true);
    m_timings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_timings->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    auto* controls = new QVBoxLayout;
    controls->addLayout(m_form);
    controls->addLayout(runRow);
    controls->addWidget(m_progress);
    controls->addWidget(m_status);
    controls->addWidget(m_save);
    controls->addSpacing(8);
    controls->addWidget(m_cornersTitle);
    controls->addWidget(m_corners);
    controls->addSpacing(8);
    controls->addWidget(m_timings);
    controls->addStretch(1);
    auto* left = new QWidget;
    left->setLayout(controls);
    left->setMaximumWidth(380);

    // The compare view under its tool bar: mode, zoom, and the pixel under the cursor.
    auto* tools = new QToolBar;
    tools->setIconSize(QSize(16, 16));
    tools->addActions(m_compare->modeActions());
    tools->addSeparator();
    tools->addActions(m_compare->zoomActions());
    tools->addSeparator();
    tools->addWidget(m_hover);
    auto* viewer = new QWidget;
    auto* viewerLayout = new QVBoxLayout(viewer);
    viewerLayout->setContentsMargins(0, 0, 0, 0);
    viewerLayout->setSpacing(2);
    viewerLayout->addWidget(tools);
    viewerLayout->addWidget(m_compare, 1);

    const QStringList headers = {
        tr("variant"),   tr("build options"), tr("range"), tr("local size"), tr("status"),
        tr("median ms"), tr("min ms"),        tr("GB/s"),  tr("verified"),   tr("detail")};
    m_runs->setColumnCount(ColumnCount);
    m_runs->setHorizontalHeaderLabels(headers);
    m_runs->horizontalHeader()->setStretchLastSection(true);
    m_runs->verticalHeader()->setVisible(false);
    m_runs->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_runs->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_runs->setSelectionMode(QAbstractItemView::SingleSelection);
    m_runs->setWordWrap(false);
    m_runs->setMinimumHeight(120);

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(viewer);
    right->addWidget(m_runs);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 0);
    right->setChildrenCollapsible(false);
    right->setSizes({480, 190}); // five runs and the header
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(left);
    layout->addWidget(right, 1);

    connect(m_run, &QPushButton::clicked, this, &BlurPanel::startRun);
    connect(m_runAction, &QAction::triggered, this, &BlurPanel::startRun);
    connect(m_cancel, &QPushButton::clicked, this, &BlurPanel::cancelRun);
    connect(m_save, &QPushButton::clicked, this, &BlurPanel::chooseSaveFile);
    connect(m_mode, &QComboBox::currentIndexChanged, this, &BlurPanel::updateControls);
    connect(m_runs, &QTableWidget::itemSelectionChanged, this, &BlurPanel::showSelection);
    m_compare->showHoverIn(m_hover);

    connect(m_bridge, &JobBridge::blurProgress, this,
            [this](quint64, double fraction, const QString& stage) {
                m_progress->setValue(qRound(fraction * 1000));
                setStatus(tr("blurring: %1…").arg(stage));
            });
    connect(m_bridge, &JobBridge::blurFinished, this,
            [this](quint64, const BlurResult& result) { showResult(result); });
    connect(m_bridge, &JobBridge::blurFailed, this,
            [this](quint64, const JobError& error) { showFailure(error); });

    restoreSettings();
    setImage({}, {}, {});
    updateControls();
}

void BlurPanel::restoreSettings() {
    QSettings s = settings();
    auto restoreCombo = [&s](QComboBox* combo, const QString& key) {
        const int index = combo->findText(s.value(key).toString());
        if (index >= 0)
            combo->setCurrentIndex(index);
    };
    restoreCombo(m_border, QStringLiteral("blur/border"));
    restoreCombo(m_variant, QStringLiteral("blur/variant"));
    restoreCombo(m_launch, QStringLiteral("blur/launch"));
    m_mode->setCurrentIndex(
        s.value(QStringLiteral("blur/mode")).toString() == QStringLiteral("launches") ? 1 : 0);
    m_radius->setValue(s.value(QStringLiteral("blur/radius"), m_radius->value()).toInt());
    m_repeats->setValue(s.value(QStringLiteral("blur/repeats"), m_repeats->value()).toInt());
    m_compare->rememberModeIn(QStringLiteral("blur/compare"));
}

void BlurPanel::saveSettings() const {
    QSettings s = settings();
    s.setValue(QStringLiteral("blur/mode"),
               m_mode->currentData().toInt() == int(PanelMode::Launches)
                   ? QStringLiteral("launches")
                   : QStringLiteral("whole"));
    s.setValue(QStringLiteral("blur/border"), m_border->currentText());
    s.setValue(QStringLiteral("blur/variant"), m_variant->currentText());
    s.setValue(QStringLiteral("blur/launch"), m_launch->currentText());
    s.setValue(QStringLiteral("blur/radius"), m_radius->value());
    s.setValue(QStringLiteral("blur/repeats"), m_repeats->value());
}

void BlurPanel::updateControls() {
    const bool launches = m_mode->currentData().toInt() == int(PanelMode::Launches);
    m_form->setRowVisible(m_border, !launches);
    m_form->setRowVisible(m_variant, !launches);
    m_form->setRowVisible(m_launch, launches);
    m_cornersTitle->setVisible(launches); // the launch demo's kernel records them
    m_corners->setVisible(launches);
    m_run->setEnabled(!m_source.isEmpty());
    m_runAction->setEnabled(!m_source.isEmpty());
}

void BlurPanel::setImage(const QString& source, const QSize& imageSize, const QImage& preview) {
    if (!source.isEmpty() && source == m_source && imageSize == m_imageSize)
        return; // the same image (a region of it analysed, or run again): the results stay
    if (isRunning()) {
        m_bridge->cancelBlur(); // a blur of the image no longer shown: its answer is dropped
        m_dropAnswer = true;
        setRunning(false);
    }
    m_source = source;
    m_imageSize = imageSize;
    m_result.reset();
    m_runs->setRowCount(0);
    fillCorners(nullptr);
    m_timings->clear();
    m_save->setEnabled(false);
    m_compare->setLabels(tr("Original"), tr("Result"));
    if (source.isEmpty()) {
        m_imageLabel->setText(tr("none: open one (File › Open)"));
        m_compare->setPlaceholder(tr("Open an image (File › Open): the Blur tab blurs the image "
                                     "the Image tab shows."));
        m_compare->setImages({}, {});
        setStatus(tr("No image yet: open one first."));
    } else {
        QString name = QFileInfo(source).fileName();
        if (source.startsWith(QLatin1String(":/")))
            name = tr("the sample image");
        m_imageLabel->setText(
            tr("%1, %2 × %3").arg(name).arg(imageSize.width()).arg(imageSize.height()));
        m_imageLabel->setToolTip(QDir::toNativeSeparators(source));
        m_compare->setPlaceholder(tr("Run (Ctrl+Enter) to see the blurred image here."));
        m_compare->setImages(preview, {}, imageSize);
        setStatus({});
    }
    updateControls();
}

BlurRequest BlurPanel::request() const {
    BlurRequest r;
    r.source = m_source;
    r.device = m_deviceSelector ? m_deviceSelector() : QStringLiteral("auto");
    r.mode = m_mode->currentData().toInt() == int(PanelMode::Launches)
                 ? BlurRequest::Mode::Launches
                 : BlurRequest::Mode::WholeImage;
    r.radius = m_radius->value();
    r.repeats = m_repeats->value();
    r.border = BorderMode(m_border->currentData().toInt());
    const int variant = m_variant->currentData().toInt();
    r.variants = variant == kAll ? allBlurVariants() : std::vector{BlurVariant(variant)};
    const int launch = m_launch->currentData().toInt();
    r.launches = launch == kAll ? allBlurLaunches() : std::vector{BlurLaunch(launch)};
    return r;
}

void BlurPanel::startRun() {
    if (m_source.isEmpty()) {
        const QString why = tr("No image to blur: open one first (File › Open).");
        setStatus(why, true);
        emit problem(why);
        return;
    }
    saveSettings();
    m_dropAnswer = false; // the bridge only answers the newest run: this one
    const BlurRequest r = request();
    m_bridge->runBlur(r); // replaces a blur still running (lane "blur")
    setRunning(true);
    m_deviceLabel->setText(tr("%1 (from the Run dock)").arg(r.device));
    setStatus(tr("blurring…"));
    qCInfo(lcUi).noquote() << "blur" << m_source << "radius" << r.radius << "on device" << r.device;
    emit runStarted();
}

void BlurPanel::cancelRun() {
    if (!isRunning())
        return;
    m_bridge->cancelBlur();
    setStatus(tr("cancelling…"));
}

void BlurPanel::setRunning(bool running) {
    m_cancel->setEnabled(running);
    m_progress->setVisible(running);
    m_progress->setValue(0);
}

void BlurPanel::setStatus(const QString& text, bool bad) {
    m_status->setText(text);
    m_status->setStyleSheet(bad ? QStringLiteral("color: #c00000; font-weight: bold;") : QString());
}

void BlurPanel::showFailure(const JobError& error) {
    setRunning(false);
    if (std::exchange(m_dropAnswer, false))
        return;
    if (error.kind == JobError::Kind::Cancelled) {
        setStatus(tr("cancelled: the results shown are the previous run's"));
        emit runEnded(tr("blur cancelled"));
        return;
    }
    QString message = QString::fromStdString(error.message);
    if (error.kind == JobError::Kind::Usage)
        message = tr("Cannot run: %1").arg(message); // e.g. tiled above its largest radius
    QString shown = message;
    if (!error.buildLog.empty()) {
        // The build options and log belong with the error (and in the Log dock).
        m_status->setToolTip(QString::fromStdString(error.kernelFile + " " + error.options +
                                                    "\n\n" + error.buildLog));
        shown += tr(" (the tooltip has the build log)");
    }
    setStatus(shown, true);
    qCWarning(lcUi).noquote() << "blur failed:" << jobErrorKindName(error.kind) << message
                              << QString::fromStdString(error.buildLog);
    emit problem(message);
    emit runEnded(message);
}

void BlurPanel::showResult(const BlurResult& result) {
    setRunning(false);
    if (std::exchange(m_dropAnswer, false))
        return;
    m_status->setToolTip({});
    m_result = result;
    const bool launches = result.request.mode == BlurRequest::Mode::Launches;
    m_deviceLabel->setText(QString::fromStdString(result.device.name));
    m_deviceLabel->setToolTip(QStringLiteral("%1 [%2], %3")
                                  .arg(QString::fromStdString(result.device.name),
                                       QString::fromLatin1(deviceTypeName(result.device.type)),
                                       QString::fromStdString(result.device.platformName)));
    m_compare->setImages(result.inputPreview, {}, result.imageSize);
    m_compare->setLabels(launches ? tr("Original (gray plane)") : tr("Original"), tr("Result"));
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
    qCInfo(lcUi).noquote() << "blur of" << result.request.source << "on"
                           << QString::fromStdString(result.device.name) << ":" << summary;
    emit runEnded(summary);
}

void BlurPanel::fillRunsTable(const BlurResult& result) {
    const bool launches = result.request.mode == BlurRequest::Mode::Launches;
    const QSignalBlocker blocker(m_runs); // selection follows once the rows are in
    m_runs->setRowCount(0);
    m_runs->horizontalHeaderItem(NameColumn)->setText(launches ? tr("launch") : tr("variant"));
    const QColor red(0xc0, 0, 0);
    const QColor green(0, 0x80, 0);
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
                    QString::fromStdString(r.buildOptions),
                    r.globalX ? size2(r.globalX, r.globalY) : QStringLiteral("—"),
                    r.localX ? size2(r.localX, r.localY) : QStringLiteral("NULL"),
                    QString::fromLatin1(statusName(r.status)),
                    ran ? ms(r.stats.medianMs) : QString(), ran ? ms(r.stats.minMs) : QString(),
                    ran ? gbps(r.gbps) : QString(), verifiedText(r.status), detail},
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
            addRow({name, run ? QString::fromStdString(run->buildOptions) : QString(), range, local,
                    QString::fromLatin1(statusName(v.status)),
                    run ? ms(run->stats.medianMs) : QString(),
                    run ? ms(run->stats.minMs) : QString(), run ? gbps(run->gbps) : QString(),
                    verifiedText(v.status), detail},
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
    const BlurResult& result = *m_result;
    const bool launches = result.request.mode == BlurRequest::Mode::Launches;
    const QString name = m_runs->item(row, NameColumn)->text();
    const QString outcome = m_runs->item(row, StatusColumn)->text();
    m_compare->setLabels(m_compare->originalLabel(),
                         launches
                             ? name
                             : tr("%1, radius %2, %3")
                                   .arg(QString::fromLatin1(borderModeName(result.request.border)))
                                   .arg(result.request.radius)
                                   .arg(name));
    m_compare->setPlaceholder(
        tr("%1: %2, no output\n\n%3").arg(name, outcome, m_runs->item(row, DetailColumn)->text()));
    m_compare->setResult(result.previews[std::size_t(row)]);
    fillCorners(launches ? &result.launches[std::size_t(row)] : nullptr);
    m_save->setEnabled(selectedOutput() != nullptr);

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
                     .arg(name, ms(stats->medianMs), ms(stats->minMs))
                     .arg(stats->samplesMs.size())
                     .arg(gbps(rate), launches ? tr("interior") : tr("image"));
        lines << (verified ? tr("verified: byte for byte equal to the CPU reference")
                           : tr("<b style=\"color:#c00000\">MISMATCH: %1</b>")
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

void BlurPanel::chooseSaveFile() {
    if (!selectedOutput())
        return;
    QString start = settings().value(QStringLiteral("lastFolder")).toString();
    if (start.isEmpty())
        start = QDir::homePath();
    QString base = QFileInfo(m_source).completeBaseName();
    if (base.isEmpty())
        base = QStringLiteral("histlab");
    const QString what = m_runs->item(selectedRow(), NameColumn)
                             ->text()
                             .section(QStringLiteral(" → "), -1); // "auto → tiled": tiled
    start = QDir(start).filePath(
        QStringLiteral("%1-blur-r%2-%3.png").arg(base).arg(m_result->request.radius).arg(what));
    QString path = m_saveChooser(this, tr("Save Blurred Image"), start, kSaveFilter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".png");
    saveResultTo(path);
}

ExportResult BlurPanel::saveResultTo(const QString& path) {
    const HostImage* output = selectedOutput();
    if (!output)
        return failSave(tr("%1: nothing to save (no blurred image is shown)").arg(path));
    try {
        saveImage(*output, QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        return failSave(QString::fromStdString(e.what()));
    }
    settings().setValue(QStringLiteral("lastFolder"), QFileInfo(path).absolutePath());
    setStatus(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    qCInfo(lcUi).noquote() << "blurred image saved:" << path;
    return ExportResult::success();
}

ExportResult BlurPanel::failSave(const QString& message) {
    setStatus(message, true);
    qCWarning(lcUi).noquote() << "save failed:" << message;
    emit problem(message);
    if (m_errorDialogs) {
        // Window-modal and opened without exec(): no nested event loop.
        auto* box = new QMessageBox(QMessageBox::Warning, tr("HistLab"),
                                    tr("The blurred image was not saved.\n\n%1").arg(message),
                                    QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    return ExportResult::failure(message);
}

} // namespace histlab::ui
