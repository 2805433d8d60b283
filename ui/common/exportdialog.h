#pragma once
// File › Export plot: a small dialog for the format (PNG, JPG, PDF, SVG), the size in pixels
// (the plot's current size by default), the scale of a raster image (1x, 2x) and the file. The
// file is chosen through a FileChooser, which tests replace so that no native dialog opens.
#include "common/exporter.h"

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

/// A QFileDialog that saves, adding the suffix of the filter the user chose to a name typed
/// without one before it asks whether to replace an existing file.
FileChooser nativeSaveFileChooser();
/// QFileDialog::getOpenFileName (a FileChooser for files to read).
FileChooser nativeOpenFileChooser();

/// `path` with "." + `suffix` added when its file name has no suffix of its own: a user who
/// types "banks_run" where JSON is offered means banks_run.json (which the Open dialog's *.json
/// filter then shows). A name with a suffix, an empty path and an empty suffix are left as they
/// are.
QString withDefaultSuffix(const QString& path, const QString& suffix);

/// The suffix of a dialog filter's first pattern: "json" for "JSON (*.json);;All files (*)",
/// empty for "All files (*)".
QString filterSuffix(const QString& filter);

/// Asks `chooser` for a file to save, and gives the answer the suffix of `startPath` (the name
/// proposed, "histogram.csv"), or else of `filter`, when it has none, unless a file of that
/// name exists (nobody confirmed replacing it). Every save dialog of the window and its tabs
/// asks through it.
QString askSavePath(const FileChooser& chooser, QWidget* parent, const QString& caption,
                    const QString& startPath, const QString& filter);

/// Where the open and export dialogs start: the folder of the last file opened or exported,
/// remembered in QSettings("HistLab", "HistLab") under "lastFolder" (empty before the first).
QString lastFolder();
/// Remembers the folder of `file` as lastFolder(), at once.
void rememberFolder(const QString& file);

class ExportDialog : public QDialog {
    Q_OBJECT
public:
    /// `plotSize` is the default width and height; `startFolder` is where the file chooser opens.
    ExportDialog(const QSize& plotSize, const QString& startFolder, QWidget* parent = nullptr);

    void setFileChooser(FileChooser chooser) { m_chooser = std::move(chooser); }

    PlotExportOptions options() const;
    void setOptions(const PlotExportOptions& options);
    /// The file typed or chosen, with the format's suffix added when it has none.
    QString filePath() const;
    /// Names the file; a known suffix picks the format. Before the dialog shows, `path` is the
    /// caller's proposal: it moves to the folder of the last plot exported, with the suffix of
    /// the format chosen then (both remembered in QSettings when a dialog is accepted).
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
    QString typedPath() const;

    QString m_startFolder;
    QString m_exportFolder; // of the last plot exported, remembered
    FileChooser m_chooser;
    QComboBox* m_format;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QComboBox* m_scale;
    QLineEdit* m_path;
    QDialogButtonBox* m_buttons;
};

} // namespace histlab::ui
