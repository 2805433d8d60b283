#pragma once
// A JobPanel whose runs are kept as files (Dashboard, Experiments): Save JSON… writes the run as
// the CLI's --json does, Open… shows a saved run, Baseline… lays a saved run under the next ones
// to compare (No Baseline takes it away), Export Plot… and Export CSV… write the figure and the
// rows (with the baseline's columns when there is one).
#include "panels/jobpanel.h"

#include <string>

class QPushButton;

namespace histlab::ui {

class BaselinePanel : public JobPanel {
    Q_OBJECT
public:
    /// Shows the run saved in `path` (not while a run goes on). A file that cannot be read or
    /// is not such a run is refused with the reason, naming the file.
    ExportResult openRunFrom(const QString& path);
    /// Lays the run saved in `path` under the one shown, and under the next runs.
    ExportResult openBaselineFrom(const QString& path);
    virtual void clearBaseline() = 0;

    QPushButton* openButton() const { return m_open; }
    QPushButton* baselineButton() const { return m_baseline; }

protected:
    /// `runName` names the runs in the file dialogs ("Dashboard": "Open Dashboard Run").
    BaselinePanel(JobBridge* bridge, Job job, const QString& runName, QWidget* parent = nullptr);

    /// The run shown as Save JSON… and Export CSV… write it (the CSV with the baseline's
    /// columns when there is one).
    virtual std::string runJson() const = 0;
    virtual std::string runCsv() const = 0;
    /// Shows the saved run `json` (the panel's parser throws on anything else); returns what
    /// the status line says of it after "Opened <file>", e.g. its date.
    virtual QString showSavedRun(const std::string& json) = 0;
    /// Lays the saved run `json` under the one shown (throws as showSavedRun, or when it cannot
    /// be compared); returns what the status line says of it.
    virtual QString useBaseline(const std::string& json) = 0;

private:
    ExportResult open(const QString& path, bool baseline);

    QPushButton* m_open;
    QPushButton* m_baseline;
};

} // namespace histlab::ui
