#pragma once
// What every tab that runs a job on the worker has in common (Blur, Equalize, Joint, Scans,
// Memory, Dashboard, Experiments): on the left a column of controls (the form the panel fills),
// Run and Cancel (Ctrl+Enter runs while the focus is in the tab), a progress bar while the job
// runs and a status line (red for an error); below them the panel's file buttons (Export
// Plot…, Save JSON…, Save CSV…), on the right what the panel shows.
//
// A run goes through the panel's lane of the JobBridge: a new run replaces the one running, and
// only the newest run's progress, items and end reach the panel (showItem, showResult,
// showFailure). Once a result exists the save and export buttons are enabled, whatever the
// panel: the base decides it from hasResult() and hasPlot() after every change.
//
// Failures (a run that cannot start or fails, a file that cannot be written) go to the status
// line, to problem() and, unless turned off, to a window-modal message box. Files are written
// through writeFileSafely (a temporary file and a rename), and the folder of the last one is
// remembered in QSettings("HistLab", "HistLab") under "lastFolder", where the file dialogs
// start. The panel's controls are remembered under "<lane>/...".
#include "bridge/jobbridge.h"
#include "common/exportdialog.h"
#include "common/exporter.h"

#include <QElapsedTimer>
#include <QSettings>
#include <QSize>
#include <QString>
#include <QWidget>

#include <any>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class QAction;
class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QFormLayout;
class QGridLayout;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace histlab::ui {

/// A usage error's message in the window's words: the core names the parameter as the CLI
/// spells it ("--variant: tiled is built for radii up to 3"); the window names the field that
/// sets it ("Variant: tiled is built ..."). `label` is that field's label (a mnemonic's & is
/// dropped); the message stays as it is when there is none.
QString usageInFieldWords(const QString& message, const QString& parameter, const QString& label);

/// The label of the row of `form` named after `parameter` ("--variant" -> "Variant", "--bins"
/// -> "Bins": dashes dropped, hyphens as spaces, case ignored), or empty.
QString formLabelFor(const QFormLayout* form, const QString& parameter);

/// What a progress line adds about the time left of a run `fraction` done after `elapsedMs`,
/// assuming the rest goes at the pace so far: "about 40 s left", "about 3 min 20 s left";
/// empty before 2 % or 2 s, when the pace says too little.
QString timeLeftText(double fraction, qint64 elapsedMs);

class JobPanel : public QWidget {
    Q_OBJECT
public:
    /// True from a run's start until its end (the newest run of the panel's lane).
    bool isRunning() const;
    /// Its JobBridge lane, and what messages call its job ("scan benchmark").
    const QString& lane() const { return m_job.lane; }
    const QString& jobName() const { return m_job.name; }

    /// Where the device comes from: asked at each run (the window passes its tool bar's
    /// selector); "auto" until set. Panels with their own device list ignore it.
    void setDeviceSelectorSource(std::function<QString()> source) {
        m_deviceSelector = std::move(source);
    }
    /// How the file buttons ask for a file to write or to read (native dialogs by default;
    /// tests inject theirs).
    void setSaveFileChooser(FileChooser chooser) { m_saveChooser = std::move(chooser); }
    void setOpenFileChooser(FileChooser chooser) { m_openChooser = std::move(chooser); }
    /// Failures open a window-modal message box unless turned off (tests, scripts).
    bool errorDialogsEnabled() const { return m_errorDialogs; }
    void setErrorDialogsEnabled(bool enabled) { m_errorDialogs = enabled; }

    /// The plot shown, as PNG, JPG, PDF or SVG (by options.format).
    ExportResult exportPlotTo(const QString& path, const PlotExportOptions& options);
    /// The result shown, as the CLI's JSON or CSV writes it.
    ExportResult saveJsonTo(const QString& path);
    ExportResult saveCsvTo(const QString& path);

    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancel; }
    /// Run (Ctrl+Enter while the focus is in the tab).
    QAction* runAction() const { return m_runAction; }
    QProgressBar* progressBar() const { return m_progress; }
    QLabel* statusLabel() const { return m_status; }
    /// Timed runs after one warm-up (nullptr where the panel has no such row).
    QSpinBox* repeatsSpin() const { return m_repeats; }
    /// The file buttons; nullptr where the panel has none.
    QPushButton* exportPlotButton() const { return m_outputs[int(Output::Plot)].button; }
    QPushButton* saveJsonButton() const { return m_outputs[int(Output::Json)].button; }
    QPushButton* saveCsvButton() const { return m_outputs[int(Output::Csv)].button; }

public slots:
    /// Starts a run with the controls' values (a run in progress is replaced, unless the panel
    /// says otherwise), or says why it cannot.
    virtual void startRun() = 0;
    void cancelRun();
    /// The file buttons: ask for a file, then exportPlotTo(), saveJsonTo(), saveCsvTo().
    void chooseExportPlot();
    void chooseSaveJson();
    void chooseSaveCsv();

signals:
    void runStarted();
    /// The running job's progress: a fraction in [0, 1] and what it does.
    void progressChanged(double fraction, const QString& stage);
    /// The run ended (finished, cancelled or failed): `message` says how.
    void runEnded(const QString& message);
    /// A run could not start or failed, a file could not be read or written: the reason.
    void problem(const QString& message);

protected:
    /// What the panel runs, for the bridge, the settings, the messages and the log.
    struct Job {
        QString lane;     ///< its JobBridge lane, also its settings group ("scan/...")
        QString name;     ///< in messages: "run the scan benchmark first"
        QString runText;  ///< the Run action's name, e.g. "Run Scan Benchmark"
        QString fileName; ///< the files' names in the file dialogs: "scans" (.png, .json)
    };
    /// The files a panel writes: a button each in the controls column (addOutput).
    enum class Output { Plot, Json, Csv, Count };
    /// What Save JSON… or Save CSV… writes, or nothing with the reason in `why` (called only
    /// once hasResult()).
    using TextWriter = std::function<std::optional<std::string>(QString* why)>;

    JobPanel(JobBridge* bridge, Job job, QWidget* parent = nullptr);

    // Building the tab -----------------------------------------------------------------------

    /// The controls' form, at the top of the left column.
    QFormLayout* form() const { return m_form; }
    /// A "Device" row in the form showing the tool bar's device, then the one that ran.
    void addDeviceRow();
    /// A "Repeats" row in the form (1 to 1,000 timed runs, 5 by default), remembered.
    void addRepeatsRow(const QString& toolTip, const QString& label = {});
    /// The file buttons' grid, under the status line.
    QGridLayout* filesGrid() const { return m_files; }
    /// The row of Run and Cancel, for a panel's second run button (after Run, before Cancel).
    void addRunRowButton(QPushButton* button);
    /// The left column below the file buttons (above a final stretch), for more of the
    /// panel's own widgets.
    QVBoxLayout* columnEnd() const { return m_columnEnd; }
    /// The file button of `kind` ("Export Plot…", "Save JSON…", "Save CSV…" unless `text`
    /// says otherwise), its file dialog's caption and its tooltip; place it in filesGrid().
    /// Save JSON… and Save CSV… write what `writer` gives; Export Plot… the exported plot.
    QPushButton* addOutput(Output kind, const QString& caption, const QString& toolTip,
                           TextWriter writer = {}, const QString& text = {});
    /// The plot Export Plot… writes (e.g. the page shown).
    void setExportedPlot(QCustomPlot* plot) { m_plot = plot; }
    /// The filter of the JSON files this panel writes and reads.
    void setJsonFilter(const QString& filter) { m_jsonFilter = filter; }
    QString jsonFilter() const { return m_jsonFilter; }
    /// What the status line says while the job runs; %1 is its stage ("running: %1…").
    void setProgressFormat(const QString& format) { m_progressFormat = format; }
    /// Plot exports are at least this size; through the export dialog (format, size, scale)
    /// when `dialog`, else straight to the chosen file.
    void setPlotExport(const QSize& minimum, bool dialog = false);
    /// With false, Run is disabled while a run goes on instead of replacing it.
    void setRunReplacesRunning(bool replaces) { m_replacesRunning = replaces; }
    /// Puts the left column and `results` side by side: `resizable` with a splitter.
    void setResults(QWidget* results, int columnWidth = 380, bool resizable = false);

    // Running ----------------------------------------------------------------------------------

    /// The device selector of the next run ("auto" until the window gives a source).
    QString deviceSelector() const;
    /// Starts `work` on the panel's lane: the settings are saved, the controls show a run, the
    /// status line says `status`, runStarted() is emitted. The answers arrive as showItem(),
    /// then showResult() or showFailure().
    void start(JobWork work, const QString& status = {});
    /// A run that cannot start: the reason in red in the status line, and problem().
    void refuse(const QString& why);
    /// Stops the running job and drops its answers: the panel is idle at once.
    void discardRun();
    /// An item the running job streamed (the std::any holds the job's own type).
    virtual void showItem(const std::any& item) { Q_UNUSED(item); }
    /// The run's result: show it, say so in the status line and return the summary for
    /// runEnded(). The save buttons follow hasResult() afterwards.
    virtual QString showResult(const std::any& result) = 0;
    /// A failed run: by default the reason in red (a usage error as "Cannot run: …", a build
    /// log in the status tooltip), problem() and runEnded().
    virtual void showFailure(const JobError& error);
    /// The status line and runEnded()'s message after a cancelled run (what the panel still
    /// shows).
    virtual QString cancelledStatus() const = 0;
    /// A device the job reports having used: the Device row says its name (tooltip: type and
    /// platform).
    void showDevice(const DeviceInfo& device);

    // The state of the buttons -------------------------------------------------------------

    /// Run is enabled only when this is true (e.g. an image is shown).
    virtual bool canRun() const { return true; }
    /// A result exists: Save JSON… and Save CSV… are enabled.
    virtual bool hasResult() const = 0;
    /// Something is drawn (a result, or items of the run shown): Export Plot… is enabled.
    bool hasPlot() const { return hasResult() || m_itemsShown > 0; }
    /// Enables Run, Cancel and the file buttons from the state; called after every change
    /// the base knows of (a run starting or ending, an item arriving). Panels that add buttons
    /// extend it.
    virtual void updateActions();

    // Files --------------------------------------------------------------------------------

    /// The file name the file dialog proposes, without the suffix: job().fileName unless
    /// overridden.
    virtual QString fileBaseName(Output kind) const;
    /// "<last folder>/<name>" (the home folder before any file).
    static QString startPath(const QString& name);
    /// Asks for a file to write (FileChooser) or to read; empty when none was chosen.
    QString chooseSaveFile(const QString& caption, const QString& startPath, const QString& filter);
    QString chooseOpenFile(const QString& caption, const QString& filter);
    /// The whole file, or nothing after fail() with the reason (naming the file), which
    /// `failure` receives.
    std::optional<QByteArray> readFile(const QString& path, ExportResult* failure);

    // Status and failures ------------------------------------------------------------------

    void setStatus(const QString& text, bool bad = false);
    /// Reports a failure: the status line in red, the log, problem() and, when enabled, a
    /// window-modal message box saying `what` did not happen, then why. Returns it.
    ExportResult fail(const QString& message, const QString& what = {});
    /// A file written: the status line says `message` and the folder is remembered.
    ExportResult succeed(const QString& path, const QString& message);

    // Settings -----------------------------------------------------------------------------

    /// histlabSettings() (common/settings.h), where every part of the window keeps its settings.
    static QSettings settings();
    /// "<lane>/<name>": the key of one of this panel's settings.
    QString settingsKey(const QString& name) const;
    /// Remembers a control under settingsKey(name): restored now (when stored), saved at
    /// each run. A combo box is remembered by its text.
    void remember(QSpinBox* spin, const QString& name);
    void remember(QDoubleSpinBox* spin, const QString& name);
    void remember(QComboBox* combo, const QString& name);
    void remember(QCheckBox* check, const QString& name);
    void remember(QLineEdit* edit, const QString& name);
    /// Settings the panel keeps itself, saved at each run after the remembered controls.
    virtual void saveSettings() const {}

    JobBridge* bridge() const { return m_bridge; }
    const Job& job() const { return m_job; }

private:
    struct OutputButton {
        QPushButton* button = nullptr;
        QString caption;
        TextWriter writer;
    };
    void setRunning(bool running);
    void watch(JobWatcher* watcher);
    void saveRemembered() const;
    ExportResult saveText(Output kind, const QString& path);
    QString outputFilter(Output kind) const;

    JobBridge* m_bridge;
    Job m_job;
    QFormLayout* m_form;
    QGridLayout* m_files;
    QHBoxLayout* m_runRow;
    QVBoxLayout* m_columnEnd;
    QWidget* m_column;
    QPushButton* m_run;
    QPushButton* m_cancel;
    QAction* m_runAction;
    QProgressBar* m_progress;
    QLabel* m_status;
    OutputButton m_outputs[int(Output::Count)];
    QLabel* m_deviceLabel = nullptr; // the optional rows, and the plot Export Plot writes
    QSpinBox* m_repeats = nullptr;
    QCustomPlot* m_plot = nullptr;
    int m_itemsShown = 0;                                  // streamed by the run shown
    std::vector<std::function<void(QSettings&)>> m_savers; // the remembered controls
    std::function<QString()> m_deviceSelector;
    FileChooser m_saveChooser = nativeSaveFileChooser();
    FileChooser m_openChooser = nativeOpenFileChooser();
    QString m_jsonFilter;
    QString m_progressFormat;
    QString m_startStatus; // what the status line says once the worker begins the run
    QElapsedTimer m_clock; // since the worker began the run, for the time left
    QSize m_plotMinimum{720, 480};
    bool m_plotDialog = false;
    bool m_replacesRunning = true;
    bool m_errorDialogs = true;
};

} // namespace histlab::ui
