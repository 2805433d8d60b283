#include "panels/wordspanel.h"

#include "bridge/imagecache.h"
#include "bridge/logging.h"
#include "panels/resulttable.h"
#include "plots/plotstyle.h"

#include <io/imageio.h>
#include <pipelines/options.h>
#include <report/files.h>
#include <runtime/errors.h>

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace histlab::ui {

struct WordsPanel::Preview {
    std::shared_ptr<const WordTable> table; // the table the row belongs to
    int row = -1;
    QImage picture;            // at most previewSide on its longer side
    int width = 0, height = 0; // of the image as decoded
    QString error;
    bool keypointsAsked = false;
    std::vector<BowKeypoint> keypoints; // in the decoded image's pixels
    QString keypointsError;
    std::vector<QImage> thumbnails; // of the neighbours, in their order (null: none)
};

// The worker's side ------------------------------------------------------------------------

namespace {

constexpr int kPreviewSide = 640;
constexpr int kThumbnailSide = 80;
const QString kCodebookFilter =
    QStringLiteral("OpenCV FileStorage (*.yml *.yaml *.xml *.json);;All files (*)");

std::string text(const QString& s) {
    return QFile::encodeName(s).toStdString();
}

/// The folder and description options of a request, listed (InputError naming the folder).
CollectionSource listedSource(const WordsJobRequest& r, const std::string& command) {
    CollectionSource s;
    s.folder = text(r.folder);
    s.describe.detector = parseBowDetector(r.detector.toStdString());
    s.describe.maxSide = r.maxSide;
    listSource(s, command);
    return s;
}

WordsView viewOf(const WordTable& table, BowWeighting weighting) {
    WordsView v;
    v.weighting = weighting;
    v.weights = weightedHistograms(table, weighting);
    CollectionView cv;
    cv.weighting = weighting;
    v.nearest = nearestImages(similarityWeights(table, cv), WordsPanel::nearestCount);
    return v;
}

/// k-means on the device from the folder's descriptors: bow build-codebook's plan and run. The plan
/// refuses a K or a kernel the device cannot take before any image is described; "all" kernels
/// builds with the plan's choice.
JobWork codebookJob(const WordsJobRequest& r) {
    return [r](JobContext& ctx, const ItemSink&) -> std::any {
        ctx.progress(0, "listing the folder");
        CodebookParams p;
        p.source = listedSource(r, "Build codebook");
        p.kmeans.k = std::size_t(r.k);
        if (r.kernel != QStringLiteral("auto") && r.kernel != QStringLiteral("all"))
            p.kernel = parseBowKernel(r.kernel.toStdString());
        Device& device = jobDevice(ctx, r.device, "bag-of-visual-words codebook");
        const CodebookParams plan = planCodebook(device.info(), p);
        WordsCodebookResult out;
        out.request = r;
        out.run = runCodebookJob(ctx, device, plan, {}); // the tab shows no image's features
        out.codebook = std::make_shared<const Codebook>(std::move(out.run.kmeans.codebook));
        out.run.kmeans.codebook = {};
        return out;
    };
}

/// Each image's words with the codebook (runHistograms, as bow histograms), the weights and
/// nearest images, and the device's FP32 peak the first time this device runs.
JobWork histogramsJob(const WordsJobRequest& r,
                      std::shared_ptr<std::map<std::string, Fp32Peak>> peaks) {
    return [r, peaks](JobContext& ctx, const ItemSink&) -> std::any {
        ctx.progress(0, "listing the folder");
        HistogramsParams p;
        p.source = listedSource(r, "Compute histograms");
        p.codebook = r.codebook;
        p.codebookPath = text(r.codebookName);
        p.view.weighting = parseBowWeighting(r.weighting.toStdString());
        p.view.nearest = WordsPanel::nearestCount;
        Device& device = jobDevice(ctx, r.device, "bag-of-visual-words histograms");
        if (r.kernel != QStringLiteral("auto")) // "all" or one kernel, as --kernel takes them
            p.kernels =
                parseNameList<BowKernel>(r.kernel.toStdString(), allBowKernels, parseBowKernel);
        WordsHistogramsResult out;
        out.request = r;
        out.run = runHistogramsJob(ctx, device, planHistograms(device.info(), p), {});
        out.table = std::make_shared<const WordTable>(std::move(out.run.table));
        out.run.table = {};
        ctx.progress(1, "weights and nearest images");
        out.view = viewOf(*out.table, p.view.weighting);
        const std::string key = device.info().platformName + "/" + device.info().name;
        auto known = peaks->find(key);
        if (known == peaks->end()) {
            ctx.progress(1, "the device's FP32 peak");
            known = peaks->emplace(key, measureFp32Peak(device, 5, ctx.cancelToken())).first;
        }
        out.peak = known->second;
        return out;
    };
}

/// Floating-point operations a second of a kernel's tally, as BowRun::gflops counts them
/// (bowFlopsPerDescriptor) over the kernel time.
double tallyGflops(const KernelTally& k, const Codebook& codebook) {
    if (k.kernelMs <= 0)
        return 0;
    return bowFlopsPerDescriptor(k.kernel, codebook.k, codebook.dim) * double(k.descriptors) /
           (k.kernelMs * 1e6);
}

QString qtext(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

// The tab ----------------------------------------------------------------------------------

WordsPanel::WordsPanel(JobBridge* bridge, QWidget* parent)
    : JobPanel(bridge,
               {QStringLiteral("words"), tr("bag of visual words"), tr("Build Words Codebook"),
                QStringLiteral("words")},
               parent)
    , m_folder(new QLineEdit)
    , m_chooseFolder(new QPushButton(tr("Choose…")))
    , m_detector(new QComboBox)
    , m_k(new QSpinBox)
    , m_kernel(new QComboBox)
    , m_weighting(new QComboBox)
    , m_maxSide(new QSpinBox)
    , m_keypoints(new QCheckBox(tr("Show &keypoints")))
    , m_histogramsButton(new QPushButton(tr("Compute &histograms")))
    , m_loadCodebook(new QPushButton(tr("Load Codebook…")))
    , m_saveCodebook(new QPushButton(tr("Save Codebook…")))
    , m_codebookLabel(new QLabel(tr("none yet")))
    , m_kernels(new QTableWidget)
    , m_images(new QTableWidget)
    , m_plot(new QCustomPlot)
    , m_bars(new QCPBars(m_plot->xAxis, m_plot->yAxis))
    , m_nearest(new QListWidget)
    , m_image(new QLabel)
    , m_imageCaption(new QLabel)
    , m_peaks(std::make_shared<std::map<std::string, Fp32Peak>>()) {
    m_folder->setPlaceholderText(tr("a folder of images"));
    m_folder->setToolTip(tr("The images of this folder (by their extension, not its "
                            "subfolders), sorted by name"));
    m_detector->addItems({QStringLiteral("kaze"), QStringLiteral("sift")});
    m_detector->setToolTip(tr("Local features through OpenCV: kaze (64 floats) or sift (128)"));
    m_k->setRange(1, 65536);
    m_k->setValue(256);
    m_k->setToolTip(tr("Visual words of the codebook (k-means centroids); there must be at "
                       "least as many descriptors"));
    m_kernel->addItem(QStringLiteral("auto"));
    for (BowKernel k : allBowKernels())
        m_kernel->addItem(QString::fromLatin1(bowKernelName(k)));
    m_kernel->addItem(QStringLiteral("all"));
    m_kernel->setToolTip(
        tr("The assignment kernel: auto (the first the device runs of block-norm "
           "(CPUs; GPUs from K 512), tiled-norm, tiled, gpu4, gpu3, gpu2, gpu1), one "
           "kernel, or all (the "
           "histograms with every kernel, to compare; the codebook with "
           "auto's)"));
    for (BowWeighting w :
         {BowWeighting::None, BowWeighting::L1, BowWeighting::L2, BowWeighting::TfIdf})
        m_weighting->addItem(QString::fromLatin1(bowWeightingName(w)));
    m_weighting->setToolTip(tr("The bars and the CSV: none (counts), l1 (divided by the "
                               "descriptors, as OpenCV's extractor), l2 (unit length), tfidf; "
                               "similarity uses these weights (tf-idf for none)"));
    m_maxSide->setRange(0, 1 << 16);
    m_maxSide->setValue(1024);
    m_maxSide->setSuffix(tr(" px"));
    m_maxSide->setSpecialValueText(tr("full size"));
    m_maxSide->setToolTip(tr("Images larger than this on their longer side are reduced to it "
                             "before detection (0: full size)"));
    m_keypoints->setToolTip(tr("Draw the selected image's keypoints (described again on the "
                               "worker): circles of the keypoint's size"));
    m_codebookLabel->setWordWrap(true);
    m_codebookLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    runButton()->setText(tr("&Build codebook"));
    runButton()->setToolTip(tr("k-means on the device from the folder's descriptors "
                               "(Ctrl+Enter); a run in progress is replaced"));
    m_histogramsButton->setToolTip(tr("Each image's words with the codebook held, every label "
                                      "verified against the CPU reference"));
    addRunRowButton(m_histogramsButton);

    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(m_chooseFolder);
    auto* folderLabel = new QLabel(tr("&Folder"));
    folderLabel->setBuddy(m_folder);
    form()->addRow(folderLabel, folderRow);
    form()->addRow(tr("&Detector"), m_detector);
    form()->addRow(tr("Max &side"), m_maxSide);
    form()->addRow(tr("&K (words)"), m_k);
    form()->addRow(tr("K&ernel"), m_kernel);
    form()->addRow(tr("&Weighting"), m_weighting);
    form()->addRow(tr("Codebook"), m_codebookLabel);
    addDeviceRow();
    form()->addRow(m_keypoints);

    filesGrid()->addWidget(addOutput(Output::Plot, tr("Export Plot"),
                                     tr("The selected image's histogram of words as PNG, JPG, "
                                        "PDF or SVG")),
                           0, 0);
    filesGrid()->addWidget(
        addOutput(Output::Csv, tr("Save Words CSV"),
                  tr("One row an image: file, descriptors, status, weighting, w0 … wK-1 (the "
                     "chosen weighting), as histlab-cli bow histograms --csv writes it"),
                  [this](QString*) {
                      return wordsCsv(*m_result->table,
                                      parseBowWeighting(m_weighting->currentText().toStdString()));
                  }),
        0, 1);
    m_loadCodebook->setToolTip(tr("A codebook as OpenCV FileStorage (the matrix 'vocabulary', K "
                                  "x D floats), as bow build-codebook --out writes it"));
    m_saveCodebook->setToolTip(tr("The codebook held, as OpenCV FileStorage (YAML, or XML/JSON "
                                  "by the extension)"));
    filesGrid()->addWidget(m_loadCodebook, 1, 0);
    filesGrid()->addWidget(m_saveCodebook, 1, 1);

    // The results: the kernels above, the images and the selected one below.
    setUpResultTable(m_kernels, {tr("kernel"), tr("descriptors"), tr("kernel ms"), tr("M desc/s"),
                                 tr("GFLOP/s"), tr("% FP32 peak"), tr("ambiguous"), tr("status"),
                                 tr("geometry")});
    m_kernels->setMinimumHeight(90);
    setUpResultTable(m_images, {tr("file"), tr("descriptors"), tr("status")});
    m_images->setSelectionMode(QAbstractItemView::SingleSelection);
    // Every column as wide as its contents: a file name is what tells a row's image, and a
    // narrow tab scrolls rather than cutting it to "B…g". A column the person narrows cuts a
    // name in the middle (its ends tell names apart); numbers are never cut.
    m_images->setTextElideMode(Qt::ElideMiddle);
    m_images->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_images->horizontalHeader()->setStretchLastSection(true);
    for (int column : {FileColumn, ImageDescriptorsColumn})
        m_images->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);

    m_plot->setMinimumSize(320, 120); // low enough for a 667-pixel-high screen (150 %)
    m_bars->setPen(Qt::NoPen);
    m_bars->setBrush(seriesColor(0));
    m_bars->setWidthType(QCPBars::wtPlotCoords);
    m_bars->setWidth(0.8);
    m_plot->xAxis->setLabel(tr("word"));
    m_plot->yAxis->setLabel(tr("weight"));
    addPlotTitle(m_plot, tr("Histogram of words"));
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);

    m_nearest->setViewMode(QListView::IconMode);
    m_nearest->setIconSize(QSize(kThumbnailSide, kThumbnailSide));
    m_nearest->setGridSize(QSize(kThumbnailSide + 28, kThumbnailSide + 44));
    m_nearest->setTextElideMode(Qt::ElideMiddle);
    m_nearest->setFlow(QListView::LeftToRight);
    m_nearest->setWrapping(false);
    m_nearest->setMovement(QListView::Static);
    m_nearest->setFixedHeight(kThumbnailSide + 64);
    m_nearest->setToolTip(tr("The most similar images: cosine of the weights (tf-idf for "
                             "none); a click selects one"));
    m_image->setAlignment(Qt::AlignCenter);
    m_image->setMinimumSize(160, 60);
    m_image->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    m_image->installEventFilter(this); // drawn again at its new size
    m_imageCaption->setWordWrap(true);

    auto* nearestBox = new QWidget;
    auto* nearestLayout = new QVBoxLayout(nearestBox);
    nearestLayout->setContentsMargins(0, 0, 0, 0);
    nearestLayout->addWidget(new QLabel(tr("Nearest images (cosine similarity)")));
    nearestLayout->addWidget(m_nearest);
    auto* imageBox = new QWidget;
    auto* imageLayout = new QVBoxLayout(imageBox);
    imageLayout->setContentsMargins(0, 0, 0, 0);
    imageLayout->addWidget(m_image, 1);
    imageLayout->addWidget(m_imageCaption);

    auto* selected = new QSplitter(Qt::Vertical);
    selected->addWidget(m_plot);
    selected->addWidget(nearestBox);
    selected->addWidget(imageBox);
    selected->setStretchFactor(0, 3);
    selected->setStretchFactor(1, 0);
    selected->setStretchFactor(2, 3);
    selected->setChildrenCollapsible(false);
    auto* lower = new QSplitter(Qt::Horizontal);
    lower->addWidget(m_images);
    lower->addWidget(selected);
    lower->setStretchFactor(0, 1);
    lower->setStretchFactor(1, 2);
    lower->setChildrenCollapsible(false);
    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_kernels);
    right->addWidget(lower);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 5);
    right->setChildrenCollapsible(false);
    setExportedPlot(m_plot);
    setPlotExport(QSize(800, 450));
    setResults(right, 360);

    connect(m_chooseFolder, &QPushButton::clicked, this, &WordsPanel::chooseFolder);
    connect(m_histogramsButton, &QPushButton::clicked, this, &WordsPanel::computeHistograms);
    connect(m_loadCodebook, &QPushButton::clicked, this, &WordsPanel::chooseLoadCodebook);
    connect(m_saveCodebook, &QPushButton::clicked, this, &WordsPanel::chooseSaveCodebook);
    connect(m_folder, &QLineEdit::textChanged, this, [this] { updateActions(); });
    connect(m_images, &QTableWidget::itemSelectionChanged, this, &WordsPanel::showSelected);
    connect(m_weighting, &QComboBox::currentIndexChanged, this, &WordsPanel::weightingChanged);
    connect(m_keypoints, &QCheckBox::toggled, this, [this] {
        if (m_keypoints->isChecked())
            requestPreview(); // the keypoints are described on the worker
        else
            drawImage();
    });
    connect(m_nearest, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        const int row = item->data(Qt::UserRole + 1).toInt();
        if (row >= 0 && row < m_images->rowCount())
            m_images->selectRow(row);
    });

    remember(m_folder, QStringLiteral("folder"));
    remember(m_detector, QStringLiteral("detector"));
    remember(m_k, QStringLiteral("k"));
    remember(m_kernel, QStringLiteral("kernel"));
    remember(m_weighting, QStringLiteral("weighting"));
    remember(m_maxSide, QStringLiteral("maxSide"));
    remember(m_keypoints, QStringLiteral("keypoints"));
    setStatus(tr("Choose a folder of images, build a codebook (or load one), then compute the "
                 "histograms."));
    updateActions();
}

void WordsPanel::setImages(const QStringList& paths) {
    if (!m_folder->text().trimmed().isEmpty())
        return;
    for (const QString& path : paths)
        if (!path.startsWith(QLatin1Char(':'))) {
            m_folder->setText(QFileInfo(path).absolutePath());
            return;
        }
}

bool WordsPanel::canRun() const {
    return !m_folder->text().trimmed().isEmpty();
}

void WordsPanel::updateActions() {
    JobPanel::updateActions();
    m_histogramsButton->setEnabled(canRun() && m_codebook != nullptr);
    m_saveCodebook->setEnabled(m_codebook != nullptr);
}

WordsJobRequest WordsPanel::request() const {
    WordsJobRequest r;
    r.folder = QDir::cleanPath(m_folder->text().trimmed());
    r.detector = m_detector->currentText();
    r.maxSide = m_maxSide->value();
    r.k = m_k->value();
    r.kernel = m_kernel->currentText();
    r.weighting = m_weighting->currentText();
    r.device = deviceSelector();
    r.codebook = m_codebook;
    r.codebookName = m_codebookName;
    return r;
}

void WordsPanel::startRun() {
    const WordsJobRequest r = request();
    if (m_folder->text().trimmed().isEmpty()) {
        refuse(tr("No folder: choose a folder of images first."));
        return;
    }
    qCInfo(lcUi).noquote() << "words: build codebook" << r.folder << r.detector << "K" << r.k
                           << r.kernel << "on device" << r.device;
    start(codebookJob(r), tr("building the codebook…"));
}

void WordsPanel::computeHistograms() {
    const WordsJobRequest r = request();
    if (m_folder->text().trimmed().isEmpty()) {
        refuse(tr("No folder: choose a folder of images first."));
        return;
    }
    if (!r.codebook) {
        refuse(tr("No codebook: build one (or load one) first."));
        return;
    }
    qCInfo(lcUi).noquote() << "words: histograms of" << r.folder << r.detector << "codebook"
                           << r.codebookName << r.kernel << "on device" << r.device;
    start(histogramsJob(r, m_peaks), tr("computing the histograms…"));
}

QString WordsPanel::showResult(const std::any& result) {
    if (const auto* built = std::any_cast<WordsCodebookResult>(&result))
        return presentCodebook(*built);
    return presentHistograms(std::any_cast<const WordsHistogramsResult&>(result));
}

QString WordsPanel::presentCodebook(const WordsCodebookResult& result) {
    m_built = result;
    m_codebook = result.codebook;
    const CodebookResult& run = result.run;
    showDevice(run.device);
    m_codebookName = QStringLiteral("%1 (built, %2)")
                         .arg(QFileInfo(result.request.folder).fileName(), result.request.detector);
    const QLocale locale;
    m_codebookLabel->setText(tr("%1 words × %2 floats, k-means on %3 of the %4 descriptors of %5")
                                 .arg(m_codebook->k)
                                 .arg(m_codebook->dim)
                                 .arg(locale.toString(qulonglong(run.kmeans.used)),
                                      locale.toString(qulonglong(run.pooled)),
                                      QDir::toNativeSeparators(result.request.folder)));
    const bool bad = run.status == Status::Mismatch;
    const QString stopped = run.kmeans.converged ? tr("%1 (%2 iterations)")
                                                       .arg(qtext(run.kmeans.stopped))
                                                       .arg(run.kmeans.iterations.size())
                                                 : qtext(run.kmeans.stopped);
    const QString summary =
        tr("Codebook of %1 words from %2 images (%3 could not be described), kernel %4; "
           "k-means %5; final assignment %6. Compute the histograms next.")
            .arg(m_codebook->k)
            .arg(run.images - run.failed)
            .arg(run.failed)
            .arg(QString::fromLatin1(bowKernelName(run.kernel)), stopped,
                 qtext(statusText(run.status, run.detail)));
    setStatus(summary, bad);
    emit codebookChanged();
    return summary;
}

QString WordsPanel::presentHistograms(const WordsHistogramsResult& result) {
    m_result = result;
    showDevice(result.run.device);
    showKernels(result);
    showImages(*result.table);
    int verified = 0, bad = 0;
    for (const KernelTally& k : result.run.kernels) {
        verified += k.status == Status::Verified ? 1 : 0;
        bad += k.status == Status::Mismatch || k.status == Status::Failed ? 1 : 0;
    }
    std::size_t failed = 0, descriptors = 0;
    for (const ImageWords& image : result.table->images) {
        failed += image.error.empty() ? 0 : 1;
        descriptors += image.descriptors;
    }
    QString summary = tr("%1 images (%2 could not be described), %3 descriptors, %4 words · %5 "
                         "of %6 kernel(s) verified")
                          .arg(result.table->images.size())
                          .arg(failed)
                          .arg(QLocale().toString(qulonglong(descriptors)))
                          .arg(result.table->k)
                          .arg(verified)
                          .arg(result.run.kernels.size());
    if (bad)
        summary += tr(", %1 failed or differ from the CPU reference").arg(bad);
    setStatus(summary, bad > 0);
    // The weighting may have changed while the run went on.
    if (m_weighting->currentText() != QString::fromLatin1(bowWeightingName(result.view.weighting)))
        weightingChanged();
    return summary;
}

void WordsPanel::showKernels(const WordsHistogramsResult& result) {
    m_kernels->setRowCount(0);
    const double peak = result.peak.gflops;
    for (const KernelTally& k : result.run.kernels) {
        const bool ran = statusRan(k.status);
        const double gflops = tallyGflops(k, *result.request.codebook);
        const QStringList cells = {
            QString::fromLatin1(bowKernelName(k.kernel)),
            QLocale().toString(qulonglong(k.descriptors)),
            ran ? msText(k.kernelMs) : QString(),
            ran && k.kernelMs > 0
                ? QString::number(double(k.descriptors) / (k.kernelMs * 1e3), 'f', 2)
                : QString(),
            ran && k.kernelMs > 0 ? QString::number(gflops, 'f', 1) : QString(),
            ran && peak > 0 && k.kernelMs > 0 ? QString::number(100.0 * gflops / peak, 'f', 1)
                                              : QString(),
            ran ? QString::number(k.ambiguous) : QString(),
            QString::fromLatin1(statusName(k.status)),
            qtext(k.geometry)};
        const int row = appendResultRow(
            m_kernels, cells,
            [&](int c) {
                if (c == StatusColumn)
                    return qtext(statusText(k.status, k.detail));
                if (c == PeakColumn)
                    return peak > 0 ? tr("Of the device's FP32 multiply-add peak, %1 GFLOP/s "
                                         "(bow_fma_peak)")
                                          .arg(peak, 0, 'f', 1)
                                    : tr("No peak: %1").arg(qtext(result.peak.detail));
                if (c == KernelMsColumn || c == MdescColumn)
                    return tr("Kernel time (launches and the clearing of the histogram, "
                              "profiled), summed over the batches of images");
                if (c == GflopsColumn)
                    return tr("3 K D operations a descriptor (2 K D for tiled-norm and block-norm) "
                              "over the "
                              "kernel time");
                return qtext(k.geometry);
            },
            {DescriptorsColumn, KernelMsColumn, MdescColumn, GflopsColumn, PeakColumn,
             AmbiguousColumn});
        markRowStatus(m_kernels, row, k.status, StatusColumn, {StatusColumn});
    }
    m_kernels->resizeColumnsToContents();
    // Every kernel's row in view (all seven with "all"), the images below taking the rest; at
    // most 150 pixels as a minimum, so that the tab still fits a low screen (it scrolls there).
    int height = m_kernels->horizontalHeader()->sizeHint().height() + 2 * m_kernels->frameWidth();
    for (int row = 0; row < m_kernels->rowCount(); ++row)
        height += m_kernels->rowHeight(row);
    m_kernels->setMinimumHeight(std::clamp(height, 90, 150));
}

void WordsPanel::showImages(const WordTable& table) {
    const QSignalBlocker block(m_images);
    const QString selected =
        m_images->currentRow() >= 0 && m_images->item(m_images->currentRow(), FileColumn)
            ? m_images->item(m_images->currentRow(), FileColumn)->text()
            : QString();
    m_images->setRowCount(0);
    int select = -1, first = -1;
    for (const ImageWords& image : table.images) {
        const QString file = qtext(image.file);
        const QStringList cells = {file, QLocale().toString(qulonglong(image.descriptors)),
                                   image.error.empty() ? tr("ok") : qtext(image.error)};
        const int row =
            appendResultRow(m_images, cells, [&](int) { return cells[ImageStatusColumn]; },
                            {ImageDescriptorsColumn});
        markRowStatus(m_images, row, image.error.empty() ? Status::Verified : Status::Failed,
                      ImageStatusColumn, {ImageStatusColumn});
        if (file == selected)
            select = row;
        if (first < 0 && image.error.empty())
            first = row;
    }
    if (select < 0)
        select = first >= 0 ? first : (m_images->rowCount() ? 0 : -1);
    if (select >= 0)
        m_images->selectRow(select);
    showSelected();
}

/// The selected image's bars and neighbours (the table's view), then its picture (worker).
void WordsPanel::showSelected() {
    const int row = m_images->currentRow();
    m_nearest->clear();
    QSharedPointer<QCPBarsDataContainer> data(new QCPBarsDataContainer);
    if (m_result && row >= 0 && std::size_t(row) < m_result->table->images.size()) {
        const WordsView& view = m_result->view;
        const std::vector<double>& weights = view.weights[std::size_t(row)];
        double top = 0;
        for (std::size_t w = 0; w < weights.size(); ++w) {
            data->add(QCPBarsData(double(w), weights[w]));
            top = std::max(top, weights[w]);
        }
        m_bars->setData(data);
        m_bars->setName(QString::fromLatin1(bowWeightingName(view.weighting)));
        m_plot->xAxis->setRange(-0.5, double(std::max<std::size_t>(m_result->table->k, 1)) - 0.5);
        fitFromZero(m_plot->yAxis, top);
        const ImageWords& image = m_result->table->images[std::size_t(row)];
        m_plot->yAxis->setLabel(view.weighting == BowWeighting::None
                                    ? tr("count")
                                    : tr("weight (%1)").arg(bowWeightingName(view.weighting)));
        if (auto* title = qobject_cast<QCPTextElement*>(m_plot->plotLayout()->element(0, 0)))
            title->setText(tr("%1: %2 descriptors over %3 words")
                               .arg(qtext(image.file))
                               .arg(image.descriptors)
                               .arg(m_result->table->k));
        for (const Neighbour& n : view.nearest[std::size_t(row)]) {
            auto* item = new QListWidgetItem(QStringLiteral("%1\n%2")
                                                 .arg(qtext(m_result->table->images[n.image].file))
                                                 .arg(n.similarity, 0, 'f', 3));
            item->setData(Qt::UserRole, n.similarity);
            item->setData(Qt::UserRole + 1, int(n.image));
            item->setToolTip(tr("cosine similarity %1").arg(n.similarity, 0, 'f', 6));
            item->setTextAlignment(Qt::AlignHCenter);
            m_nearest->addItem(item);
        }
    } else {
        m_bars->setData(data);
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    requestPreview();
}

void WordsPanel::requestPreview() {
    const int row = m_images->currentRow();
    if (!m_result || row < 0 || std::size_t(row) >= m_result->table->images.size()) {
        bridge()->discard(QStringLiteral("words/preview"));
        m_picture = {};
        m_pictureKeypoints.clear();
        drawImage();
        return;
    }
    const QString folder = m_result->request.folder;
    const auto table = m_result->table;
    std::vector<std::string> neighbours;
    for (const Neighbour& n : m_result->view.nearest[std::size_t(row)])
        neighbours.push_back(text(folder) + "/" + table->images[n.image].file);
    Preview base;
    base.table = table;
    base.row = row;
    base.keypointsAsked = m_keypoints->isChecked();
    DescribeOptions options;
    options.detector = parseBowDetector(m_result->request.detector.toStdString());
    options.maxSide = m_result->request.maxSide;
    const std::string path = text(folder) + "/" + table->images[std::size_t(row)].file;
    m_imageCaption->setText(tr("%1: loading…").arg(qtext(table->images[std::size_t(row)].file)));
    submitAside(
        QStringLiteral("words/preview"),
        [base, path, neighbours, options](JobContext& ctx, const ItemSink&) -> std::any {
            Preview p = base;
            try {
                const HostImage image = loadImage(path);
                p.width = image.width;
                p.height = image.height;
                p.picture = previewOf(image, kPreviewSide);
            } catch (const std::exception& e) {
                p.error = QString::fromStdString(e.what());
            }
            ctx.throwIfCancelled();
            if (p.keypointsAsked && p.error.isEmpty()) {
                try {
                    ImageFeatures f = bowOpenCv().describe(path, options);
                    p.keypoints = std::move(f.keypoints);
                    p.width = f.width;
                    p.height = f.height;
                } catch (const std::exception& e) {
                    p.keypointsError = QString::fromStdString(e.what());
                }
            }
            for (const std::string& n : neighbours) {
                ctx.throwIfCancelled();
                try {
                    p.thumbnails.push_back(previewOf(loadImage(n), kThumbnailSide));
                } catch (const std::exception&) {
                    p.thumbnails.emplace_back();
                }
            }
            return p;
        },
        [this](const std::any& value) { showPreview(std::any_cast<const Preview&>(value)); },
        [this](const JobError& error) {
            if (error.kind != JobError::Kind::Cancelled)
                m_imageCaption->setText(QString::fromStdString(error.message));
        });
}

void WordsPanel::showPreview(const Preview& p) {
    if (!m_result || p.table != m_result->table || p.row != m_images->currentRow())
        return; // an older selection's
    for (std::size_t i = 0; i < p.thumbnails.size() && int(i) < m_nearest->count(); ++i)
        if (!p.thumbnails[i].isNull())
            m_nearest->item(int(i))->setIcon(QIcon(QPixmap::fromImage(p.thumbnails[i])));
    m_picture = p.picture;
    m_pictureWidth = p.width;
    m_pictureHeight = p.height;
    m_pictureKeypoints = p.keypointsAsked ? p.keypoints : std::vector<BowKeypoint>();
    const QString file = qtext(p.table->images[std::size_t(p.row)].file);
    QString caption = p.error.isEmpty() ? tr("%1: %2 × %3").arg(file).arg(p.width).arg(p.height)
                                        : tr("%1: cannot be shown (%2)").arg(file, p.error);
    if (p.keypointsAsked && p.error.isEmpty())
        caption += p.keypointsError.isEmpty()
                       ? tr(", %1 keypoints (circles of their size)").arg(p.keypoints.size())
                       : tr(", no keypoints: %1").arg(p.keypointsError);
    m_imageCaption->setText(caption);
    drawImage();
    emit previewShown();
}

/// The picture scaled to the label, with the keypoints when asked.
void WordsPanel::drawImage() {
    m_keypointsShown = 0;
    if (m_picture.isNull()) {
        m_image->clear();
        if (!m_result)
            m_imageCaption->clear();
        return;
    }
    QImage shown = m_picture.convertToFormat(QImage::Format_RGB32);
    if (m_keypoints->isChecked() && !m_pictureKeypoints.empty() && m_pictureWidth > 0) {
        const double s = double(shown.width()) / double(m_pictureWidth);
        QPainter painter(&shown);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(QColor(255, 40, 160), 1.0));
        for (const BowKeypoint& k : m_pictureKeypoints) {
            const double r = std::max(1.0, 0.5 * double(k.size) * s);
            const QPointF c(double(k.x) * s, double(k.y) * s);
            painter.drawEllipse(c, r, r);
            if (k.angle >= 0) {
                const double a = double(k.angle) * std::numbers::pi / 180.0;
                painter.drawLine(c, c + QPointF(r * std::cos(a), r * std::sin(a)));
            }
        }
        m_keypointsShown = m_pictureKeypoints.size();
    }
    const QSize room = m_image->size().expandedTo(QSize(64, 48));
    m_image->setPixmap(
        QPixmap::fromImage(shown).scaled(room, Qt::KeepAspectRatio, Qt::SmoothTransformation));
}

bool WordsPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_image && event->type() == QEvent::Resize && !m_picture.isNull())
        drawImage();
    return JobPanel::eventFilter(watched, event);
}

void WordsPanel::weightingChanged() {
    if (!m_result)
        return;
    const BowWeighting weighting = parseBowWeighting(m_weighting->currentText().toStdString());
    if (weighting == m_result->view.weighting)
        return;
    const auto table = m_result->table;
    submitAside(
        QStringLiteral("words/view"),
        [table, weighting](JobContext&, const ItemSink&) -> std::any {
            return std::make_pair(table, viewOf(*table, weighting));
        },
        [this](const std::any& value) {
            const auto& [table, view] =
                std::any_cast<const std::pair<std::shared_ptr<const WordTable>, WordsView>&>(value);
            if (!m_result || table != m_result->table)
                return;
            m_result->view = view;
            showSelected();
        },
        [this](const JobError& error) {
            if (error.kind != JobError::Kind::Cancelled)
                setStatus(QString::fromStdString(error.message), true);
        });
}

void WordsPanel::submitAside(const QString& lane, JobWork work,
                             std::function<void(const std::any&)> done,
                             std::function<void(const JobError&)> failed) {
    JobWatcher* watcher = bridge()->submit(lane, std::move(work));
    connect(watcher, &JobWatcher::finished, this, std::move(done));
    connect(watcher, &JobWatcher::failed, this, std::move(failed));
}

// Files ------------------------------------------------------------------------------------

void WordsPanel::chooseFolder() {
    auto* dialog = new QFileDialog(this, tr("Folder of images"), m_folder->text());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::Directory);
    dialog->setOption(QFileDialog::ShowDirsOnly);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this](const QString& folder) { m_folder->setText(QDir::toNativeSeparators(folder)); });
    dialog->open(); // window-modal, no nested event loop
}

void WordsPanel::chooseLoadCodebook() {
    const QString path = chooseOpenFile(tr("Load Codebook"), kCodebookFilter);
    if (!path.isEmpty())
        loadCodebookFrom(path);
}

void WordsPanel::chooseSaveCodebook() {
    if (!m_codebook)
        return;
    const QString path = chooseSaveFile(
        tr("Save Codebook"), startPath(fileBaseName(Output::Csv) + QStringLiteral("-codebook.yml")),
        kCodebookFilter);
    if (!path.isEmpty())
        saveCodebookTo(path);
}

void WordsPanel::loadCodebookFrom(const QString& path) {
    setStatus(tr("reading %1…").arg(QDir::toNativeSeparators(path)));
    const std::string file = text(path);
    submitAside(
        QStringLiteral("words/files"),
        [file](JobContext&, const ItemSink&) -> std::any {
            requireBowOpenCv("Load Codebook");
            return std::make_shared<const Codebook>(bowOpenCv().readCodebook(file));
        },
        [this, path](const std::any& value) {
            m_codebook = std::any_cast<const std::shared_ptr<const Codebook>&>(value);
            m_codebookName = path;
            m_built.reset();
            m_codebookLabel->setText(tr("%1 words × %2 floats, from %3")
                                         .arg(m_codebook->k)
                                         .arg(m_codebook->dim)
                                         .arg(QDir::toNativeSeparators(path)));
            rememberFolder(path);
            setStatus(tr("Loaded a codebook of %1 words of %2 floats from %3")
                          .arg(m_codebook->k)
                          .arg(m_codebook->dim)
                          .arg(QDir::toNativeSeparators(path)));
            updateActions();
            emit codebookChanged();
        },
        [this](const JobError& error) {
            fail(QString::fromStdString(error.message), tr("The codebook was not loaded."));
        });
}

void WordsPanel::saveCodebookTo(const QString& path) {
    if (!m_codebook) {
        fail(tr("%1: no codebook to save (build or load one first)").arg(path));
        return;
    }
    const std::string file = text(path);
    const auto codebook = m_codebook;
    submitAside(
        QStringLiteral("words/files"),
        [file, codebook](JobContext&, const ItemSink&) -> std::any {
            requireBowOpenCv("Save Codebook");
            writeFileAtomically(file, bowOpenCv().codebookText(*codebook, file));
            return file;
        },
        [this, path](const std::any&) {
            succeed(path, tr("Saved %1").arg(QDir::toNativeSeparators(path)));
            emit codebookSaved(path);
        },
        [this](const JobError& error) {
            fail(QString::fromStdString(error.message), tr("The codebook was not saved."));
        });
}

void WordsPanel::showFailure(const JobError& error) {
    // The core names the CLI's options; the tab's controls are K and Kernel.
    JobError shown = error;
    for (const auto& [option, control] : {std::pair{"--kernel: ", "Kernel: "}, {"--k: ", "K: "}})
        if (shown.message.rfind(option, 0) == 0)
            shown.message.replace(0, std::string(option).size(), control);
    JobPanel::showFailure(shown);
}

QString WordsPanel::cancelledStatus() const {
    return tr("cancelled: the codebook and histograms shown are the previous run's");
}

QString WordsPanel::fileBaseName(Output) const {
    const QString folder = m_result ? m_result->request.folder : m_folder->text().trimmed();
    const QString name = QFileInfo(folder).fileName();
    return name.isEmpty() ? job().fileName : name + QStringLiteral("-words");
}

} // namespace histlab::ui
