#include "views/imagelist.h"
#include "common/settings.h"

#include "bridge/jobbridge.h"

#include <image/image.h>
#include <io/imageio.h>
#include <report/files.h>
#include <runtime/errors.h>

#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QImageReader>
#include <QMenu>
#include <QMimeData>
#include <QMutex>
#include <QPainter>
#include <QPixmap>
#include <QSettings>
#include <QStyle>
#include <QThreadPool>
#include <QUrl>

#include <optional>

namespace histlab::ui {

namespace {

constexpr int kPathRole = Qt::UserRole;
constexpr int kThumbnailRole = Qt::UserRole + 1;  // bool: decoded (or failed to)
constexpr int kFailedRole = Qt::UserRole + 2;     // bool: the window could not open it
constexpr int kSizeRole = Qt::UserRole + 3;       // QSize: the image's pixels, once known
constexpr int kFailureRole = Qt::UserRole + 4;    // QString: why it could not be opened
constexpr int kFailedFileRole = Qt::UserRole + 5; // QString: its size and time when it failed

/// What tells whether a file changed: its size and modification time.
QString fileStamp(const QString& path) {
    const QFileInfo info(path);
    return info.exists() ? QString::number(info.size()) + QLatin1Char(' ') +
                               QString::number(info.lastModified().toMSecsSinceEpoch())
                         : QString();
}

/// Decodes a small copy of the image: Qt's readers first (a JPEG decodes straight at a reduced
/// scale), then the core's loader for what Qt cannot read. Runs on the pool's thread.
QImage decodeThumbnail(const QString& path, QString* detail, QSize* size, bool coreLoader) {
    // A FIFO, socket or device would block the reader (and the pool's thread with it): refused
    // by its type first, in the loader's words.
    if (!path.startsWith(QLatin1String(":/"))) {
        const std::string why =
            whyNotARegularFile(QFile::encodeName(path).toStdString(), "an image file");
        if (!why.empty()) {
            *detail = QString::fromStdString(why);
            return {};
        }
    }
    QImageReader reader(path);
    reader.setAutoTransform(true); // EXIF orientation, as the core's loader applies it
    const QSize full = reader.size();
    if (full.isValid()) {
        *detail = QObject::tr("%1 × %2 px").arg(full.width()).arg(full.height());
        *size = full;
        const QSize small =
            full.scaled(ImageList::thumbnailSide, ImageList::thumbnailSide, Qt::KeepAspectRatio);
        // A reader that decodes at a smaller size (JPEG) does; for the others Qt would shrink
        // the decoded image smoothly on its global pool, which the window's painting waits on.
        const bool readsSmaller = reader.supportsOption(QImageIOHandler::ScaledSize);
        if (readsSmaller)
            reader.setScaledSize(small);
        const QImage image = reader.read();
        if (!image.isNull())
            return readsSmaller ? image
                                : smoothScaled(image, image.size()
                                                          .scaled(ImageList::thumbnailSide,
                                                                  ImageList::thumbnailSide,
                                                                  Qt::KeepAspectRatio)
                                                          .expandedTo(QSize(1, 1)));
    }
    // Qt refused it (too large for its allocation limit, or a format only the core reads):
    // a full decode of a 100-megapixel file, unless the window's preview is coming anyway.
    if (path.startsWith(QLatin1String(":/")) || !coreLoader)
        return {};
    try {
        const HostImage image = loadImage(QFile::encodeName(path).toStdString());
        *detail = QObject::tr("%1 × %2 px").arg(image.width).arg(image.height);
        *size = QSize(image.width, image.height);
        return previewOf(image, ImageList::thumbnailSide);
    } catch (const InputError& e) {
        *detail = QString::fromStdString(e.what());
        return {};
    }
}

QString sourceTooltip(const QString& path, const QString& detail) {
    const QString where = path.startsWith(QLatin1String(":/")) ? QObject::tr("bundled with HistLab")
                                                               : QFileInfo(path).absoluteFilePath();
    return detail.isEmpty() ? where : where + QLatin1Char('\n') + detail;
}

} // namespace

QString imageDisplayName(const QString& source) {
    if (source.startsWith(QLatin1String(":/")))
        return QObject::tr("%1 (bundled)").arg(QFileInfo(source).fileName());
    return QFileInfo(source).fileName();
}

QString imageLogName(const QString& source) {
    return source.startsWith(QLatin1String(":/")) ? imageDisplayName(source) : source;
}

QString withPage(const QString& name, int page, int pages) {
    return pages > 1 ? QObject::tr("%1, page %2 of %3").arg(name).arg(page).arg(pages) : name;
}

ImageList::ImageList(QWidget* parent)
    : QListWidget(parent)
    , m_pool(std::make_unique<QThreadPool>()) {
    m_pool->setMaxThreadCount(1);
    m_pool->setThreadPriority(QThread::IdlePriority); // SCHED_IDLE on Linux
    setViewMode(QListView::ListMode);
    setIconSize(QSize(thumbnailSide, thumbnailSide));
    setUniformItemSizes(true);
    setSelectionMode(QAbstractItemView::ExtendedSelection);
    setContextMenuPolicy(Qt::ActionsContextMenu);
    setToolTip(tr("The images opened in this session: select one to show it; Delete removes "
                  "it from the list"));
    auto* remove = new QAction(tr("Remove from List"), this);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    connect(remove, &QAction::triggered, this, &ImageList::removeSelected);
    addAction(remove);
    auto* batch = new QAction(tr("Histograms of All on Every Device…"), this);
    batch->setToolTip(tr("The histograms of every image in the list, counted on every OpenCL "
                         "device at once and verified, saved as one CSV table"));
    connect(batch, &QAction::triggered, this, &ImageList::batchRequested);
    addAction(batch);
    connect(this, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (item && !m_settingCurrent)
            emit imageChosen(item->data(kPathRole).toString());
    });
}

ImageList::~ImageList() {
    m_pool->clear(); // thumbnails not started yet
    m_pool->waitForDone();
}

QListWidgetItem* ImageList::itemFor(const QString& path) const {
    for (int i = 0; i < count(); ++i)
        if (item(i)->data(kPathRole).toString() == path)
            return item(i);
    return nullptr;
}

bool ImageList::contains(const QString& path) const {
    return itemFor(path) != nullptr;
}

QStringList ImageList::paths() const {
    QStringList all;
    for (int i = 0; i < count(); ++i)
        all << item(i)->data(kPathRole).toString();
    return all;
}

int ImageList::addImages(const QStringList& paths) {
    return addImages(paths, false);
}

int ImageList::addImages(const QStringList& paths, bool previewComing) {
    int added = 0;
    for (const QString& path : paths) {
        if (path.isEmpty() || contains(path))
            continue;
        auto* entry = new QListWidgetItem(imageDisplayName(path));
        entry->setData(kPathRole, path);
        entry->setData(kThumbnailRole, false);
        entry->setToolTip(sourceTooltip(path, {}));
        QPixmap blank(thumbnailSide, thumbnailSide);
        blank.fill(palette().color(QPalette::Base));
        entry->setIcon(QIcon(blank));
        addItem(entry);
        requestThumbnail(path, previewComing);
        ++added;
    }
    return added;
}

void ImageList::requestThumbnail(const QString& path, bool previewComing) {
    m_pool->start([this, path, previewComing] {
        QString detail;
        QSize size;
        const QImage thumbnail = decodeThumbnail(path, &detail, &size, !previewComing);
        if (thumbnail.isNull() && previewComing)
            return; // offerPreview() makes it
        // Queued to the GUI thread; the destructor waits for this task, so `this` is alive.
        QMetaObject::invokeMethod(
            this,
            [this, path, thumbnail, detail, size] { setThumbnail(path, thumbnail, detail, size); },
            Qt::QueuedConnection);
    });
}

void ImageList::setThumbnail(const QString& path, const QImage& thumbnail, const QString& detail,
                             const QSize& size) {
    QListWidgetItem* entry = itemFor(path);
    if (!entry)
        return; // removed meanwhile
    entry->setData(kThumbnailRole, true);
    if (size.isValid())
        entry->setData(kSizeRole, size);
    if (!thumbnail.isNull()) {
        // Centred on a square, so names line up whatever the aspect ratio.
        QPixmap square(thumbnailSide, thumbnailSide);
        square.fill(Qt::transparent);
        QPainter painter(&square);
        const QImage scaled = thumbnail.scaled(thumbnailSide, thumbnailSide, Qt::KeepAspectRatio,
                                               Qt::SmoothTransformation);
        painter.drawImage((thumbnailSide - scaled.width()) / 2,
                          (thumbnailSide - scaled.height()) / 2, scaled);
        painter.end();
        entry->setIcon(QIcon(square));
    }
    if (!entry->data(kFailedRole).toBool()) // a failure's tooltip stays
        entry->setToolTip(sourceTooltip(path, detail));
    emit thumbnailReady(path);
    emit entryChanged(path);
}

void ImageList::offerPreview(const QString& path, const QImage& preview, const QSize& imageSize) {
    if (hasThumbnail(path) || preview.isNull() || !contains(path))
        return;
    // Scaled on the pool: a smooth reduction of a 2048-pixel preview would stall the window.
    const QString detail = tr("%1 × %2 px").arg(imageSize.width()).arg(imageSize.height());
    m_pool->start([this, path, preview, detail, imageSize] {
        const QImage small =
            smoothScaled(preview, preview.size()
                                      .scaled(thumbnailSide, thumbnailSide, Qt::KeepAspectRatio)
                                      .expandedTo(QSize(1, 1)));
        QMetaObject::invokeMethod(
            this,
            [this, path, small, detail, imageSize] {
                if (!hasThumbnail(path))
                    setThumbnail(path, small, detail, imageSize);
            },
            Qt::QueuedConnection);
    });
}

bool ImageList::hasThumbnail(const QString& path) const {
    const QListWidgetItem* entry = itemFor(path);
    return entry && entry->data(kThumbnailRole).toBool();
}

void ImageList::setCurrentImage(const QString& path) {
    if (!contains(path))
        addImages({path}, true);
    QListWidgetItem* entry = itemFor(path);
    m_settingCurrent = true;
    setCurrentItem(entry, QItemSelectionModel::ClearAndSelect);
    m_settingCurrent = false;
    scrollToItem(entry);
}

void ImageList::setFailed(const QString& path, const QString& message) {
    QListWidgetItem* entry = itemFor(path);
    if (!entry)
        return;
    entry->setData(kFailedRole, true);
    entry->setData(kFailureRole, message);
    entry->setData(kFailedFileRole, fileStamp(path));
    entry->setIcon(style()->standardIcon(QStyle::SP_MessageBoxWarning));
    entry->setToolTip(message);
    emit entryChanged(path);
}

QSize ImageList::imageSize(const QString& path) const {
    const QListWidgetItem* entry = itemFor(path);
    return entry ? entry->data(kSizeRole).toSize() : QSize();
}

bool ImageList::isUnreadable(const QString& path) const {
    const QListWidgetItem* entry = itemFor(path);
    if (!entry)
        return false;
    // Failed to open, or its thumbnail was decoded by every reader tried and none gave a size.
    return entry->data(kFailedRole).toBool() ||
           (entry->data(kThumbnailRole).toBool() && !entry->data(kSizeRole).toSize().isValid());
}

QString ImageList::knownFailure(const QString& path) const {
    const QListWidgetItem* entry = itemFor(path);
    if (!entry || !entry->data(kFailedRole).toBool())
        return {};
    const QString then = entry->data(kFailedFileRole).toString();
    return !then.isEmpty() && then == fileStamp(path) ? entry->data(kFailureRole).toString()
                                                      : QString();
}

void ImageList::removeSelected() {
    const QList<QListWidgetItem*> selected = selectedItems();
    m_settingCurrent = true; // removing must not open the neighbour
    for (QListWidgetItem* entry : selected)
        delete takeItem(row(entry));
    m_settingCurrent = false;
}

DropScreening screenDrop(const QMimeData& mime) {
    DropScreening result;
    if (!mime.hasUrls()) {
        result.refused << (mime.hasText()
                               ? QObject::tr("the dropped text: only image files can be dropped")
                               : QObject::tr("the dropped data: only image files can be dropped"));
        return result;
    }
    for (const QUrl& url : mime.urls()) {
        if (!url.isLocalFile()) {
            result.refused << QObject::tr("%1: not a local file (download it first)")
                                  .arg(url.toDisplayString());
            continue;
        }
        const QString path = url.toLocalFile();
        const std::string why = whyNotAnImage(QFile::encodeName(path).toStdString());
        if (why.empty())
            result.images << path;
        else
            result.refused << QStringLiteral("%1: %2").arg(path, QString::fromStdString(why));
    }
    return result;
}

namespace {
const QString kRecentKey = QStringLiteral("recentFiles");

/// The list as this process knows it, and the thread that saves it. Saving writes a file
/// through a temporary and a rename: while a large image is written or read it has taken the
/// GUI thread over 100 ms (measured at the end of a 100 MP analysis), so the window never waits
/// for it. One thread: the saves land in the order they were made.
struct RecentStore {
    QMutex mutex;
    std::optional<QStringList> list; // read on first use
    QThreadPool saver;
    RecentStore() { saver.setMaxThreadCount(1); }
    QStringList current() { // with the mutex held
        if (!list)
            list = histlabSettings().value(kRecentKey).toStringList();
        return *list;
    }
    QStringList save(const QStringList& recent) { // with the mutex held
        list = recent;
        saver.start([recent] {
            if (recent.isEmpty())
                histlabSettings().remove(kRecentKey);
            else
                histlabSettings().setValue(kRecentKey, recent);
        });
        return recent;
    }
};
Q_GLOBAL_STATIC(RecentStore, recentStore)
} // namespace

QString imageFileFilter() {
    QStringList patterns;
    for (const std::string& extension : imageFileExtensions())
        patterns << QStringLiteral("*.") + QString::fromStdString(extension);
    return QObject::tr("Images (%1);;All files (*)").arg(patterns.join(QLatin1Char(' ')));
}

void fillRecentMenu(QMenu* menu, const std::function<void(const QString&)>& open) {
    menu->clear();
    const QStringList recent = RecentFiles::load();
    int number = 0;
    for (const QString& path : recent) {
        ++number;
        const bool exists = QFileInfo::exists(path);
        QString label = QFileInfo(path).fileName();
        label.replace(QLatin1Char('&'), QStringLiteral("&&"));
        if (number < 10)
            label.prepend(QStringLiteral("&%1 ").arg(number));
        if (!exists)
            label += QObject::tr(" (missing)");
        QAction* action = menu->addAction(label, menu, [open, path] { open(path); });
        action->setToolTip(QDir::toNativeSeparators(path));
        action->setStatusTip(QDir::toNativeSeparators(path));
        action->setEnabled(exists);
    }
    if (recent.isEmpty())
        menu->addAction(QObject::tr("(none yet)"))->setEnabled(false);
    menu->addSeparator();
    QAction* clear = menu->addAction(QObject::tr("&Clear Menu"), menu, [menu, open] {
        RecentFiles::clear();
        fillRecentMenu(menu, open);
    });
    clear->setEnabled(!recent.isEmpty());
}

QStringList RecentFiles::load() {
    const QMutexLocker lock(&recentStore->mutex);
    return recentStore->current();
}

QStringList RecentFiles::add(const QString& path) {
    const QMutexLocker lock(&recentStore->mutex);
    QStringList recent = recentStore->current();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > maxRecent)
        recent.removeLast();
    return recentStore->save(recent);
}

QStringList RecentFiles::remove(const QString& path) {
    const QMutexLocker lock(&recentStore->mutex);
    QStringList recent = recentStore->current();
    recent.removeAll(path);
    return recentStore->save(recent);
}

void RecentFiles::clear() {
    const QMutexLocker lock(&recentStore->mutex);
    recentStore->save({});
}

void RecentFiles::flush() {
    recentStore->saver.waitForDone();
}

} // namespace histlab::ui
