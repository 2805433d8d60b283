#include "panels/jobpanel.h"
#include "common/settings.h"

#include "bridge/logging.h"

#include <qcustomplot.h>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace histlab::ui {

QString usageInFieldWords(const QString& message, const QString& parameter, const QString& label) {
    const QString prefix = parameter + QStringLiteral(": ");
    QString field = label;
    field.remove(QLatin1Char('&'));
    if (field.isEmpty() || parameter.isEmpty() || !message.startsWith(prefix))
        return message;
    return field + QStringLiteral(": ") + message.mid(prefix.size());
}

QString formLabelFor(const QFormLayout* form, const QString& parameter) {
    if (!form || !parameter.startsWith(QLatin1String("--")))
        return {};
    const QString wanted = parameter.mid(2).replace(QLatin1Char('-'), QLatin1Char(' '));
    for (int row = 0; row < form->rowCount(); ++row) {
        const QLayoutItem* item = form->itemAt(row, QFormLayout::LabelRole);
        const auto* label = item ? qobject_cast<const QLabel*>(item->widget()) : nullptr;
        if (!label)
            continue;
        QString text = label->text();
        text.remove(QLatin1Char('&'));
        if (text.compare(wanted, Qt::CaseInsensitive) == 0)
            return text;
    }
    return {};
}

QString timeLeftText(double fraction, qint64 elapsedMs) {
    if (fraction < 0.02 || fraction >= 1.0 || elapsedMs < 2000)
        return {};
    const qint64 left = qRound64(double(elapsedMs) * (1.0 - fraction) / fraction / 1000.0);
    if (left < 60)
        return JobPanel::tr("about %1 s left").arg(std::max<qint64>(left, 1));
    return JobPanel::tr("about %1 min %2 s left").arg(left / 60).arg(left % 60);
}

JobPanel::JobPanel(JobBridge* bridge, Job job, QWidget* parent)
    : QWidget(parent)
    , m_bridge(bridge)
    , m_job(std::move(job))
    , m_form(new QFormLayout)
    , m_files(new QGridLayout)
    , m_runRow(new QHBoxLayout)
    , m_columnEnd(new QVBoxLayout)
    , m_column(new QWidget)
    , m_run(new QPushButton(tr("Ru&n")))
    , m_cancel(new QPushButton(tr("Cancel")))
    , m_runAction(new QAction(m_job.runText, this))
    , m_progress(new QProgressBar)
    , m_status(new QLabel)
    , m_jsonFilter(tr("JSON (*.json);;All files (*)"))
    , m_progressFormat(tr("running: %1…")) {
    m_bridge->setJobName(m_job.lane, m_job.name);
    m_cancel->setEnabled(false);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_progress->setVisible(false);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The status wraps within the column: its text never widens the column (which moved the
    // tab's image and plot sideways at every message).
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    // Nor does it move the buttons below it: four lines are kept for it whatever it says (a
    // longer message is cut, and the Log has it whole), and the progress bar keeps its place
    // while hidden.
    m_status->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_status->setFixedHeight(4 * m_status->fontMetrics().lineSpacing() + 4);
    QSizePolicy progressPolicy = m_progress->sizePolicy();
    progressPolicy.setRetainSizeWhenHidden(true);
    m_progress->setSizePolicy(progressPolicy);

    // Ctrl+Enter while the focus is anywhere in the tab: F5 is the window's Run Again.
    m_runAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_runAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(m_runAction);

    m_runRow->addWidget(m_run);
    m_runRow->addWidget(m_cancel);
    m_columnEnd->setContentsMargins(0, 0, 0, 0);
    auto* column = new QVBoxLayout(m_column);
    column->addLayout(m_form);
    column->addLayout(m_runRow);
    column->addWidget(m_progress);
    column->addWidget(m_status);
    column->addLayout(m_files);
    column->addLayout(m_columnEnd);
    column->addStretch(1);

    connect(m_run, &QPushButton::clicked, this, &JobPanel::startRun);
    connect(m_runAction, &QAction::triggered, this, &JobPanel::startRun);
    connect(m_cancel, &QPushButton::clicked, this, &JobPanel::cancelRun);
}

namespace {

/// The left column, scrolled vertically when the window is lower than the column (a 1600 x
/// 1000 screen at 150 % is 667 pixels high): as wide as the column needs, as low as wanted.
class ColumnScroll : public QScrollArea {
public:
    explicit ColumnScroll(QWidget* column) {
        setWidget(column);
        setWidgetResizable(true);
        setFrameShape(QFrame::NoFrame);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);
    }
    QSize minimumSizeHint() const override {
        return {widget()->minimumSizeHint().width() + scrollBarWidth(), 120};
    }
    QSize sizeHint() const override {
        const QSize column = widget()->sizeHint();
        return {column.width() + scrollBarWidth(), column.height()};
    }

private:
    int scrollBarWidth() const { return verticalScrollBar()->sizeHint().width(); }
};

} // namespace

void JobPanel::setResults(QWidget* results, int columnWidth, bool resizable) {
    m_column->setMaximumWidth(columnWidth);
    auto* column = new ColumnScroll(m_column);
    column->setMaximumWidth(columnWidth + column->verticalScrollBar()->sizeHint().width());
    if (resizable) {
        auto* splitter = new QSplitter(Qt::Horizontal);
        splitter->addWidget(column);
        splitter->addWidget(results);
        splitter->setStretchFactor(0, 0);
        splitter->setStretchFactor(1, 1);
        splitter->setChildrenCollapsible(false);
        auto* layout = new QVBoxLayout(this);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(splitter);
    } else {
        auto* layout = new QHBoxLayout(this);
        layout->addWidget(column);
        layout->addWidget(results, 1);
    }
}

void JobPanel::addRunRowButton(QPushButton* button) {
    m_runRow->insertWidget(m_runRow->indexOf(m_cancel), button);
}

void JobPanel::addDeviceRow() {
    m_deviceLabel = new QLabel(tr("the tool bar's"));
    m_deviceLabel->setWordWrap(true);
    m_deviceLabel->setToolTip(tr("The device chosen in the tool bar above the tabs"));
    m_form->addRow(tr("Device"), m_deviceLabel);
}

void JobPanel::addRepeatsRow(const QString& toolTip, const QString& label) {
    m_repeats = new QSpinBox;
    m_repeats->setRange(1, 1000);
    m_repeats->setValue(5);
    m_repeats->setToolTip(toolTip);
    m_form->addRow(label.isEmpty() ? tr("Repeat&s") : label, m_repeats);
    remember(m_repeats, QStringLiteral("repeats"));
}

void JobPanel::showDevice(const DeviceInfo& device) {
    if (!m_deviceLabel)
        return;
    const QString name = QString::fromStdString(device.name);
    m_deviceLabel->setText(name);
    m_deviceLabel->setToolTip(QStringLiteral("%1 [%2], %3")
                                  .arg(name, QString::fromLatin1(deviceTypeName(device.type)),
                                       QString::fromStdString(device.platformName)));
}

QPushButton* JobPanel::addOutput(Output kind, const QString& caption, const QString& toolTip,
                                 TextWriter writer, const QString& text) {
    static const char* const defaults[] = {QT_TR_NOOP("Export Plot…"), QT_TR_NOOP("Save JSON…"),
                                           QT_TR_NOOP("Save CSV…")};
    OutputButton& output = m_outputs[int(kind)];
    output.button = new QPushButton(text.isEmpty() ? tr(defaults[int(kind)]) : text);
    output.button->setToolTip(toolTip);
    output.button->setEnabled(false);
    output.caption = caption;
    output.writer = std::move(writer);
    switch (kind) {
    case Output::Plot:
        connect(output.button, &QPushButton::clicked, this, &JobPanel::chooseExportPlot);
        break;
    case Output::Json:
        connect(output.button, &QPushButton::clicked, this, &JobPanel::chooseSaveJson);
        break;
    case Output::Csv:
    case Output::Count:
        connect(output.button, &QPushButton::clicked, this, &JobPanel::chooseSaveCsv);
        break;
    }
    return output.button;
}

void JobPanel::setPlotExport(const QSize& minimum, bool dialog) {
    m_plotMinimum = minimum;
    m_plotDialog = dialog;
}

bool JobPanel::isRunning() const {
    return m_bridge->isRunning(m_job.lane);
}

QString JobPanel::deviceSelector() const {
    return m_deviceSelector ? m_deviceSelector() : QStringLiteral("auto");
}

void JobPanel::start(JobWork work, const QString& status) {
    saveRemembered();
    saveSettings();
    watch(m_bridge->submit(m_job.lane, std::move(work))); // replaces the lane's running job
    m_status->setToolTip({});
    m_itemsShown = 0;
    setRunning(true);
    if (m_deviceLabel)
        m_deviceLabel->setText(tr("%1 (from the tool bar)").arg(deviceSelector()));
    m_startStatus = status.isEmpty() ? tr("starting…") : status;
    // One worker runs one job at a time: a run behind another says so, without a progress bar,
    // until the worker begins it.
    const QString wait = m_bridge->waitNote(m_job.lane);
    setStatus(wait.isEmpty() ? m_startStatus : wait);
    emit runStarted();
}

void JobPanel::watch(JobWatcher* watcher) {
    connect(watcher, &JobWatcher::started, this, [this] {
        m_clock.start();
        m_progress->setVisible(true);
        setStatus(m_startStatus);
    });
    connect(
        watcher, &JobWatcher::progressChanged, this, [this](double fraction, const QString& stage) {
            m_progress->setValue(qRound(fraction * 1000));
            const QString left = timeLeftText(fraction, m_clock.isValid() ? m_clock.elapsed() : 0);
            setStatus(left.isEmpty() ? m_progressFormat.arg(stage)
                                     : tr("%1 — %2").arg(m_progressFormat.arg(stage), left));
            emit progressChanged(fraction, stage);
        });
    connect(watcher, &JobWatcher::itemReady, this, [this](const std::any& item) {
        ++m_itemsShown;
        showItem(item);
        updateActions();
    });
    connect(watcher, &JobWatcher::finished, this, [this](const std::any& result) {
        setRunning(false);
        const QString summary = showResult(result);
        updateActions(); // after the result is the panel's: its files can be saved
        qCInfo(lcUi).noquote() << m_job.name << "finished:" << summary;
        emit runEnded(summary);
    });
    connect(watcher, &JobWatcher::failed, this, [this](const JobError& error) {
        setRunning(false);
        showFailure(error);
        updateActions();
    });
}

void JobPanel::refuse(const QString& why) {
    setStatus(why, true);
    emit problem(why);
}

void JobPanel::cancelRun() {
    if (!isRunning())
        return;
    m_bridge->cancel(m_job.lane);
    m_startStatus = tr("cancelling…"); // also when the worker begins it only now
    setStatus(m_startStatus);
}

void JobPanel::discardRun() {
    if (!isRunning())
        return;
    m_bridge->discard(m_job.lane);
    setRunning(false);
}

void JobPanel::setRunning(bool running) {
    // A run waiting for another job shows its bar when the worker begins it.
    m_progress->setVisible(running && m_bridge->hasStarted(m_job.lane));
    m_progress->setValue(0);
    if (!running)
        m_clock.invalidate();
    updateActions();
}

void JobPanel::updateActions() {
    const bool running = isRunning();
    const bool runnable = canRun() && (m_replacesRunning || !running);
    m_run->setEnabled(runnable);
    m_runAction->setEnabled(runnable);
    m_cancel->setEnabled(running);
    const bool result = hasResult();
    for (Output kind : {Output::Plot, Output::Json, Output::Csv})
        if (QPushButton* button = m_outputs[int(kind)].button)
            button->setEnabled(kind == Output::Plot ? hasPlot() : result);
}

void JobPanel::showFailure(const JobError& error) {
    if (error.kind == JobError::Kind::Cancelled) {
        const QString cancelled = cancelledStatus();
        setStatus(cancelled);
        emit runEnded(cancelled);
        return;
    }
    QString message = QString::fromStdString(error.message);
    if (error.kind == JobError::Kind::Usage) // e.g. tiled above its largest radius
        message = tr("Cannot run: %1")
                      .arg(usageInFieldWords(
                          message, QString::fromStdString(error.parameter),
                          formLabelFor(m_form, QString::fromStdString(error.parameter))));
    QString shown = message;
    if (!error.buildLog.empty()) {
        // The build options and log belong with the error (and in the Log dock).
        m_status->setToolTip(QString::fromStdString(error.kernelFile + " " + error.options +
                                                    "\n\n" + error.buildLog));
        shown += tr(" (the tooltip has the build log)");
    }
    setStatus(shown, true);
    qCWarning(lcUi).noquote() << m_job.name << "failed:" << jobErrorKindName(error.kind) << message
                              << QString::fromStdString(error.buildLog);
    emit problem(message);
    emit runEnded(message);
}

void JobPanel::setStatus(const QString& text, bool bad) {
    m_status->setText(text);
    m_status->setStyleSheet(bad ? errorStyle() : QString());
}

ExportResult JobPanel::fail(const QString& message, const QString& what) {
    setStatus(message, true);
    qCWarning(lcUi).noquote() << m_job.name << "tab:" << message;
    emit problem(message);
    if (m_errorDialogs) {
        // Window-modal and opened without exec(): no nested event loop.
        const QString text =
            what.isEmpty() ? message : QStringLiteral("%1\n\n%2").arg(what, message);
        auto* box =
            new QMessageBox(QMessageBox::Warning, tr("HistLab"), text, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    return ExportResult::failure(message);
}

ExportResult JobPanel::succeed(const QString& path, const QString& message) {
    rememberFolder(path);
    setStatus(message);
    return ExportResult::success();
}

// Files ------------------------------------------------------------------------------------

QSettings JobPanel::settings() {
    return histlabSettings();
}

QString JobPanel::startPath(const QString& name) {
    QString folder = lastFolder();
    if (folder.isEmpty())
        folder = QDir::homePath();
    return QDir(folder).filePath(name);
}

QString JobPanel::chooseSaveFile(const QString& caption, const QString& start,
                                 const QString& filter) {
    return askSavePath(m_saveChooser, this, caption, start, filter);
}

QString JobPanel::chooseOpenFile(const QString& caption, const QString& filter) {
    return m_openChooser(this, caption, startPath({}), filter);
}

std::optional<QByteArray> JobPanel::readFile(const QString& path, ExportResult* failure) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *failure = fail(tr("%1: cannot be read (%2)").arg(path, file.errorString()));
        return std::nullopt;
    }
    return file.readAll();
}

QString JobPanel::fileBaseName(Output) const {
    return m_job.fileName;
}

QString JobPanel::outputFilter(Output kind) const {
    switch (kind) {
    case Output::Plot:
        return tr("PNG (*.png);;JPG (*.jpg);;PDF (*.pdf);;SVG (*.svg)");
    case Output::Json:
        return m_jsonFilter;
    case Output::Csv:
    case Output::Count:
        break;
    }
    return tr("CSV files (*.csv);;All files (*)");
}

void JobPanel::chooseExportPlot() {
    QCustomPlot* plot = m_plot;
    if (!plot || !hasPlot())
        return;
    const QString start = startPath(fileBaseName(Output::Plot) + QStringLiteral(".png"));
    if (m_plotDialog) {
        // Format, size and scale, then the file.
        auto* dialog =
            new ExportDialog(plot->size().expandedTo(m_plotMinimum), startPath({}), this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setFileChooser(m_saveChooser);
        dialog->setFilePath(start);
        connect(dialog, &QDialog::accepted, this,
                [this, dialog] { exportPlotTo(dialog->filePath(), dialog->options()); });
        dialog->open(); // window-modal, no nested event loop
        return;
    }
    const QString path =
        chooseSaveFile(m_outputs[int(Output::Plot)].caption, start, outputFilter(Output::Plot));
    if (path.isEmpty())
        return;
    PlotExportOptions options;
    options.format = plotFormatForFile(path).value_or(PlotFormat::Png);
    options.width = std::max(plot->width(), m_plotMinimum.width());
    options.height = std::max(plot->height(), m_plotMinimum.height());
    exportPlotTo(path, options);
}

void JobPanel::chooseSaveJson() {
    const QString path =
        chooseSaveFile(m_outputs[int(Output::Json)].caption,
                       startPath(fileBaseName(Output::Json) + QStringLiteral(".json")),
                       outputFilter(Output::Json));
    if (!path.isEmpty())
        saveJsonTo(path);
}

void JobPanel::chooseSaveCsv() {
    const QString path = chooseSaveFile(
        m_outputs[int(Output::Csv)].caption,
        startPath(fileBaseName(Output::Csv) + QStringLiteral(".csv")), outputFilter(Output::Csv));
    if (!path.isEmpty())
        saveCsvTo(path);
}

ExportResult JobPanel::exportPlotTo(const QString& path, const PlotExportOptions& options) {
    const QString what = tr("The plot was not exported.");
    if (!m_plot || !hasPlot())
        return fail(tr("%1: nothing to export yet (run the %2 first)").arg(path, m_job.name), what);
    const ExportResult result = exportPlot(*m_plot, path, options);
    if (!result.ok)
        return fail(result.message, what);
    return succeed(path, tr("Exported %1").arg(QDir::toNativeSeparators(path)));
}

ExportResult JobPanel::saveJsonTo(const QString& path) {
    return saveText(Output::Json, path);
}

ExportResult JobPanel::saveCsvTo(const QString& path) {
    return saveText(Output::Csv, path);
}

ExportResult JobPanel::saveText(Output kind, const QString& path) {
    const QString what = tr("The file was not saved.");
    if (!hasResult())
        return fail(tr("%1: nothing to save yet (run the %2 first)").arg(path, m_job.name), what);
    const TextWriter& writer = m_outputs[int(kind)].writer;
    QString why = tr("this tab writes no such file");
    const std::optional<std::string> text = writer ? writer(&why) : std::nullopt;
    if (!text)
        return fail(QStringLiteral("%1: %2").arg(path, why), what);
    const ExportResult result = writeFileSafely(path, QByteArray::fromStdString(*text));
    if (!result.ok)
        return fail(result.message, what);
    return succeed(path, tr("Saved %1").arg(QDir::toNativeSeparators(path)));
}

// Settings ---------------------------------------------------------------------------------

QString JobPanel::settingsKey(const QString& name) const {
    return m_job.lane + QLatin1Char('/') + name;
}

void JobPanel::remember(QSpinBox* spin, const QString& name) {
    const QString key = settingsKey(name);
    spin->setValue(settings().value(key, spin->value()).toInt());
    m_savers.push_back([spin, key](QSettings& s) { s.setValue(key, spin->value()); });
}

void JobPanel::remember(QDoubleSpinBox* spin, const QString& name) {
    const QString key = settingsKey(name);
    spin->setValue(settings().value(key, spin->value()).toDouble());
    m_savers.push_back([spin, key](QSettings& s) { s.setValue(key, spin->value()); });
}

void JobPanel::remember(QComboBox* combo, const QString& name) {
    const QString key = settingsKey(name);
    const int index = combo->findText(settings().value(key).toString());
    if (index >= 0)
        combo->setCurrentIndex(index);
    m_savers.push_back([combo, key](QSettings& s) { s.setValue(key, combo->currentText()); });
}

void JobPanel::remember(QCheckBox* check, const QString& name) {
    const QString key = settingsKey(name);
    check->setChecked(settings().value(key, check->isChecked()).toBool());
    m_savers.push_back([check, key](QSettings& s) { s.setValue(key, check->isChecked()); });
}

void JobPanel::remember(QLineEdit* edit, const QString& name) {
    const QString key = settingsKey(name);
    edit->setText(settings().value(key, edit->text()).toString());
    m_savers.push_back([edit, key](QSettings& s) { s.setValue(key, edit->text().trimmed()); });
}

void JobPanel::saveRemembered() const {
    QSettings s = settings();
    for (const auto& save : m_savers)
        save(s);
}

} // namespace histlab::ui
