#include "panels/jointpanel.h"
#include "common/settings.h"

#include "bridge/logging.h"
#include "panels/resulttable.h"
#include "plots/jointplot.h"
#include "views/imagelist.h"
#include "views/tablecopy.h"

#include <pipelines/options.h>

#include <QAbstractItemView>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace histlab::ui {

// The worker's side ------------------------------------------------------------------------

namespace {

std::vector<LargeBinMethod> requestedMethods(const JointJobRequest& r) {
    return parseNameList<LargeBinMethod>(r.method.toStdString(), jointMethods, parseLargeBinMethod);
}

/// The worker's side of the tab: loads the images (the one the Image tab holds is not read
/// again), then plans and runs them with histlab-cli joint's plan (which refuses what does not
/// fit together) and run, on the one device chosen.
JobWork jointJob(const JointJobRequest& request, std::shared_ptr<ImageCache> images) {
    return [request, images](JobContext& ctx, const ItemSink& post) -> std::any {
        ctx.progress(0.0, "loading");
        JointParams params;
        params.images = {images->getAside(request.sourceA)};
        if (request.sourceB != request.sourceA) // else two channels of one image
            params.images.push_back(images->getAside(request.sourceB));
        if (!request.mask.isEmpty())
            params.mask = images->getAside(request.mask);
        ctx.throwIfCancelled();
        params.channels = (request.channelA + QLatin1Char(',') + request.channelB).toStdString();
        params.bins = {request.binsA, request.binsB};
        params.methods = requestedMethods(request);
        params.repeats = request.repeats;
        setColocChoice(params, request.coloc.toStdString());
        Device& device = jobDevice(ctx, request.device, "joint histogram");
        const JointPlan plan = planJointOn({device.info()}, params);
        JointShown shown;
        shown.request = request;
        shown.run = *runJointJob(ctx, {device.info().index}, plan, post).run;
        return shown;
    };
}

} // namespace

// The tab ----------------------------------------------------------------------------------

namespace {

QString methodName(LargeBinMethod m) {
    return QString::fromLatin1(largeBinMethodName(m));
}

/// A number label that can be selected and copied.
QLabel* numberLabel() {
    auto* label = new QLabel(QStringLiteral("—"));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

/// A threshold: a whole sample value, "—" where there is none.
QString thresholdText(double t) {
    return std::isnan(t) ? QStringLiteral("—") : QString::number(qlonglong(t));
}

QString bitsText(double bits) {
    return JointPanel::numberText(bits) + QObject::tr(" bits");
}

/// "sample.png r": an axis's label and the name of what it counts.
QString axisName(const QString& source, const QString& channel) {
    return QStringLiteral("%1 %2").arg(imageDisplayName(source), channel);
}

/// Chooses the item whose text is `text`, if there is one.
void selectText(QComboBox* combo, const QString& text) {
    if (const int index = combo->findText(text); index >= 0)
        combo->setCurrentIndex(index);
}

/// Chooses the item whose data is `path`, if there is one; true when it did.
bool selectPath(QComboBox* combo, const QString& path) {
    const int index = combo->findData(path);
    if (index >= 0)
        combo->setCurrentIndex(index);
    return index >= 0;
}

} // namespace

QString JointPanel::numberText(double value) {
    return std::isnan(value) ? QStringLiteral("—") : QString::number(value, 'f', 6);
}

JointPanel::JointPanel(JobBridge* bridge, QWidget* parent)
    : ResultPanel(bridge,
                  {QStringLiteral("joint"), tr("joint histogram"), tr("Run Joint Histogram"),
                   QStringLiteral("joint")},
                  parent)
    , m_plot(new JointPlot)
    , m_imageA(new QComboBox)
    , m_imageB(new QComboBox)
    , m_channelA(new QComboBox)
    , m_channelB(new QComboBox)
    , m_mask(new QComboBox)
    , m_binsA(new QComboBox)
    , m_binsB(new QComboBox)
    , m_method(new QComboBox)
    , m_coloc(new QComboBox)
    , m_entropyA(numberLabel())
    , m_entropyB(numberLabel())
    , m_jointEntropy(numberLabel())
    , m_mi(numberLabel())
    , m_nmiStudholme(numberLabel())
    , m_nmiArithmetic(numberLabel())
    , m_nmiGeometric(numberLabel())
    , m_pairs(numberLabel())
    , m_evaluations(new QLabel)
    , m_pearson(numberLabel())
    , m_manders(numberLabel())
    , m_thresholdedManders(numberLabel())
    , m_thresholds(numberLabel())
    , m_icq(numberLabel())
    , m_aboveBoth(numberLabel())
    , m_colocStatus(numberLabel())
    , m_table(new QTableWidget) {
    // The channels and methods are the core's: what imagePlane and the joint run take.
    const QString channelTip =
        tr("gray: the image itself when it has one channel, else its luma; r, g, b, a: one "
           "channel (the image must have it)");
    for (QComboBox* channel : {m_channelA, m_channelB}) {
        for (const std::string& name : imageChannelNames())
            channel->addItem(QString::fromStdString(name));
        channel->setToolTip(channelTip);
    }
    for (QComboBox* image : {m_imageA, m_imageB, m_mask}) {
        // Room for a name and its size ("left01.png (640 × 480)"); the list shows them whole.
        image->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        image->setMinimumContentsLength(22);
        image->view()->setTextElideMode(Qt::ElideMiddle);
    }
    m_imageA->setToolTip(tr("Image A (the x axis): an image of the Images list"));
    m_imageB->setToolTip(tr("Image B (the y axis): an image of the same size, or the same image "
                            "with another channel"));
    m_mask->setToolTip(tr("An image of the same size and one channel: only the pairs where it is "
                          "non-zero are counted"));
    for (QComboBox* bins : {m_binsA, m_binsB}) {
        for (int n = 16; n <= kMaxJointBinsPerAxis; n *= 2)
            bins->addItem(QString::number(n), n);
        bins->setCurrentIndex(bins->findData(256));
        bins->setToolTip(tr("Bins of this axis over its whole range (NumPy's rule: the type's "
                            "range for integers, the smallest to the largest value for floats)"));
    }
    m_method->addItem(QStringLiteral("auto"));
    for (LargeBinMethod m : jointMethods())
        m_method->addItem(methodName(m));
    m_method->addItem(QStringLiteral("all"));
    m_method->setToolTip(tr("auto: what the core picks for the device, the number of cells and "
                            "the data (on a GPU its candidates are timed on the pairs); all: "
                            "every method in turn, to compare them"));
    for (const std::string& name : colocChoices())
        m_coloc->addItem(QString::fromStdString(name));
    m_coloc->setToolTip(
        tr("Costes' threshold search: stepwise (Costes et al. 2004: one level at a time from the "
           "maximum, all in one pass over the pairs), bisection (Coloc 2's default), or off (no "
           "colocalisation: the count and MI alone)"));
    runButton()->setToolTip(
        tr("Count the joint histogram (Ctrl+Enter); a run in progress is replaced"));

    auto* rowA = new QHBoxLayout;
    rowA->addWidget(m_imageA, 1);
    rowA->addWidget(m_channelA);
    auto* rowB = new QHBoxLayout;
    rowB->addWidget(m_imageB, 1);
    rowB->addWidget(m_channelB);
    auto* binsRow = new QHBoxLayout;
    binsRow->addWidget(m_binsA, 1);
    binsRow->addWidget(new QLabel(QStringLiteral("×")));
    binsRow->addWidget(m_binsB, 1);
    // Rows of two controls: their labels' mnemonics go to the first.
    const auto labelFor = [](const QString& text, QWidget* buddy) {
        auto* label = new QLabel(text);
        label->setBuddy(buddy);
        return label;
    };
    form()->addRow(labelFor(tr("Image &A"), m_imageA), rowA);
    form()->addRow(labelFor(tr("Image &B"), m_imageB), rowB);
    form()->addRow(tr("Mas&k"), m_mask);
    form()->addRow(labelFor(tr("B&ins (A × B)"), m_binsA), binsRow);
    form()->addRow(tr("&Method"), m_method);
    form()->addRow(tr("&Costes' search"), m_coloc);
    addRepeatsRow(tr("Timed runs of each method after one warm-up; the median is shown"));
    addDeviceRow();
    filesGrid()->addWidget(addOutput(Output::Plot, tr("Export Plot"),
                                     tr("The heat map with its marginals as PNG, JPG, PDF or "
                                        "SVG")),
                           0, 0, 1, 2);
    filesGrid()->addWidget(addOutput(Output::Csv, tr("Save Joint Table"),
                                     tr("The 2-D table: a header a_bin,b0,b1,… and one row per "
                                        "bin of A, as histlab-cli joint --csv writes it"),
                                     [this](QString*) { return jointCsv(m_result->run); }),
                           1, 0);
    filesGrid()->addWidget(addOutput(Output::Json, tr("Save Joint Run"),
                                     tr("The whole run (inputs, marginals, entropies, MI, NMI, "
                                        "colocalisation, every method's timing), as "
                                        "histlab-cli joint --json "
                                        "writes it"),
                                     [this](QString*) { return jointJson(m_result->run); }),
                           1, 1);

    // The numbers, under the file buttons.
    auto* numbers = new QGroupBox(tr("Entropies and mutual information"));
    auto* numbersForm = new QFormLayout(numbers);
    numbersForm->addRow(tr("H(A)"), m_entropyA);
    numbersForm->addRow(tr("H(B)"), m_entropyB);
    numbersForm->addRow(tr("H(A,B)"), m_jointEntropy);
    numbersForm->addRow(tr("MI"), m_mi);
    numbersForm->addRow(tr("NMI (H(A)+H(B))/H(A,B)"), m_nmiStudholme);
    numbersForm->addRow(tr("NMI 2·MI/(H(A)+H(B))"), m_nmiArithmetic);
    numbersForm->addRow(tr("NMI MI/√(H(A)·H(B))"), m_nmiGeometric);
    numbersForm->addRow(tr("Pairs"), m_pairs);
    m_pairs->setWordWrap(true);
    m_mi->setToolTip(tr("MI = H(A) + H(B) − H(A,B), from the counted pairs, in double precision"));
    m_nmiStudholme->setToolTip(tr("Studholme's; scikit-image's normalized_mutual_information. "
                                  "— where undefined (a zero denominator)"));
    numbers->setToolTip(tr("From the CPU reference's counts (every device result is compared "
                           "with them cell by cell); — where a denominator is 0"));
    columnEnd()->addWidget(numbers);

    // Colocalisation, under the entropies: Coloc 2's coefficients over the counted pairs.
    auto* coloc = new QGroupBox(tr("Colocalisation (Coloc 2)"));
    auto* colocForm = new QFormLayout(coloc);
    colocForm->addRow(tr("Pearson's r"), m_pearson);
    colocForm->addRow(tr("Manders' M1, M2"), m_manders);
    colocForm->addRow(tr("tM1, tM2"), m_thresholdedManders);
    colocForm->addRow(tr("Costes' thresholds"), m_thresholds);
    colocForm->addRow(tr("Li's ICQ"), m_icq);
    colocForm->addRow(tr("Above both"), m_aboveBoth);
    colocForm->addRow(tr("Device sums"), m_colocStatus);
    for (QLabel* label : {m_pearson, m_thresholds, m_colocStatus})
        label->setWordWrap(true);
    m_pearson->setToolTip(tr("Over all counted pairs; then below Costes' thresholds (A < TA or "
                             "B < TB) and above them (A > TA or B > TB), as Coloc 2 takes them"));
    m_manders->setToolTip(tr("M1: the share of A's intensity where B > 0; M2: of B's where A > 0 "
                             "(Manders, Verbeek & Aten 1993)"));
    m_thresholdedManders->setToolTip(
        tr("As M1, M2 where B ≥ TB (for tM1) and A ≥ TA (for tM2), over all of A's and B's "
           "intensity"));
    m_thresholds->setToolTip(
        tr("Costes et al. 2004: on the orthogonal regression line (red on the map), lowered "
           "until r of the pairs below reaches 0, by the search chosen above; dashed on the "
           "map"));
    m_icq->setToolTip(tr("Li et al. 2004: the share of pairs with (A − mean A)(B − mean B) ≥ 0, "
                         "minus 0.5"));
    m_aboveBoth->setToolTip(tr("Pairs with A > TA and B > TB"));
    coloc->setToolTip(tr("8- and 16-bit images: exact 64-bit sums on the device, compared with "
                         "the CPU reference's; — where undefined (a constant channel, no pair)"));
    columnEnd()->addWidget(coloc);

    setUpResultTable(m_table,
                     {tr("method"), tr("median ms"), tr("min ms"), tr("GB/s"), tr("G pairs/s"),
                      tr("% read-only"), tr("geometry"), tr("status"), tr("detail")});
    m_table->setMinimumHeight(90); // room for the page tabs above, on a 600 px screen
    m_evaluations->setWordWrap(true);
    m_evaluations->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_evaluations->setToolTip(tr("Whole MI evaluations on the device, as a registration loop "
                                 "makes them: clear, count, the entropies kernels, three doubles "
                                 "read back; wall clock, each one waited for"));
    auto* below = new QWidget;
    auto* belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(0, 0, 0, 0);
    belowLayout->addWidget(m_table, 1);
    belowLayout->addWidget(m_evaluations);

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(m_plot);
    right->addWidget(below);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    right->setChildrenCollapsible(false);
    setExportedPlot(m_plot);
    setPlotExport(QSize(800, 700));
    setResults(right, 340);

    connect(m_imageA, &QComboBox::activated, this, [this] { m_chosenA = true; });
    connect(m_imageB, &QComboBox::activated, this, [this] { m_chosenB = true; });
    for (QComboBox* channel : {m_channelA, m_channelB})
        connect(channel, &QComboBox::activated, this, [this] { m_chosenChannels = true; });
    remember(m_channelA, QStringLiteral("channelA"));
    remember(m_channelB, QStringLiteral("channelB"));
    remember(m_binsA, QStringLiteral("binsA"));
    remember(m_binsB, QStringLiteral("binsB"));
    remember(m_method, QStringLiteral("method"));
    remember(m_coloc, QStringLiteral("coloc"));
    setImages({});
}

void JointPanel::setImages(const QStringList& paths) {
    m_paths = paths;
    fillImageCombos();
    if (!hasResult() && !isRunning())
        setStatus(m_imageA->count() == 0
                      ? tr("Open two images of the same size (File › Open), or one image to "
                           "compare two of its channels.")
                      : tr("Run (Ctrl+Enter) to count the joint histogram of A and B."));
    updateActions();
}

void JointPanel::setImageList(const ImageList* list) {
    m_list = list;
    connect(list, &ImageList::entryChanged, this, [this] {
        fillImageCombos();
        updateActions();
    });
}

void JointPanel::setCurrentImage(const QString& source, const QSize& size, bool colour) {
    m_currentImage = source;
    m_currentSize = size;
    if (!m_chosenChannels) {
        // Two channels of one colour image are a pair that always fits; a gray image has one.
        selectText(m_channelA, colour ? QStringLiteral("r") : QStringLiteral("gray"));
        selectText(m_channelB, colour ? QStringLiteral("g") : QStringLiteral("gray"));
    }
    fillImageCombos();
    updateActions();
}

QString JointPanel::entryText(const QString& path) const {
    QSize size = m_list ? m_list->imageSize(path) : QSize();
    if (!size.isValid() && path == m_currentImage)
        size = m_currentSize;
    const QString name = imageDisplayName(path);
    return size.isValid() ? tr("%1 (%2 × %3)").arg(name).arg(size.width()).arg(size.height())
                          : name;
}

void JointPanel::fillImageCombos() {
    const QString a = m_imageA->currentData().toString(), b = m_imageB->currentData().toString();
    const QString mask = m_mask->currentData().toString();
    QStringList readable;
    for (const QString& path : m_paths)
        if (!(m_list && m_list->isUnreadable(path)))
            readable << path;
    for (QComboBox* combo : {m_imageA, m_imageB, m_mask}) {
        const QSignalBlocker blocker(combo);
        combo->clear();
        if (combo == m_mask)
            combo->addItem(tr("none"), QString());
        for (const QString& path : readable) {
            combo->addItem(entryText(path), path);
            // The file's place for a file; a bundled image has none worth showing.
            combo->setItemData(combo->count() - 1,
                               path.startsWith(QLatin1String(":/"))
                                   ? tr("bundled with HistLab")
                                   : QDir::toNativeSeparators(path),
                               Qt::ToolTipRole);
        }
    }
    if (readable.isEmpty())
        return;
    // A choice the person made stays while its image is listed; else the image the Image tab
    // shows, else what was selected, else the first.
    const QString fallback = readable.contains(m_currentImage) ? m_currentImage : readable.first();
    const auto pick = [&](QComboBox* combo, bool chosen, const QString& before) {
        if (chosen && selectPath(combo, before))
            return;
        if (!m_currentImage.isEmpty() && selectPath(combo, fallback))
            return;
        if (!selectPath(combo, before))
            selectPath(combo, fallback);
    };
    pick(m_imageA, m_chosenA, a);
    pick(m_imageB, m_chosenB, b);
    selectPath(m_mask, mask);
}

bool JointPanel::canRun() const {
    return m_imageA->count() > 0;
}

JointJobRequest JointPanel::request() const {
    JointJobRequest r;
    r.sourceA = m_imageA->currentData().toString();
    r.sourceB = m_imageB->currentData().toString();
    r.channelA = m_channelA->currentText();
    r.channelB = m_channelB->currentText();
    r.mask = m_mask->currentData().toString();
    r.binsA = m_binsA->currentData().toInt();
    r.binsB = m_binsB->currentData().toInt();
    r.method = m_method->currentText();
    r.coloc = m_coloc->currentText();
    r.device = deviceSelector();
    r.repeats = repeatsSpin()->value();
    return r;
}

void JointPanel::startRun() {
    const JointJobRequest r = request();
    if (r.sourceA.isEmpty() || r.sourceB.isEmpty()) {
        refuse(tr("No image to count: open one or two first (File › Open)."));
        return;
    }
    qCInfo(lcUi).noquote() << "joint histogram" << imageLogName(r.sourceA) << r.channelA << "x"
                           << imageLogName(r.sourceB) << r.channelB
                           << (r.mask.isEmpty() ? QString() : "mask " + imageLogName(r.mask))
                           << r.binsA << "x" << r.binsB << r.method << "on device" << r.device;
    // The result shown stays until the new one arrives: a request the core refuses loses
    // nothing.
    start(jointJob(r, bridge()->imageCache()));
}

QString JointPanel::present(const JointShown& result) {
    const JointRun& run = result.run;
    const JointJobRequest& r = result.request;
    showDevice(run.device);
    m_plot->setJoint(run.histogram, run.spec, tr("A: %1").arg(axisName(r.sourceA, r.channelA)),
                     tr("B: %1").arg(axisName(r.sourceB, r.channelB)));
    showNumbers(run);
    // The numbers under the plot's title too: an exported plot shows them as the tab does.
    QString note = tr("MI %1 · NMI %2 ((H(A)+H(B))/H(A,B))")
                       .arg(bitsText(run.mi.mi), numberText(run.mi.nmiStudholme));
    if (run.coloc.computed)
        note += tr("\nPearson's r %1 · Costes' thresholds A %2, B %3")
                    .arg(numberText(run.coloc.pearson), thresholdText(run.coloc.thresholdA),
                         thresholdText(run.coloc.thresholdB));
    m_plot->setTitleNote(note);
    showColocalisation(run);
    showMethods(run);
    int verified = 0, bad = 0;
    for (const JointPoint& p : run.points) {
        verified += p.status == Status::Verified ? 1 : 0;
        bad += p.status == Status::Mismatch || p.status == Status::Failed ? 1 : 0;
    }
    QString summary = tr("%1 × %2 bins of %3 and %4: MI %5 bits · %6 of %7 method(s) verified")
                          .arg(QString::number(run.spec.a.bins), QString::number(run.spec.b.bins),
                               axisName(r.sourceA, r.channelA), axisName(r.sourceB, r.channelB),
                               numberText(run.mi.mi), QString::number(verified),
                               QString::number(run.points.size()));
    if (run.colocStatus == Status::Mismatch || run.colocStatus == Status::Failed)
        ++bad;
    if (bad)
        summary += tr(", %1 failed or differ from the CPU reference").arg(bad);
    setStatus(summary, bad > 0);
    return summary;
}

void JointPanel::showNumbers(const JointRun& run) {
    const MutualInformation& mi = run.mi;
    m_entropyA->setText(bitsText(mi.entropyA));
    m_entropyB->setText(bitsText(mi.entropyB));
    m_jointEntropy->setText(bitsText(mi.jointEntropy));
    m_mi->setText(bitsText(mi.mi));
    m_nmiStudholme->setText(numberText(mi.nmiStudholme));
    m_nmiArithmetic->setText(numberText(mi.nmiArithmetic));
    m_nmiGeometric->setText(numberText(mi.nmiGeometric));
    // Grouped as every count of the window is, whatever the system's locale.
    m_pairs->setText(
        tr("%1 counted, %2 left out")
            .arg(groupedCount(run.histogram.counted()), groupedCount(run.histogram.leftOut)));
    m_pairs->setToolTip(
        tr("Of %1 pairs; left out: out of range, NaN or masked").arg(groupedCount(run.pairs)));
    const MiEvaluation& e = run.miEvaluation;
    QString evaluations =
        tr("MI evaluations on the device (%1, then the entropies): ").arg(methodName(e.method));
    if (statusRan(e.status))
        evaluations += tr("%1 per second (median %2 ms, min %3 ms), ")
                           .arg(QLocale().toString(e.perSecond, 'f', 0), msText(e.stats.medianMs),
                                msText(e.stats.minMs));
    evaluations += QString::fromStdString(statusText(e.status, e.detail));
    m_evaluations->setText(evaluations);
    m_evaluations->setStyleSheet(statusOk(e.status) || e.status == Status::Unsupported
                                     ? QString()
                                     : QStringLiteral("color: %1;").arg(errorColor()));
}

void JointPanel::showColocalisation(const JointRun& run) {
    const Colocalisation& c = run.coloc;
    m_plot->setColocalisation(c);
    const QString none = QStringLiteral("—");
    const auto pair = [](double x, double y) {
        return QStringLiteral("%1, %2").arg(numberText(x), numberText(y));
    };
    m_pearson->setText(c.computed ? tr("%1 (below %2, above %3)")
                                        .arg(numberText(c.pearson), numberText(c.pearsonBelow),
                                             numberText(c.pearsonAbove))
                                  : none);
    m_manders->setText(c.computed ? pair(c.m1, c.m2) : none);
    m_thresholdedManders->setText(c.computed ? pair(c.tm1, c.tm2) : none);
    m_thresholds->setText(!c.computed ? none
                          : std::isnan(c.thresholdA)
                              ? tr("none (no regression line)")
                              : tr("A %1, B %2 · b = %3·a + %4 · %5 search, %6")
                                    .arg(thresholdText(c.thresholdA), thresholdText(c.thresholdB),
                                         numberText(c.slope), numberText(c.intercept),
                                         QString::fromLatin1(costesSearchName(c.search)),
                                         c.candidates == 1
                                             ? tr("1 candidate")
                                             : tr("%1 candidates").arg(c.candidates)));
    m_icq->setText(c.computed ? numberText(c.icq) : none);
    m_aboveBoth->setText(
        c.computed && !std::isnan(c.overlap) ? groupedCount(std::uint64_t(c.overlap)) : none);
    m_colocStatus->setText(QString::fromStdString(statusText(run.colocStatus, run.colocDetail)));
    m_colocStatus->setStyleSheet(statusOk(run.colocStatus) || run.colocStatus == Status::Unsupported
                                     ? QString()
                                     : QStringLiteral("color: %1;").arg(errorColor()));
}

void JointPanel::showMethods(const JointRun& run) {
    m_table->setRowCount(0);
    for (const JointPoint& p : run.points) {
        const bool ran = statusRan(p.status);
        const QStringList cells = {
            methodName(p.method),
            ran ? msText(p.stats.medianMs) : QString(),
            ran ? msText(p.stats.minMs) : QString(),
            ran ? gbpsText(p.gbps) : QString(),
            ran ? QString::number(p.gpairs, 'f', 3) : QString(),
            ran && run.ceiling.gbps > 0 ? QString::number(p.percentOfCeiling, 'f', 1) : QString(),
            QString::fromStdString(p.geometry),
            QString::fromLatin1(statusName(p.status)),
            QString::fromStdString(p.detail)};
        const int row =
            appendResultRow(m_table, cells,
                            [&p](int c) {
                                return QString::fromStdString(c == DetailColumn || c == StatusColumn
                                                                  ? p.detail
                                                                  : p.buildOptions);
                            },
                            {MedianColumn, MinColumn, GbpsColumn, GpairsColumn, PercentColumn});
        markRowStatus(m_table, row, p.status, StatusColumn, {StatusColumn, DetailColumn});
    }
    m_table->resizeColumnsToContents();
}

QString JointPanel::cancelledStatus() const {
    return hasResult() ? tr("cancelled: the result shown is the previous run's")
                       : tr("cancelled: no result yet");
}

QString JointPanel::fileBaseName(Output) const {
    if (!m_result)
        return job().fileName;
    const JointJobRequest& r = m_result->request;
    return QStringLiteral("%1-%2-joint")
        .arg(QFileInfo(r.sourceA).completeBaseName(), QFileInfo(r.sourceB).completeBaseName());
}

} // namespace histlab::ui
