#include "common/exportdialog.h"

#include "common/opendialog.h"
#include "common/settings.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>

#include <algorithm>

namespace histlab::ui {

namespace {

constexpr int kMaxSide = 16384;

QString filterFor(PlotFormat format) {
    switch (format) {
    case PlotFormat::Png:
        return QObject::tr("PNG image (*.png)");
    case PlotFormat::Jpg:
        return QObject::tr("JPEG image (*.jpg *.jpeg)");
    case PlotFormat::Pdf:
        return QObject::tr("PDF document (*.pdf)");
    case PlotFormat::Svg:
        return QObject::tr("SVG drawing (*.svg)");
    }
    return {};
}

} // namespace

QString lastFolder() {
    return histlabSettings().value(QStringLiteral("lastFolder")).toString();
}

void rememberFolder(const QString& file) {
    histlabSettings().setValue(QStringLiteral("lastFolder"), QFileInfo(file).absolutePath());
}

FileChooser nativeSaveFileChooser() {
    return [](QWidget* parent, const QString& caption, const QString& startPath,
              const QString& filter) {
        // The dialog adds the chosen filter's suffix itself, before it asks whether to replace
        // an existing file, so that "counts" confirms before counts.csv is overwritten.
        QFileDialog dialog(parent, caption, startPath, filter);
        dialog.setAcceptMode(QFileDialog::AcceptSave);
        showWholeColumns(&dialog);
        dialog.setDefaultSuffix(filterSuffix(filter));
        QObject::connect(
            &dialog, &QFileDialog::filterSelected, &dialog,
            [&dialog](const QString& chosen) { dialog.setDefaultSuffix(filterSuffix(chosen)); });
        if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
            return QString();
        return dialog.selectedFiles().constFirst();
    };
}

QString withDefaultSuffix(const QString& path, const QString& suffix) {
    if (path.isEmpty() || suffix.isEmpty() || !QFileInfo(path).suffix().isEmpty())
        return path;
    QString named = path;
    if (!named.endsWith(QLatin1Char('.')))
        named += QLatin1Char('.');
    return named + suffix;
}

QString filterSuffix(const QString& filter) {
    static const QRegularExpression pattern(QStringLiteral(R"(\*\.([A-Za-z0-9]+))"));
    const QRegularExpressionMatch match = pattern.match(filter);
    return match.hasMatch() ? match.captured(1) : QString();
}

QString askSavePath(const FileChooser& chooser, QWidget* parent, const QString& caption,
                    const QString& startPath, const QString& filter) {
    const QString chosen = chooser(parent, caption, startPath, filter);
    const QString proposed = QFileInfo(startPath).suffix();
    const QString named =
        withDefaultSuffix(chosen, proposed.isEmpty() ? filterSuffix(filter) : proposed);
    // Nobody was asked about replacing the file the added suffix names: then the name as given.
    return named != chosen && QFileInfo::exists(named) ? chosen : named;
}

FileChooser nativeOpenFileChooser() {
    return [](QWidget* parent, const QString& caption, const QString& startPath,
              const QString& filter) {
        QFileDialog dialog(parent, caption, startPath, filter);
        dialog.setFileMode(QFileDialog::ExistingFile);
        showWholeColumns(&dialog);
        if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
            return QString();
        return dialog.selectedFiles().constFirst();
    };
}

ExportDialog::ExportDialog(const QSize& plotSize, const QString& startFolder, QWidget* parent)
    : QDialog(parent)
    , m_startFolder(startFolder)
    , m_chooser(nativeSaveFileChooser())
    , m_format(new QComboBox)
    , m_width(new QSpinBox)
    , m_height(new QSpinBox)
    , m_scale(new QComboBox)
    , m_path(new QLineEdit)
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel)) {
    setWindowTitle(tr("Export Plot"));
    for (PlotFormat f : {PlotFormat::Png, PlotFormat::Jpg, PlotFormat::Pdf, PlotFormat::Svg})
        m_format->addItem(plotFormatName(f), int(f));
    for (QSpinBox* box : {m_width, m_height}) {
        box->setRange(16, kMaxSide);
        box->setSuffix(tr(" px"));
    }
    m_width->setValue(std::max(16, plotSize.width()));
    m_height->setValue(std::max(16, plotSize.height()));
    m_scale->addItem(tr("1x"), 1.0);
    m_scale->addItem(tr("2x"), 2.0);
    m_scale->setToolTip(tr("Raster formats only: 2x doubles the image's pixels"));

    auto* browseButton = new QPushButton(tr("Browse…"));
    auto* fileRow = new QHBoxLayout;
    m_path->setMinimumWidth(m_path->fontMetrics().averageCharWidth() * 48); // a whole path
    fileRow->addWidget(m_path, 1);
    fileRow->addWidget(browseButton);

    auto* form = new QFormLayout(this);
    form->addRow(tr("&Format:"), m_format);
    form->addRow(tr("&Width:"), m_width);
    form->addRow(tr("&Height:"), m_height);
    form->addRow(tr("S&cale:"), m_scale); // Alt+S is the Save button's
    auto* fileLabel = new QLabel(tr("File &name:"));
    fileLabel->setBuddy(m_path);
    form->addRow(fileLabel, fileRow);
    form->addRow(m_buttons);

    connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::formatChanged);
    connect(m_path, &QLineEdit::textChanged, this, &ExportDialog::updateOk);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    // The format and the folder of the last plot exported are offered again (a person who
    // exports SVGs to a folder of figures exports the next there too).
    connect(this, &QDialog::accepted, this, [this] {
        QSettings settings(QStringLiteral("HistLab"), QStringLiteral("HistLab"));
        settings.setValue(QStringLiteral("exportPlot/format"), plotFormatSuffix(options().format));
        settings.setValue(QStringLiteral("exportPlot/folder"),
                          QFileInfo(filePath()).absolutePath());
    });
    {
        QSettings settings(QStringLiteral("HistLab"), QStringLiteral("HistLab"));
        const QString suffix = settings.value(QStringLiteral("exportPlot/format")).toString();
        if (const auto format = plotFormatForFile(QStringLiteral("plot.") + suffix))
            m_format->setCurrentIndex(m_format->findData(int(*format)));
        m_exportFolder = settings.value(QStringLiteral("exportPlot/folder")).toString();
    }
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    formatChanged();
}

PlotExportOptions ExportDialog::options() const {
    PlotExportOptions o;
    o.format = PlotFormat(m_format->currentData().toInt());
    o.width = m_width->value();
    o.height = m_height->value();
    o.scale = isRasterFormat(o.format) ? m_scale->currentData().toDouble() : 1.0;
    return o;
}

void ExportDialog::setOptions(const PlotExportOptions& options) {
    m_format->setCurrentIndex(m_format->findData(int(options.format)));
    m_width->setValue(options.width);
    m_height->setValue(options.height);
    const int scale = m_scale->findData(options.scale);
    if (scale >= 0)
        m_scale->setCurrentIndex(scale);
}

QString ExportDialog::typedPath() const {
    return m_path->text().trimmed();
}

QString ExportDialog::filePath() const {
    return withDefaultSuffix(typedPath(), plotFormatSuffix(options().format));
}

void ExportDialog::setFilePath(const QString& path) {
    if (!isVisible() && !path.isEmpty()) {
        // The name proposed before the dialog shows: in the last export's folder and format.
        QFileInfo proposed(path);
        QString name = proposed.fileName();
        if (!m_exportFolder.isEmpty() && QFileInfo(m_exportFolder).isDir())
            proposed = QFileInfo(QDir(m_exportFolder).filePath(name));
        const QString suffix = plotFormatSuffix(options().format);
        if (plotFormatForFile(path) && proposed.suffix() != suffix)
            name = proposed.completeBaseName() + QLatin1Char('.') + suffix;
        m_path->setText(QDir(proposed.path()).filePath(name));
        return;
    }
    m_path->setText(path);
    // A known suffix picks the format, so that "plot.svg" is not written as a PNG.
    if (const auto format = plotFormatForFile(path))
        m_format->setCurrentIndex(m_format->findData(int(*format)));
}

void ExportDialog::browse() {
    const PlotFormat format = options().format;
    QString start = typedPath();
    if (start.isEmpty())
        start = QDir(m_startFolder).filePath(tr("histogram.%1").arg(plotFormatSuffix(format)));
    const QString chosen =
        askSavePath(m_chooser, this, tr("Export Plot"), start, filterFor(format));
    if (!chosen.isEmpty())
        setFilePath(chosen);
}

void ExportDialog::formatChanged() {
    const PlotFormat format = options().format;
    m_scale->setEnabled(isRasterFormat(format));
    // Keep the file's suffix in step with the format.
    const QString path = typedPath();
    if (!path.isEmpty() && plotFormatForFile(path) != format) {
        const QFileInfo info(path);
        const QString base =
            info.suffix().isEmpty() ? path : path.left(path.size() - info.suffix().size() - 1);
        m_path->setText(base + QLatin1Char('.') + plotFormatSuffix(format));
    }
    updateOk();
}

void ExportDialog::updateOk() {
    m_buttons->button(QDialogButtonBox::Save)->setEnabled(!typedPath().isEmpty());
}

} // namespace histlab::ui
