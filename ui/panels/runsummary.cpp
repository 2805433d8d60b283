#include "panels/runsummary.h"

#include "common/theme.h"
#include "panels/resulttable.h"
#include "views/tablecopy.h"

#include <pipelines/largebin/imagehistogram.h>

#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QStringList>
#include <QToolButton>
#include <QVBoxLayout>

namespace histlab::ui {

namespace {

/// A large-bin run's channels one after another: their medians and bytes add up; each channel
/// that did not verify, with its status.
struct LargeBinsTotals {
    double ms = 0, bytes = 0;
    QStringList problems;
};

LargeBinsTotals largeBinsTotals(const ImageBinsRun& run) {
    LargeBinsTotals t;
    for (const ImageChannelBins& c : run.results) {
        t.ms += c.point.stats.medianMs;
        t.bytes += double(c.point.bytes);
        if (c.point.status != Status::Verified)
            t.problems << QStringLiteral("%1 %2").arg(
                QString::fromStdString(c.name),
                QString::fromStdString(statusText(c.point.status, c.point.detail)));
    }
    return t;
}

/// A label that wraps within the width it is given and never widens its column.
QLabel* wrappingLabel() {
    auto* label = new QLabel;
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    return label;
}

QString channelNames(const std::vector<std::string>& names) {
    QStringList shown;
    for (const std::string& name : names)
        shown << (name == "gray" ? QStringLiteral("gray") : QString::fromStdString(name).toUpper());
    return shown.join(QStringLiteral(", "));
}

QString deviceWords(const DeviceInfo& device) {
    const QString type = device.type == DeviceType::Cpu ? QStringLiteral("CPU")
                         : device.type == DeviceType::Gpu
                             ? QStringLiteral("GPU")
                             : QString::fromLatin1(deviceTypeName(device.type));
    return RunSummary::tr("%1 (%2)").arg(QString::fromStdString(device.name), type);
}

QString pixelsWords(int width, int height) {
    return RunSummary::tr("%1 × %2 pixels").arg(width).arg(height);
}

QString medianOf(const TimingStats& stats) {
    const qsizetype runs = stats.samplesMs.size();
    return runs == 1 ? RunSummary::tr("one run") : RunSummary::tr("median of %1 runs").arg(runs);
}

QString regionPrefix(const ImageAnalysis& analysis) {
    if (!analysis.region)
        return {};
    const Region& r = *analysis.region;
    return RunSummary::tr("Region %1,%2 %3×%4: ").arg(r.x).arg(r.y).arg(r.width).arg(r.height);
}

/// The speed line while the timing is not there: counted and shown, timed next or not at all.
QString untimedWords(const QString& timingNote) {
    if (timingNote.contains(QLatin1String("cancel")))
        return RunSummary::tr("timing cancelled (Run › Run Again, F5, times it)");
    return RunSummary::tr("timing the kernel…");
}

RunSummary::Content summarizeHistogram(const ImageAnalysis& analysis, const QString& timingNote) {
    const HistogramRun& run = analysis.run;
    RunSummary::Content c;
    std::vector<std::string> names;
    for (const ChannelHistogram& h : run.histograms)
        names.push_back(h.name);
    c.what = regionPrefix(analysis) + RunSummary::tr("256-bin histograms of %1 (%2) · %3")
                                          .arg(pixelsWords(run.width, run.height),
                                               channelNames(names), deviceWords(run.device));
    const bool timed = timingNote.isEmpty() && !run.passes.empty();
    if (timed) {
        const PassTiming& pass = run.passes.front(); // the channels' histogram pass
        c.speed = RunSummary::tr("%1 ms · %2 GB/s (%3)")
                      .arg(msText(pass.stats.medianMs), gbpsText(pass.gbps), medianOf(pass.stats));
        if (run.ceiling.gbps > 0) {
            c.note = RunSummary::tr("%1 % of this device's best read speed (%2 GB/s, a "
                                    "read-only kernel on the same bytes)")
                         .arg(pass.percentOfCeiling, 0, 'f', 0)
                         .arg(gbpsText(run.ceiling.gbps));
            // Small inputs are launch-bound: a low share there is no failure of the kernel.
            c.note += run.bytes < kSmallInputBytes
                          ? RunSummary::tr(": expected for a small input (%1), where launching "
                                           "costs more than reading; from about 16 MiB on it "
                                           "is the kernel's real speed.")
                                .arg(QLocale().formattedDataSize(qint64(run.bytes), 1))
                          : QStringLiteral(".");
        }
    } else {
        c.speed = untimedWords(timingNote);
    }
    if (!run.verified) {
        c.check = RunSummary::Check::NotChecked;
        c.checkText = RunSummary::tr("not checked against the CPU");
    } else if (*run.verified) {
        c.check = RunSummary::Check::Verified;
        c.checkText = RunSummary::tr("verified: the CPU counts the same");
    } else {
        c.check = RunSummary::Check::Mismatch;
        c.checkText = RunSummary::tr("differs from the CPU's count: %1")
                          .arg(QString::fromStdString(run.verifyDetail));
    }
    c.details = describeRun(run) + QStringLiteral("\n\n") + describePasses(run);
    return c;
}

RunSummary::Content summarizeLargeBins(const ImageAnalysis& analysis) {
    const ImageBinsRun& run = *analysis.largeBins;
    RunSummary::Content c;
    std::vector<std::string> names;
    for (const ImageChannelBins& channel : run.results)
        names.push_back(channel.name);
    const int bins = run.results.empty() ? 0 : int(run.results.front().spec.bins);
    const QString method =
        run.results.empty()
            ? QString()
            : QString::fromLatin1(largeBinMethodName(run.results.front().point.method));
    c.what = regionPrefix(analysis) +
             RunSummary::tr("%1-bin histograms of %2 (%3) · %4 "
                            "· %5 method")
                 .arg(groupedCount(quint64(bins)), pixelsWords(run.width, run.height),
                      channelNames(names), deviceWords(run.device), method);
    const auto [ms, bytes, problems] = largeBinsTotals(run);
    if (ms > 0 && !run.results.empty())
        c.speed = RunSummary::tr("%1 ms · %2 GB/s (%3)")
                      .arg(msText(ms), gbpsText(bytes / ms / 1e6),
                           medianOf(run.results.front().point.stats));
    if (problems.isEmpty()) {
        c.check = RunSummary::Check::Verified;
        c.checkText = RunSummary::tr("verified: the CPU counts the same");
    } else {
        c.check = RunSummary::Check::Mismatch;
        c.checkText = RunSummary::tr("%1; the plot shows the CPU's count")
                          .arg(problems.join(QStringLiteral("; ")));
    }
    c.details = describeLargeBins(run) + QStringLiteral("\n\n") +
                QString::fromStdString(imageBinsText(run));
    return c;
}

} // namespace

QString describeRun(const HistogramRun& run) {
    QStringList parts;
    parts << QString::fromStdString(run.device.name);
    parts << QString::fromStdString(run.config.describe());
    if (!run.passes.empty()) {
        const PassTiming& pass = run.passes.front(); // the channels' histogram pass
        parts << QStringLiteral("median %1 ms").arg(pass.stats.medianMs, 0, 'f', 3);
        parts << QStringLiteral("%1 GB/s").arg(pass.gbps, 0, 'f', 2);
        parts << QStringLiteral("%1 % of read-only ceiling").arg(pass.percentOfCeiling, 0, 'f', 1);
    }
    if (!run.verified)
        parts << QStringLiteral("not checked");
    else if (*run.verified)
        parts << QStringLiteral("verified");
    else
        parts << QStringLiteral("MISMATCH: %1").arg(QString::fromStdString(run.verifyDetail));
    return parts.join(QStringLiteral(" · "));
}

QString describeLargeBins(const ImageBinsRun& run) {
    QStringList parts;
    parts << QString::fromStdString(run.device.name);
    if (run.results.empty())
        return parts.join(QStringLiteral(" · "));
    const ImageChannelBins& first = run.results.front();
    parts << QStringLiteral("%1 bins, %2")
                 .arg(QString::number(first.spec.bins),
                      QString::fromLatin1(largeBinMethodName(first.point.method)));
    const auto [ms, bytes, problems] = largeBinsTotals(run);
    if (ms > 0) {
        parts << QStringLiteral("median %1 ms").arg(ms, 0, 'f', 3);
        parts << QStringLiteral("%1 GB/s").arg(bytes / ms / 1e6, 0, 'f', 2);
    }
    if (problems.isEmpty())
        parts << QStringLiteral("verified");
    else
        parts << problems.join(QStringLiteral("; ")) +
                     QStringLiteral(" (the plot shows the CPU reference)");
    return parts.join(QStringLiteral(" · "));
}

QString describePasses(const HistogramRun& run) {
    QStringList lines;
    lines << QStringLiteral("%1 [%2], %3")
                 .arg(QString::fromStdString(run.device.name),
                      QString::fromLatin1(deviceTypeName(run.device.type)),
                      QString::fromStdString(run.device.platformName));
    lines << QStringLiteral("%1 (%2)").arg(QString::fromStdString(run.config.describe()),
                                           QString::fromStdString(run.config.chosenBy));
    auto row = [&](const QString& what, const TimingStats& stats, double gbps, double percent) {
        lines << QStringLiteral("%1: median %2 ms, min %3 ms, %4 GB/s, %5 % of read-only")
                     .arg(what)
                     .arg(stats.medianMs, 0, 'f', 3)
                     .arg(stats.minMs, 0, 'f', 3)
                     .arg(gbps, 0, 'f', 2)
                     .arg(percent, 0, 'f', 1);
    };
    for (const PassTiming& pass : run.passes)
        row(QString::fromStdString(pass.what), pass.stats, pass.gbps, pass.percentOfCeiling);
    if (!run.passes.empty())
        row(QStringLiteral("read-only ceiling (%1)")
                .arg(QString::fromStdString(run.ceiling.kernel)),
            run.ceiling.stats, run.ceiling.gbps, 100.0);
    for (const std::string& note : run.notes)
        lines << QString::fromStdString(note);
    return lines.join(QLatin1Char('\n'));
}

RunSummary::Content summarizeAnalysis(const ImageAnalysis& analysis, const QString& timingNote) {
    return analysis.largeBins ? summarizeLargeBins(analysis)
                              : summarizeHistogram(analysis, timingNote);
}

RunSummary::RunSummary(QWidget* parent)
    : QWidget(parent)
    , m_what(wrappingLabel())
    , m_speed(wrappingLabel())
    , m_note(wrappingLabel())
    , m_details(wrappingLabel())
    , m_detailsButton(new QToolButton) {
    setObjectName(QStringLiteral("runSummary"));
    m_what->setObjectName(QStringLiteral("runSummaryWhat"));
    m_speed->setObjectName(QStringLiteral("runSummarySpeed"));
    m_note->setObjectName(QStringLiteral("runSummaryNote"));
    m_details->setObjectName(QStringLiteral("runSummaryDetails"));
    m_speed->setTextFormat(Qt::RichText);
    greyNote();
    m_details->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_details->setTextFormat(Qt::PlainText);
    m_details->setVisible(false);
    m_detailsButton->setText(tr("Details"));
    m_detailsButton->setCheckable(true);
    m_detailsButton->setAutoRaise(true);
    m_detailsButton->setArrowType(Qt::RightArrow);
    m_detailsButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_detailsButton->setToolTip(tr("The kernel's configuration and why it was chosen, each "
                                   "pass and the read-only ceiling, with their medians"));
    m_detailsButton->setEnabled(false);
    connect(m_detailsButton, &QToolButton::toggled, this, [this](bool open) {
        m_detailsButton->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        m_details->setVisible(open && !m_content.details.isEmpty());
    });

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    top->addWidget(m_what, 1);
    top->addWidget(m_detailsButton, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_speed);
    layout->addWidget(m_note);
    layout->addWidget(m_details);
    clear();
}

void RunSummary::greyNote() {
    QPalette grey = palette();
    grey.setColor(QPalette::WindowText, grey.color(QPalette::PlaceholderText));
    m_note->setPalette(grey);
}

void RunSummary::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) { // a theme: the grey and the colours again
        greyNote();
        if (m_content.what.isEmpty())
            clear();
        else
            setContent(Content(m_content));
    }
}

void RunSummary::setContent(const Content& content) {
    m_content = content;
    m_what->setText(content.what);
    QString speed = content.speed.toHtmlEscaped();
    if (content.check != Check::None) {
        const QString mark = content.check == Check::Verified   ? QStringLiteral("✓ ")
                             : content.check == Check::Mismatch ? QStringLiteral("✗ ")
                                                                : QString();
        // Green and red readable on the palette's background, light or dark.
        const bool dark = isDark(palette());
        const QString colour =
            content.check == Check::Verified   ? QString::fromLatin1(dark ? "#56d364" : "#1a7f37")
            : content.check == Check::Mismatch ? QString::fromLatin1(dark ? "#ff7b72" : "#c62828")
                                               : QString();
        QString check = (mark + content.checkText).toHtmlEscaped();
        if (!colour.isEmpty())
            check = QStringLiteral("<span style=\"color:%1\">%2</span>").arg(colour, check);
        speed = speed.isEmpty() ? check : speed + QStringLiteral(" · ") + check;
    }
    m_speed->setText(speed);
    m_speed->setVisible(!speed.isEmpty());
    m_note->setText(content.note);
    m_note->setVisible(!content.note.isEmpty());
    m_details->setText(content.details);
    m_details->setVisible(m_detailsButton->isChecked() && !content.details.isEmpty());
    m_detailsButton->setEnabled(!content.details.isEmpty());
}

void RunSummary::showWorking(const QString& text) {
    Content content;
    content.what = text;
    setContent(content);
}

void RunSummary::clear() {
    setContent({});
    m_what->setText(tr("No run yet: open an image to count its histograms."));
}

QString RunSummary::text() const {
    QString speed = m_content.speed;
    if (m_content.check != Check::None)
        speed += (speed.isEmpty() ? QString() : QStringLiteral(" · ")) + m_content.checkText;
    QStringList lines{m_what->text(), speed, m_content.note};
    lines.removeAll(QString());
    return lines.join(QLatin1Char('\n'));
}

} // namespace histlab::ui
