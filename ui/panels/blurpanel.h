#pragma once
// The Blur tab (issue 5): the box blur of the image the window shows, on the device chosen in
// the Run dock, through the JobBridge (lane "blur": a new run replaces the one running).
//   Whole image   runBoxBlur: border interior, replicate or reflect101; variant auto, direct,
//                 tiled, sliding, or all three in turn to compare them
//   Launch demo   runBlurLaunches on the image's 8-bit gray plane (a color image's luma, a
//                 16-bit image's high byte): the reference text's launches of the interior blur
//                 (cl12-null, cl12-16x16, cl20-null, cl20-16x16, padded-16x16, or all)
// Radius 1..256 and the timed repeats. Run (Ctrl+Enter in the tab), Cancel.
//
// The results: a CompareView (the original, or the gray plane, against the selected row's
// output; side by side or split), a table of runs (variant or launch, build options, range,
// local size, status, median and min ms, GB/s, verified, detail; unsupported (a launch refused as
// the text says it must be) and not applicable are expected, with their reason, a verification
// failure is red), the selected
// launch's corners table (get_global_id, get_local_size, get_enqueued_local_size at the four
// corners of the range) and its timings. Save Result writes the shown output at full size and
// depth (saveImage: a temporary file and a rename, so a failure leaves nothing behind).
//
// The controls are remembered in QSettings("HistLab", "HistLab") under "blur/...".
#include "bridge/jobbridge.h"
#include "window/exportdialog.h"
#include "window/exporter.h"

#include <QImage>
#include <QSize>
#include <QString>
#include <QWidget>

#include <functional>
#include <optional>

class QAction;
class QComboBox;
class QFormLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace histlab::ui {

class CompareView;

class BlurPanel : public QWidget {
    Q_OBJECT
public:
    explicit BlurPanel(JobBridge* bridge, QWidget* parent = nullptr);

    /// The image the window shows: its source (file or resource path), full size and display
    /// preview. A different image clears the results (and cancels a blur of the old one); the
    /// same one again keeps them.
    void setImage(const QString& source, const QSize& imageSize, const QImage& preview);
    QString imageSource() const { return m_source; }

    /// Where the device comes from: asked at each run (the window passes its Run dock's
    /// selector); "auto" until set.
    void setDeviceSelectorSource(std::function<QString()> source) {
        m_deviceSelector = std::move(source);
    }

    /// The request the controls describe (for the image set by setImage).
    BlurRequest request() const;
    bool isRunning() const { return m_bridge->blurRunning(); }
    /// The last blur that finished (empty before the first, and after the image changed).
    const std::optional<BlurResult>& result() const { return m_result; }
    /// The runs table's selected row (a variant or a launch of result()), or -1.
    int selectedRow() const;
    void selectRow(int row);
    /// The full-size output of the selected row, or nullptr when it has none (refused,
    /// unsupported, failed, nothing run): what Save Result writes.
    const HostImage* selectedOutput() const;

    /// Writes selectedOutput() to `path` (the format by its suffix: PNG, TIFF, BMP, JPEG,
    /// PGM/PPM, WebP). A failure is reported (status line, problem(), a message box when
    /// dialogs are enabled) and returned; no file is left behind.
    ExportResult saveResultTo(const QString& path);
    /// How Save Result asks for a file (QFileDialog by default; tests inject their own).
    void setSaveFileChooser(FileChooser chooser) { m_saveChooser = std::move(chooser); }
    /// Save errors open a window-modal message box unless turned off (tests, scripts).
    bool errorDialogsEnabled() const { return m_errorDialogs; }
    void setErrorDialogsEnabled(bool enabled) { m_errorDialogs = enabled; }

    CompareView* compareView() const { return m_compare; }
    QComboBox* modeCombo() const { return m_mode; }
    QComboBox* borderCombo() const { return m_border; }
    QComboBox* variantCombo() const { return m_variant; }
    QComboBox* launchCombo() const { return m_launch; }
    QSpinBox* radiusSpin() const { return m_radius; }
    QSpinBox* repeatsSpin() const { return m_repeats; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* saveButton() const { return m_save; }
    /// Run (Ctrl+Enter while the focus is in the tab).
    QAction* runAction() const { return m_runAction; }
    QTableWidget* runsTable() const { return m_runs; }
    QTableWidget* cornersTable() const { return m_corners; }
    QLabel* timingsLabel() const { return m_timings; }
    QLabel* statusLabel() const { return m_status; }

    /// The runs table's columns.
    enum Column {
        NameColumn,
        OptionsColumn,
        RangeColumn,
        LocalColumn,
        StatusColumn,
        MedianColumn,
        MinColumn,
        GbpsColumn,
        VerifiedColumn,
        DetailColumn,
        ColumnCount
    };

public slots:
    /// Blurs the image with the controls' values; a run in progress is replaced.
    void startRun();
    void cancelRun();
    /// Save Result…: asks for a file, then saveResultTo().
    void chooseSaveFile();

signals:
    void runStarted();
    /// The run ended (finished, cancelled or failed): `message` says how.
    void runEnded(const QString& message);
    /// A run could not start or failed, or a save failed: the reason.
    void problem(const QString& message);

private:
    void updateControls();
    void setRunning(bool running);
    void showResult(const BlurResult& result);
    void showFailure(const JobError& error);
    void fillRunsTable(const BlurResult& result);
    void showSelection();
    void fillCorners(const BlurLaunchResult* launch);
    void setStatus(const QString& text, bool bad = false);
    ExportResult failSave(const QString& message);
    void restoreSettings();
    void saveSettings() const;

    JobBridge* m_bridge;
    CompareView* m_compare;
    QComboBox* m_mode;
    QComboBox* m_border;
    QComboBox* m_variant;
    QComboBox* m_launch;
    QSpinBox* m_radius;
    QSpinBox* m_repeats;
    QLabel* m_imageLabel;
    QLabel* m_deviceLabel;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QPushButton* m_save;
    QAction* m_runAction;
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_hover;
    QTableWidget* m_runs;
    QTableWidget* m_corners;
    QLabel* m_cornersTitle;
    QLabel* m_timings;
    QFormLayout* m_form = nullptr;
    QString m_source;
    QSize m_imageSize;
    std::optional<BlurResult> m_result;
    std::function<QString()> m_deviceSelector;
    FileChooser m_saveChooser = nativeSaveFileChooser();
    bool m_errorDialogs = true;
    bool m_dropAnswer = false; // the running blur is of an image no longer shown
};

} // namespace histlab::ui
