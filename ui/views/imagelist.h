#pragma once
// The images a person opened in this session, as a list with thumbnails (the Images dock).
// Selecting one asks the window to show it; the window tells the list which image is shown and
// which ones failed. Thumbnails are decoded off the GUI thread, one at a time, at idle priority
// so they never slow down an analysis; a file that cannot be decoded keeps a placeholder.
//
// Also here: screening what is dropped on the window (local image files are taken; everything
// else is refused with the reason) and the recent-files list kept in QSettings.
#include <QImage>
#include <QListWidget>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QMenu;
class QMimeData;
class QThreadPool;

namespace histlab::ui {

/// How an image is named in lists and messages: its file name; "sample.png (bundled)" for one
/// of the application's resources.
QString imageDisplayName(const QString& source);
/// `source` as the log names it: a file's path, the bundled sample's display name (the
/// internal ":/..." path is shown nowhere).
QString imageLogName(const QString& source);
/// `name`, and for a page of a multi-page TIFF which one: "scan.tif, page 2 of 5" (as the
/// CLI's input line says it).
QString withPage(const QString& name, int page, int pages);

class ImageList : public QListWidget {
    Q_OBJECT
public:
    /// The longer side of a thumbnail, in pixels.
    static constexpr int thumbnailSide = 96;

    explicit ImageList(QWidget* parent = nullptr);
    ~ImageList() override; ///< waits for the thumbnail being decoded, if any

    /// Adds the paths not in the list yet, in order, and starts their thumbnails. Returns how
    /// many were new.
    int addImages(const QStringList& paths);
    QStringList paths() const;
    bool contains(const QString& path) const;

    /// Marks `path` as the image shown (selected and scrolled to) without emitting
    /// imageChosen(); adds it first if needed. An image added here is being opened by the
    /// window: if Qt cannot make its thumbnail, offerPreview() will (no second full decode).
    void setCurrentImage(const QString& path);
    /// The window's preview of `path` (whose pixels are `imageSize`), as its thumbnail while it
    /// has none.
    void offerPreview(const QString& path, const QImage& preview, const QSize& imageSize);
    /// Marks `path` as failed: a warning icon, and `message` as its tooltip.
    void setFailed(const QString& path, const QString& message);
    /// True once `path`'s thumbnail is decoded (or failed to decode).
    bool hasThumbnail(const QString& path) const;
    /// `path`'s size in pixels once its thumbnail or preview told it; invalid before.
    QSize imageSize(const QString& path) const;
    /// True when `path` could not be read: the window failed to open it, or no reader gave its
    /// thumbnail a size.
    bool isUnreadable(const QString& path) const;
    /// Why the window failed to open `path` (setFailed's message) while the file is as it was
    /// then (same size and modification time); empty when it did not fail or has changed.
    QString knownFailure(const QString& path) const;

    /// Removes the selected entries (Delete key, or the context menu).
    void removeSelected();

signals:
    /// "Histograms of All on Every Device…" was chosen in the list's context menu.
    void batchRequested();
    /// The person selected `path` (click or keyboard).
    void imageChosen(const QString& path);
    /// A thumbnail arrived (for tests and the curious).
    void thumbnailReady(const QString& path);
    /// What imageSize() or isUnreadable() say of `path` may have changed.
    void entryChanged(const QString& path);

private:
    QListWidgetItem* itemFor(const QString& path) const;
    int addImages(const QStringList& paths, bool previewComing);
    /// Decodes the thumbnail on the pool; with `previewComing`, only if Qt can read the file
    /// (its preview is on the way otherwise).
    void requestThumbnail(const QString& path, bool previewComing);
    void setThumbnail(const QString& path, const QImage& thumbnail, const QString& detail,
                      const QSize& size);

    std::unique_ptr<QThreadPool> m_pool;
    bool m_settingCurrent = false;
};

/// What a drop held: the image files to open, and one "name: reason" line per thing refused
/// (not a local file, a folder, missing, empty, not an image HistLab can read, plain text...).
struct DropScreening {
    QStringList images;
    QStringList refused;
};
DropScreening screenDrop(const QMimeData& mime);

/// The Open dialog's filter: "Images (*.png *.jpg …);;All files (*)", every image file
/// extension HistLab reads.
QString imageFileFilter();

/// File › Open Recent: the most recent first, at most `maxRecent`, remembered in
/// QSettings("HistLab", "HistLab") under "recentFiles". Read once per process; each change is
/// saved on a thread of its own (flush() waits for the saves), so that no call waits for the
/// disk. Another HistLab running at the same time sees this one's files when it next starts.
/// File › Open Recent: `menu` emptied and filled with the recent files (numbered, those that
/// no longer exist greyed out) and Clear Menu; choosing a file calls `open` with its path.
void fillRecentMenu(QMenu* menu, const std::function<void(const QString&)>& open);

class RecentFiles {
public:
    static constexpr int maxRecent = 10;
    static QStringList load();
    /// Moves `path` to the front (adding it), trims the list, saves it and returns it.
    static QStringList add(const QString& path);
    static QStringList remove(const QString& path);
    static void clear();
    /// Returns once every change made so far is in the settings file.
    static void flush();
};

} // namespace histlab::ui
