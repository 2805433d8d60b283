#pragma once
// File › Open's dialog. On a desktop with its own file dialog (GNOME, KDE) that one is used, as
// everywhere in the window. Where Qt draws its own (no platform dialog), it is made to show what
// an image viewer's shows: the detail columns whole, and a preview of the file selected with its
// size in pixels, decoded off the GUI thread.
#include <QFileDialog>
#include <QString>

#include <future>
#include <memory>
#include <vector>

class QLabel;

namespace histlab::ui {

/// Where Qt draws its own file dialog (no desktop one): the detail view, the size, type and
/// date columns sized to their contents (the name takes the rest) and room for them. Returns
/// false, changing nothing, for a platform dialog.
bool showWholeColumns(QFileDialog* dialog);

class OpenImagesDialog : public QFileDialog {
    Q_OBJECT
public:
    /// Several existing files of `filter` from `folder`; deleted on close. Open with open() (no
    /// nested event loop); filesSelected() gives the choice.
    OpenImagesDialog(QWidget* parent, const QString& folder, const QString& filter);
    ~OpenImagesDialog() override; ///< waits for a preview being decoded, if any

    /// The preview's picture and its caption (name, pixels, or why there is none); nullptr
    /// with a platform dialog.
    QLabel* previewPicture() const { return m_picture; }
    QLabel* previewCaption() const { return m_caption; }
    /// Largest file previewed, in bytes: larger ones say their size only.
    static constexpr qint64 kLargestPreviewed = qint64(256) << 20;

signals:
    /// The preview of the current file is shown (or its absence explained), for tests.
    void previewShown(const QString& path);

private:
    void showPreview(const QString& path);

    QLabel* m_picture = nullptr;
    QLabel* m_caption = nullptr;
    quint64 m_generation = 0; ///< the newest selection's; older previews are dropped
    std::vector<std::future<void>> m_decoding;
};

} // namespace histlab::ui
