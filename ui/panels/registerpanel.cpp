#include "panels/registerpanel.h"

#include "bridge/logging.h"
#include "panels/jointpanel.h"
#include "plots/plotstyle.h"
#include "views/imagelist.h"

#include <io/imageio.h>
#include <pipelines/largebin/largebin.h>
#include <report/text.h>

#include <qcustomplot.h>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace histlab::ui {

// The worker's side ------------------------------------------------------------------------

namespace {

/// One channel of an image as an 8-bit gray picture to look at (toDisplay8 of that channel).
QImage channelPicture(const HostImage& image, const std::string& channel) {
    const SamplePlane plane = imagePlane(image, channel);
    HostImage gray;
    gray.width = image.width;
    gray.height = image.height;
    gray.channels = 1;
    gray.depth = int(sampleBytes(plane.type)) * 8;
    gray.data = plane.bytes;
    gray.source = image.source;
    const HostImage shown = toDisplay8(gray);
    QImage picture(shown.width, shown.height, QImage::Format_Grayscale8);
    for (int y = 0; y < shown.height; ++y)
        std::memcpy(picture.scanLine(y), shown.data.data() + std::size_t(y) * shown.width,
                    std::size_t(shown.width));
    return picture;
}

/// The worker's side of the page: loads the pair, then plans and runs it with histlab-cli
/// register's plan and run on the one device chosen; the curve's points stream as items.
JobWork registerJob(const RegisterJobRequest& request, std::shared_ptr<ImageCache> images) {
    return [request, images](JobContext& ctx, const ItemSink& post) -> std::any {
        ctx.progress(0.0, "loading");
        RegisterParams params;
        params.images = {images->getAside(request.fixed), images->getAside(request.moving)};
        if (!request.mask.isEmpty())
            params.mask = images->getAside(request.mask);
        ctx.throwIfCancelled();
        params.channels =
            (request.fixedChannel + QLatin1Char(',') + request.movingChannel).toStdString();
        params.options = request.options;
        Device& device = jobDevice(ctx, request.device, "registration");
        const RegisterPlan plan = planRegister(device.info(), params);
        RegisterShown shown;
        shown.request = request;
        shown.run = runRegisterJob(ctx, device, plan, post);
        const std::string fc = request.fixedChannel.toStdString();
        const std::string mc = request.movingChannel.toStdString();
        shown.fixed = channelPicture(plan.input.fixed, fc);
        shown.registered = channelPicture(shown.run.registered, mc);
        shown.movingBefore =
            channelPicture(resampleRegistered(plan.input.moving, request.options.initial,
                                              plan.input.fixed.width, plan.input.fixed.height),
                           mc);
        return shown;
    };
}

QLabel* valueLabel() {
    auto* label = new QLabel(QStringLiteral("—"));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

QString transformText(const RigidTransform& t, RegisterTransform kind) {
    QString s = RegisterPanel::tr("shift (%1, %2) px")
                    .arg(QString::number(t.tx, 'f', 3), QString::number(t.ty, 'f', 3));
    if (kind == RegisterTransform::Rigid)
        s += RegisterPanel::tr(", angle %1°").arg(QString::number(t.angleDeg, 'f', 4));
    return s;
}

} // namespace

// The page ---------------------------------------------------------------------------------

RegisterPanel::RegisterPanel(JobBridge* bridge, const JointPanel* pair, QWidget* parent)
    : ResultPanel(bridge,
                  {QStringLiteral("register"), tr("registration"), tr("Register"),
                   QStringLiteral("register")},
                  parent)
    , m_pairSource(pair)
    , m_transform(new QComboBox)
    , m_metric(new QComboBox)
    , m_bins(new QComboBox)
    , m_pyramid(new QComboBox)
    , m_maxShift(new QDoubleSpinBox)
    , m_maxAngle(new QDoubleSpinBox)
    , m_view(new QComboBox)
    , m_plot(new QCustomPlot)
    , m_picture(new QLabel)
    , m_pair(new QLabel)
    , m_transformText(valueLabel())
    , m_metricText(valueLabel())
    , m_evaluations(valueLabel()) {
    m_transform->addItem(tr("rigid"), QStringLiteral("rigid"));
    m_transform->addItem(tr("translation"), QStringLiteral("translation"));
    m_transform->setToolTip(tr("rigid: a rotation about FIXED's centre and a shift; "
                               "translation: a shift alone"));
    m_metric->addItem(tr("MI"), QStringLiteral("mi"));
    m_metric->addItem(tr("NMI (Studholme)"), QStringLiteral("nmi"));
    m_metric->setToolTip(tr("What the search maximises: mutual information in bits, or "
                            "(H(F) + H(M)) / H(F,M)"));
    for (int n : {16, 32, 64, 128, 256})
        m_bins->addItem(QString::number(n), n);
    m_bins->setCurrentIndex(m_bins->findData(64));
    m_bins->setToolTip(tr("Bins per axis, over each image's smallest to largest value "
                          "(registration tools use 32 to 100)"));
    m_pyramid->addItem(tr("auto"), 0);
    for (int n = 1; n <= 8; ++n)
        m_pyramid->addItem(QString::number(n), n);
    m_pyramid->setToolTip(tr("Levels, coarse to fine; auto halves while the short side stays "
                             "at least 64 px"));
    m_maxShift->setRange(-1, 1048576);
    m_maxShift->setDecimals(1);
    m_maxShift->setSpecialValueText(tr("auto"));
    m_maxShift->setValue(-1);
    m_maxShift->setSuffix(tr(" px"));
    m_maxShift->setToolTip(tr("The grid's half-width over shifts at the top level (auto: a "
                              "quarter of FIXED's short side; 0: no grid over shifts)"));
    m_maxAngle->setRange(0, 180);
    m_maxAngle->setDecimals(1);
    m_maxAngle->setValue(15);
    m_maxAngle->setSuffix(tr("°"));
    m_maxAngle->setToolTip(tr("Rigid: the grid's half-width over angles"));
    m_pair->setWordWrap(true);
    m_pair->setToolTip(tr("FIXED is image A of the Histogram page, MOVING image B, with their "
                          "channels and the mask chosen there"));
    form()->addRow(tr("Pair"), m_pair);
    form()->addRow(tr("&Transform"), m_transform);
    form()->addRow(tr("M&etric"), m_metric);
    form()->addRow(tr("B&ins per axis"), m_bins);
    form()->addRow(tr("&Pyramid levels"), m_pyramid);
    form()->addRow(tr("Grid &shift ±"), m_maxShift);
    form()->addRow(tr("Grid &angle ±"), m_maxAngle);
    addDeviceRow();
    runButton()->setToolTip(tr("Register MOVING to FIXED (Ctrl+Enter); a run in progress is "
                               "replaced"));

    filesGrid()->addWidget(
        addOutput(Output::Plot, tr("Export Plot"), tr("The MI curve as PNG, JPG, PDF or SVG")), 0,
        0, 1, 2);
    filesGrid()->addWidget(addOutput(
                               Output::Csv, tr("Save Transform"),
                               tr("One row: the transform, its 2 × 3 matrix, MI and NMI at "
                                  "the start and end, as histlab-cli register --csv "
                                  "writes it"),
                               [this](QString*) { return registrationCsv(m_result->run.result); },
                               tr("Save Transform…")),
                           1, 0);
    filesGrid()->addWidget(addOutput(
                               Output::Json, tr("Save Run"),
                               tr("The whole run (options, levels, the MI curve), as "
                                  "histlab-cli register --json writes it"),
                               [this](QString*) { return registrationJson(m_result->run.result); },
                               tr("Save Run…")),
                           1, 1);
    auto* saveImage = new QPushButton(tr("Save Registered Image…"));
    saveImage->setObjectName(QStringLiteral("saveRegistered"));
    saveImage->setToolTip(tr("MOVING resampled into FIXED's grid with the transform found (its "
                             "own type and channels; 0 outside MOVING), as histlab-cli register "
                             "--out writes it"));
    filesGrid()->addWidget(saveImage, 2, 0, 1, 2);
    connect(saveImage, &QPushButton::clicked, this, [this] {
        if (!m_result)
            return;
        const QString path = chooseSaveFile(tr("Save Registered Image"),
                                            startPath(fileBaseName(Output::Csv) + ".png"),
                                            tr("Images (*.png *.tif *.tiff *.pgm *.pfm)"));
        if (path.isEmpty())
            return;
        try {
            histlab::saveImage(m_result->run.registered, path.toStdString());
            setStatus(tr("Registered image written to %1").arg(path));
        } catch (const std::exception& e) {
            setStatus(QString::fromStdString(e.what()), true);
            emit problem(QString::fromStdString(e.what()));
        }
    });
    connect(this, &JobPanel::runEnded, saveImage,
            [this, saveImage] { saveImage->setEnabled(hasResult()); });
    saveImage->setEnabled(false);

    auto* numbers = new QGroupBox(tr("Result"));
    auto* numbersForm = new QFormLayout(numbers);
    numbersForm->addRow(tr("Transform"), m_transformText);
    numbersForm->addRow(tr("Metric"), m_metricText);
    numbersForm->addRow(tr("Evaluations"), m_evaluations);
    m_transformText->setToolTip(tr("T(p) = R(angle)(p − c) + c + shift, c = FIXED's centre: "
                                   "where MOVING's content lies relative to FIXED's "
                                   "(docs/register.md)"));
    columnEnd()->addWidget(numbers);

    m_plot->setMinimumSize(320, 200);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    addPlotTitle(m_plot, tr("The search: best metric against evaluations, per level"));
    // Logarithmic: the top level's grid takes thousands of evaluations, each finer level's
    // optimiser tens; both stay readable.
    m_plot->xAxis->setLabel(tr("evaluations (all levels, logarithmic)"));
    m_plot->xAxis->setScaleType(QCPAxis::stLogarithmic);
    m_plot->xAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    m_plot->yAxis->setLabel(tr("best metric at the level"));
    showSmallLegend(m_plot);
    setExportedPlot(m_plot);
    setPlotExport(QSize(800, 500));

    for (const QString& name :
         {tr("Checkerboard"), tr("Blend"), tr("Difference"), tr("MOVING before")})
        m_view->addItem(name);
    m_view->setToolTip(tr("FIXED and the registered MOVING in alternating tiles, their mean, "
                          "|FIXED − MOVING|, or MOVING as it was (resampled with the start "
                          "transform)"));
    m_picture->setAlignment(Qt::AlignCenter);
    m_picture->setMinimumSize(240, 180);
    m_picture->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);
    auto* pictureBox = new QWidget;
    auto* pictureLayout = new QVBoxLayout(pictureBox);
    pictureLayout->setContentsMargins(0, 0, 0, 0);
    auto* viewRow = new QHBoxLayout;
    auto* viewLabel = new QLabel(tr("&View"));
    viewLabel->setBuddy(m_view);
    viewRow->addWidget(viewLabel);
    viewRow->addWidget(m_view);
    viewRow->addStretch(1);
    pictureLayout->addLayout(viewRow);
    pictureLayout->addWidget(m_picture, 1);

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(pictureBox);
    right->addWidget(m_plot);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 2);
    right->setChildrenCollapsible(false);
    setResults(right, 320);

    connect(m_view, &QComboBox::currentIndexChanged, this, [this] { showView(); });
    remember(m_transform, QStringLiteral("transform"));
    remember(m_metric, QStringLiteral("metric"));
    remember(m_bins, QStringLiteral("bins"));
    remember(m_pyramid, QStringLiteral("pyramid"));
    remember(m_maxShift, QStringLiteral("maxShift"));
    remember(m_maxAngle, QStringLiteral("maxAngle"));
    updatePairText();
    setStatus(tr("Choose images A (FIXED) and B (MOVING) on the Histogram page, then Register "
                 "(Ctrl+Enter)."));
}

RegisterJobRequest RegisterPanel::request() const {
    const JointJobRequest pair = m_pairSource->request();
    RegisterJobRequest r;
    r.fixed = pair.sourceA;
    r.moving = pair.sourceB;
    r.fixedChannel = pair.channelA;
    r.movingChannel = pair.channelB;
    r.mask = pair.mask;
    r.options.transform =
        parseRegisterTransform(m_transform->currentData().toString().toStdString());
    r.options.metric = parseRegisterMetric(m_metric->currentData().toString().toStdString());
    r.options.binsFixed = r.options.binsMoving = m_bins->currentData().toInt();
    r.options.levels = m_pyramid->currentData().toInt();
    r.options.maxShift = m_maxShift->value();
    r.options.maxAngleDeg = m_maxAngle->value();
    r.device = deviceSelector();
    return r;
}

bool RegisterPanel::canRun() const {
    return !m_pairSource->request().sourceA.isEmpty();
}

void RegisterPanel::updatePairText() {
    const JointJobRequest pair = m_pairSource->request();
    if (pair.sourceA.isEmpty()) {
        m_pair->setText(tr("no images yet"));
        return;
    }
    const auto name = [](const QString& path, const QString& channel) {
        return QFileInfo(path).fileName() + QStringLiteral(" (") + channel + QLatin1Char(')');
    };
    QString text = tr("FIXED %1, MOVING %2")
                       .arg(name(pair.sourceA, pair.channelA), name(pair.sourceB, pair.channelB));
    if (!pair.mask.isEmpty())
        text += tr(", mask %1").arg(QFileInfo(pair.mask).fileName());
    m_pair->setText(text);
}

void RegisterPanel::startRun() {
    updatePairText();
    if (!canRun()) {
        refuse(tr("No images to register: open two (File › Open) and choose them as A and B on "
                  "the Histogram page."));
        return;
    }
    const RegisterJobRequest r = request();
    qCInfo(lcUi).noquote() << "register" << imageLogName(r.fixed) << r.fixedChannel << "to"
                           << imageLogName(r.moving) << r.movingChannel
                           << registerTransformName(r.options.transform)
                           << registerMetricName(r.options.metric) << r.options.binsFixed
                           << "bins on device" << r.device;
    m_plot->clearGraphs();
    m_levels.clear();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    start(registerJob(r, bridge()->imageCache()));
}

QCPGraph* RegisterPanel::levelGraph(int level) {
    auto it = m_levels.find(level);
    if (it != m_levels.end())
        return it->second;
    QCPGraph* g = m_plot->addGraph();
    g->setName(tr("level %1").arg(level));
    g->setPen(QPen(seriesColor(int(m_levels.size())), 1.6));
    g->setLineStyle(QCPGraph::lsStepLeft);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
    m_levels[level] = g;
    return g;
}

void RegisterPanel::fitCurve() {
    m_plot->rescaleAxes();
    // A margin, so that the first point (evaluation 1, at the corner) stays in sight.
    const QCPRange x = m_plot->xAxis->range(), y = m_plot->yAxis->range();
    m_plot->xAxis->setRange(0.7, std::max(10.0, x.upper * 1.4));
    const double pad = std::max(0.05, 0.06 * y.size());
    m_plot->yAxis->setRange(y.lower - pad, y.upper + pad);
}

void RegisterPanel::showItem(const std::any& item) {
    const RegisterStep& s = std::any_cast<const RegisterStep&>(item);
    levelGraph(s.level)->addData(double(s.evaluation), s.metric);
    fitCurve();
    m_plot->replot(QCustomPlot::rpQueuedReplot); // coalesced: one replot per event-loop turn
}

QImage RegisterPanel::compose(const QImage& fixed, const QImage& moving, View view, int tile) {
    if (view == View::Before)
        return moving;
    QImage out(fixed.size(), QImage::Format_Grayscale8);
    const int t = std::max(1, tile);
    for (int y = 0; y < fixed.height(); ++y) {
        const uchar* f = fixed.constScanLine(y);
        const uchar* m = moving.constScanLine(y);
        uchar* o = out.scanLine(y);
        for (int x = 0; x < fixed.width(); ++x) {
            switch (view) {
            case View::Checkerboard:
                o[x] = ((x / t + y / t) % 2 == 0) ? f[x] : m[x];
                break;
            case View::Blend:
                o[x] = uchar((f[x] + m[x] + 1) / 2);
                break;
            default:
                o[x] = uchar(std::abs(int(f[x]) - int(m[x])));
                break;
            }
        }
    }
    return out;
}

void RegisterPanel::showView() {
    if (!m_result) {
        m_picture->clear();
        return;
    }
    const View view = View(m_view->currentIndex());
    const RegisterShown& r = *m_result;
    const int tile = std::max(8, std::max(r.fixed.width(), r.fixed.height()) / 8);
    m_viewImage =
        compose(r.fixed, view == View::Before ? r.movingBefore : r.registered, view, tile);
    const QSize room = m_picture->size().expandedTo(QSize(16, 16));
    m_picture->setPixmap(QPixmap::fromImage(m_viewImage)
                             .scaled(room, Qt::KeepAspectRatio,
                                     m_viewImage.width() < room.width()
                                         ? Qt::FastTransformation
                                         : Qt::SmoothTransformation));
}

void RegisterPanel::resizeEvent(QResizeEvent* event) {
    ResultPanel::resizeEvent(event);
    showView();
}

void RegisterPanel::showEvent(QShowEvent* event) {
    ResultPanel::showEvent(event);
    updatePairText(); // the Histogram page's choice may have changed meanwhile
    updateActions();
}

QString RegisterPanel::present(const RegisterShown& result) {
    const RegistrationResult& r = result.run.result;
    showDevice(r.device);
    updatePairText();
    // The whole curve from the result (a run's items may have been coalesced or dropped).
    m_plot->clearGraphs();
    m_levels.clear();
    for (const RegisterStep& s : r.steps)
        levelGraph(s.level)->addData(double(s.evaluation), s.metric);
    fitCurve();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
    m_transformText->setText(transformText(r.transform, r.options.transform));
    m_metricText->setText(tr("MI %1 → %2 bits · NMI %3 → %4")
                              .arg(QString::number(r.start.mi, 'f', 4),
                                   QString::number(r.end.mi, 'f', 4),
                                   QString::number(r.start.nmiStudholme, 'f', 4),
                                   QString::number(r.end.nmiStudholme, 'f', 4)));
    m_evaluations->setText(
        tr("%1 in %2 s: %3 a second · %4 level(s)")
            .arg(QString::number(r.evaluations), QString::number(r.seconds, 'f', 3),
                 QString::number(r.evaluationsPerSecond, 'f', 0), QString::number(r.levels)));
    showView();
    const bool ok = r.status == Status::Verified;
    const QString summary =
        ok ? tr("Registered: %1 · MI %2 bits · every level verified against the CPU reference")
                 .arg(transformText(r.transform, r.options.transform),
                      QString::number(r.end.mi, 'f', 4))
           : tr("Registration: %1").arg(QString::fromStdString(r.detail));
    setStatus(summary, !ok);
    return summary;
}

QString RegisterPanel::cancelledStatus() const {
    return hasResult() ? tr("cancelled: the result shown is the previous run's")
                       : tr("cancelled: no result yet");
}

QString RegisterPanel::fileBaseName(Output) const {
    if (!m_result)
        return job().fileName;
    const RegisterJobRequest& r = m_result->request;
    return QStringLiteral("%1-%2-register")
        .arg(QFileInfo(r.fixed).completeBaseName(), QFileInfo(r.moving).completeBaseName());
}

} // namespace histlab::ui
