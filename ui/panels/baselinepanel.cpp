#include "panels/baselinepanel.h"

#include <QGridLayout>
#include <QPushButton>

#include <exception>

namespace histlab::ui {

BaselinePanel::BaselinePanel(JobBridge* bridge, Job job, const QString& runName, QWidget* parent)
    : JobPanel(bridge, std::move(job), parent)
    , m_open(new QPushButton(tr("Open…")))
    , m_baseline(new QPushButton(tr("Baseline…"))) {
    auto* noBaseline = new QPushButton(tr("No Baseline"));
    noBaseline->setToolTip(tr("Take the baseline away"));
    QGridLayout* files = filesGrid();
    files->addWidget(addOutput(Output::Json, tr("Save %1 Run").arg(runName), {},
                               [this](QString*) { return runJson(); }),
                     0, 0);
    files->addWidget(m_open, 0, 1);
    files->addWidget(m_baseline, 1, 0);
    files->addWidget(noBaseline, 1, 1);
    files->addWidget(addOutput(Output::Plot, tr("Export Plot"), {}), 2, 0);
    files->addWidget(addOutput(
                         Output::Csv, tr("Export %1 CSV").arg(runName), {},
                         [this](QString*) { return runCsv(); }, tr("Export CSV…")),
                     2, 1);

    connect(m_open, &QPushButton::clicked, this, [this, runName] {
        const QString path = chooseOpenFile(tr("Open %1 Run").arg(runName), jsonFilter());
        if (!path.isEmpty())
            openRunFrom(path);
    });
    connect(m_baseline, &QPushButton::clicked, this, [this] {
        const QString path = chooseOpenFile(tr("Open Baseline"), jsonFilter());
        if (!path.isEmpty())
            openBaselineFrom(path);
    });
    connect(noBaseline, &QPushButton::clicked, this, &BaselinePanel::clearBaseline);
}

ExportResult BaselinePanel::openRunFrom(const QString& path) {
    if (isRunning())
        return fail(tr("%1: not opened while the %2 runs").arg(path, job().name));
    return open(path, false);
}

ExportResult BaselinePanel::openBaselineFrom(const QString& path) {
    return open(path, true);
}

ExportResult BaselinePanel::open(const QString& path, bool baseline) {
    ExportResult failure;
    const std::optional<QByteArray> text = readFile(path, &failure);
    if (!text)
        return failure;
    QString about;
    try {
        about = baseline ? useBaseline(text->toStdString()) : showSavedRun(text->toStdString());
    } catch (const std::exception& e) {
        return fail(QStringLiteral("%1: %2").arg(path, QString::fromStdString(e.what())));
    }
    updateActions();
    setStatus((baseline ? tr("Baseline: %1 (%2)") : tr("Opened %1 (%2)")).arg(path, about));
    return ExportResult::success();
}

} // namespace histlab::ui
