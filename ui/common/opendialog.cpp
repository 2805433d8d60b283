#include "common/opendialog.h"

#include <runtime/parallel.h>

#include <QCoreApplication>
#include <QFileInfo>
#include <QFileSystemModel>
#include <QGridLayout>
#include <QHeaderView>
#include <QImageReader>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPointer>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <chrono>

namespace histlab::ui {

namespace {
constexpr int kPreviewSide = 240;

/// The file's picture at most kPreviewSide on its longer side, and its size in pixels; a reader
/// that can scale while decoding (JPEG) does so. Empty with `why` when Qt cannot read it.
QImage previewOf(const QString& path, QSize* size, QString* why) {
    QImageReader reader(path);
    reader.setAutoTransform(true);
    *size = reader.size();
    if (size->isValid() && reader.supportsOption(QImageIOHandler::ScaledSize)) {
        const QSize fit = size->scaled(kPreviewSide, kPreviewSide, Qt::KeepAspectRatio);
        if (fit.width() < size->width())
            reader.setScaledSize(fit);
    }
    QImage image = reader.read();
    if (image.isNull()) {
        *why = reader.errorString();
        return {};
    }
    if (!size->isValid())
        *size = image.size();
    if (image.width() > kPreviewSide || image.height() > kPreviewSide)
        image =
            image.scaled(kPreviewSide, kPreviewSide, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    return image;
}
} // namespace

bool showWholeColumns(QFileDialog* dialog) {
    auto* view = dialog->findChild<QTreeView*>();
    if (!view)
        return false;
    dialog->setViewMode(QFileDialog::Detail);
    dialog->resize(std::max(dialog->width(), 860), std::max(dialog->height(), 540));
    // The name takes what is left; size, type and date are never cut.
    view->header()->setStretchLastSection(false);
    view->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    for (int column = 1; column < view->header()->count(); ++column)
        view->header()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    return true;
}

OpenImagesDialog::OpenImagesDialog(QWidget* parent, const QString& folder, const QString& filter)
    : QFileDialog(parent, tr("Open Images"), folder, filter) {
    setAttribute(Qt::WA_DeleteOnClose);
    setFileMode(QFileDialog::ExistingFiles);
    setAcceptMode(QFileDialog::AcceptOpen);
    auto* grid = qobject_cast<QGridLayout*>(layout());
    auto* view = findChild<QTreeView*>();
    if (!grid || !showWholeColumns(this))
        return; // the platform's own dialog: it has its own columns and preview
    resize(1040, 620);
    auto* pane = new QWidget;
    pane->setFixedWidth(kPreviewSide + 20);
    auto* paneLayout = new QVBoxLayout(pane);
    m_picture = new QLabel;
    m_picture->setObjectName(QStringLiteral("openPreview"));
    m_picture->setAlignment(Qt::AlignCenter);
    m_picture->setMinimumHeight(kPreviewSide);
    m_caption = new QLabel(tr("No file selected"));
    m_caption->setObjectName(QStringLiteral("openPreviewCaption"));
    m_caption->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_caption->setWordWrap(true);
    paneLayout->addWidget(m_picture);
    paneLayout->addWidget(m_caption, 1);
    grid->addWidget(pane, 1, grid->columnCount(), grid->rowCount() - 1, 1);
    // The file selected last (by mouse, keys or selectFile; Ctrl+click adds to the choice).
    connect(view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this](const QItemSelection& selected) {
                if (selected.isEmpty())
                    return;
                showPreview(
                    selected.indexes().first().data(QFileSystemModel::FilePathRole).toString());
            });
}

OpenImagesDialog::~OpenImagesDialog() = default; // the futures wait for their decode

void OpenImagesDialog::showPreview(const QString& path) {
    const quint64 generation = ++m_generation;
    std::erase_if(m_decoding, [](const std::future<void>& f) {
        return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    });
    const QFileInfo info(path);
    m_picture->setPixmap({});
    if (!info.isFile()) { // a folder, or nothing: a FIFO or device is not opened here
        m_caption->setText(info.isDir() ? QString() : tr("No file selected"));
        return emit previewShown(path);
    }
    if (info.size() > kLargestPreviewed) {
        m_caption->setText(tr("%1\n%2 MB: no preview").arg(info.fileName()).arg(info.size() >> 20));
        return emit previewShown(path);
    }
    m_caption->setText(tr("%1\nreading…").arg(info.fileName()));
    QPointer<OpenImagesDialog> self(this);
    m_decoding.push_back(inBackground([self, path, generation] {
        QSize size;
        QString why;
        const QImage image = previewOf(path, &size, &why);
        // Back on the GUI thread; dropped when the dialog is gone or the choice moved on.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, path, generation, image, size, why] {
                if (!self || generation != self->m_generation)
                    return;
                const QString name = QFileInfo(path).fileName();
                if (image.isNull()) {
                    self->m_caption->setText(
                        tr("%1\nno preview (%2); HistLab may still read it").arg(name, why));
                } else {
                    self->m_picture->setPixmap(QPixmap::fromImage(image));
                    self->m_caption->setText(
                        tr("%1\n%2 × %3 pixels").arg(name).arg(size.width()).arg(size.height()));
                }
                emit self->previewShown(path);
            },
            Qt::QueuedConnection);
    }));
}

} // namespace histlab::ui
