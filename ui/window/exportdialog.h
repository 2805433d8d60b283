#pragma once
// File › Export plot: a small dialog for the format (PNG, JPG, PDF, SVG), the size in pixels
// (the plot's current size by default), the scale of a raster image (1x, 2x) and the file. The
// file is chosen through a FileChooser, which tests replace so that no native dialog opens.
#include "window/exporter.h"

#include <QDialog>
#include <QSize>
#include <QString>

#include <functional>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QSpinBox;

namespace histlab::ui {

/// Asks for a file to save: (parent, caption, start path, filter) → the chosen path, or empty.
using FileChooser = std::function<QString(QWidget* parent, const QString& caption,
                                          const QString& startPath, const QString& filter)>;

/// QFileDialog::getSaveFileName.
FileChooser nativeSaveFileChooser();
/// QFileDialog::getOpenFileName (a FileChooser for files to read).
FileChooser nativeOpenFileChooser();

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    /// `plotSize` is the default width and height; `startFolder` is where the file chooser opens.
    ExportDialog(const QSize& plotSize, const QString& startFolder, QWidget* parent = nullptr);

    void setFileChooser(FileChooser chooser) { m_chooser = std::move(chooser); }

    PlotExportOptions options() const;
    void setOptions(const PlotExportOptions& options);
    QString filePath() const;
    void setFilePath(const QString& path);
    QString startFolder() const { return m_startFolder; }

    QComboBox* formatBox() const { return m_format; }
    QComboBox* scaleBox() const { return m_scale; }

public slots:
    /// Opens the file chooser in the start folder (or next to the file already named).
    void browse();

private:
    void formatChanged();
    void updateOk();

    QString m_startFolder;
    FileChooser m_chooser;
    QComboBox* m_format;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QComboBox* m_scale;
    QLineEdit* m_path;
    QDialogButtonBox* m_buttons;
};

} // namespace histlab::ui
