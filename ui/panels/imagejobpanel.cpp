#include "panels/imagejobpanel.h"

#include "bridge/logging.h"
#include "views/compareview.h"
#include "views/imagelist.h"

#include <io/imageio.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolBar>
#include <QVBoxLayout>

namespace histlab::ui {

namespace {

const QString kImageFilter = QObject::tr(
    "PNG (*.png);;TIFF (*.tif *.tiff);;BMP (*.bmp);;JPEG (*.jpg *.jpeg);;PGM/PPM (*.pgm *.ppm);;"
    "WebP (*.webp);;All files (*)");

} // namespace

ImageJobInput openImageJob(JobContext& context, ImageCache& images, const ImageJobRequest& request,
                           const std::string& purpose, ImageJobRun& run) {
    std::shared_ptr<const HostImage> image = images.load(context, request.source, request.page);
    Device& device = jobDevice(context, request.device, purpose);
    run.device = device.info();
    run.imageSize = QSize(image->width, image->height);
    run.channels = image->channels;
    run.depth = image->depth;
    return {std::move(image), device};
}

ImageJobPanel::ImageJobPanel(JobBridge* bridge, Job job, Words words, QWidget* parent)
    : JobPanel(bridge, std::move(job), parent)
    , m_words(std::move(words))
    , m_compare(new CompareView)
    , m_hover(new QLabel)
    , m_imageLabel(new QLabel)
    , m_viewer(new QWidget)
    , m_save(new QPushButton(tr("Save Result…"))) {
    m_imageLabel->setWordWrap(true);
    form()->addRow(tr("Image"), m_imageLabel);
    m_save->setEnabled(false);
    m_save->setToolTip(tr("The shown result at full size and depth (PNG, TIFF, BMP, JPEG, "
                          "PGM/PPM, WebP)"));
    connect(m_save, &QPushButton::clicked, this, &ImageJobPanel::chooseSaveResult);

    // The compare view under its tool bar: mode, zoom, and the pixel under the cursor.
    auto* tools = new QToolBar;
    tools->setIconSize(QSize(16, 16));
    tools->addActions(m_compare->modeActions());
    tools->addSeparator();
    tools->addActions(m_compare->zoomActions());
    tools->addSeparator();
    tools->addWidget(m_hover);
    auto* layout = new QVBoxLayout(m_viewer);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(tools);
    layout->addWidget(m_compare, 1);
    m_compare->showHoverIn(m_hover);
    m_compare->rememberModeIn(settingsKey(QStringLiteral("compare")));
}

void ImageJobPanel::setImage(const QString& source, int page, int pages, const QSize& imageSize,
                             const QImage& preview) {
    if (!source.isEmpty() && source == m_source && page == m_page && imageSize == m_imageSize)
        return;   // the same image (a region of it analysed, or run again): the result stays
    discardRun(); // a run of the image no longer shown: nobody hears of it
    m_source = source;
    m_page = page;
    m_imageSize = imageSize;
    clearResult();
    m_compare->setLabels(tr("Original"), m_words.resultName);
    if (source.isEmpty()) {
        m_imageLabel->setText(tr("none: open one (File › Open)"));
        m_compare->setPlaceholder(tr("Open an image (File › Open): %1.").arg(m_words.purpose));
        m_compare->setImages({}, {});
        setStatus(tr("No image yet: open one first."));
    } else {
        QString name = QFileInfo(source).fileName();
        if (source.startsWith(QLatin1String(":/")))
            name = tr("the sample image");
        m_imageLabel->setText(tr("%1, %2 × %3")
                                  .arg(withPage(name, page, pages))
                                  .arg(imageSize.width())
                                  .arg(imageSize.height()));
        m_imageLabel->setToolTip(source.startsWith(QLatin1String(":/"))
                                     ? tr("bundled with HistLab")
                                     : QDir::toNativeSeparators(source));
        m_compare->setPlaceholder(tr("Run (Ctrl+Enter) to see the %1 here.").arg(m_words.result));
        m_compare->setImages(preview, {}, imageSize);
        setStatus({});
    }
    updateActions();
}

bool ImageJobPanel::refuseWithoutImage() {
    if (!m_source.isEmpty())
        return false;
    refuse(tr("No image to %1: open one first (File › Open).").arg(m_words.verb));
    return true;
}

QString ImageJobPanel::cancelledStatus() const {
    // Before any run ended there are no previous results to speak of.
    return hasResult() ? tr("cancelled: the results shown are the previous run's")
                       : tr("cancelled: no results yet");
}

QString ImageJobPanel::imageBaseName() const {
    const QString base = QFileInfo(m_source).completeBaseName();
    return base.isEmpty() ? QStringLiteral("histlab") : base;
}

void ImageJobPanel::updateActions() {
    JobPanel::updateActions();
    m_save->setEnabled(resultImage() != nullptr);
}

void ImageJobPanel::chooseSaveResult() {
    if (!resultImage())
        return;
    const QString path = chooseSaveFile(
        m_words.saveTitle, startPath(resultFileName() + QStringLiteral(".png")), kImageFilter);
    if (!path.isEmpty())
        saveResultTo(path);
}

ExportResult ImageJobPanel::saveResultTo(const QString& path) {
    const QString what = tr("The %1 was not saved.").arg(m_words.result);
    const HostImage* image = resultImage();
    if (!image)
        return fail(tr("%1: nothing to save (no %2 is shown)").arg(path, m_words.result), what);
    try {
        saveImage(*image, QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        return fail(QString::fromStdString(e.what()), what);
    }
    qCInfo(lcUi).noquote() << m_words.result << "saved:" << path;
    return succeed(path, tr("Saved %1").arg(QDir::toNativeSeparators(path)));
}

} // namespace histlab::ui
