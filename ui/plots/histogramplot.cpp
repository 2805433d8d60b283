#include "plots/histogramplot.h"
#include "common/settings.h"

#include "common/theme.h"
#include "plots/plotstyle.h"
#include "views/tablecopy.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QFontMetrics>
#include <QLocale>
#include <QMenu>
#include <QSettings>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace histlab::ui {

namespace {
// The channel (and whether the graph is the cumulative overlay) is kept on each graph so it can
// be found again; the legend shows a label.
const char* kChannelProperty = "histlabChannel";
const char* kCumulativeProperty = "histlabCumulative";

QString channelLabel(const QString& channel) {
    return channel == QLatin1String("gray") ? QStringLiteral("gray") : channel.toUpper();
}

/// Each bin's lower edge.
QVector<double> binKeys(const HistogramPlot::Series& h) {
    QVector<double> keys(qsizetype(h.counts.size()));
    const double w = h.binWidth();
    for (qsizetype i = 0; i < keys.size(); ++i)
        keys[i] = h.lo + double(i) * w;
    return keys;
}

/// Byte values read best in steps of 32 (and multiples of it when zoomed out); other ranges
/// get QCustomPlot's usual ticks.
QSharedPointer<QCPAxisTicker> tickerFor(bool bytes) {
    if (!bytes)
        return QSharedPointer<QCPAxisTicker>::create();
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(32);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    ticker->setTickCount(8);
    return ticker;
}

QString countText(std::uint64_t count) {
    return groupedCount(count);
}

/// The one value a bin holds, when it is a whole number in a bin of width 1 (a byte's or a
/// 16-bit value's bin); otherwise the bin is named by its range.
/// A boxed note over the plot, its `corner` at `at` (fractions of the axis rect), hidden
/// until there is something to say.
QCPItemText* addNote(QCustomPlot* plot, const QPointF& at, Qt::Alignment corner) {
    auto* note = new QCPItemText(plot);
    note->setLayer(QStringLiteral("overlay"));
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setCoords(at);
    note->setPositionAlignment(corner);
    note->setTextAlignment(Qt::AlignLeft);
    note->setBrush(QColor(255, 255, 255, 200));
    note->setPadding(QMargins(5, 3, 5, 3));
    note->setSelectable(false);
    note->setVisible(false);
    return note;
}

/// Every sample a histogram counts.
std::uint64_t totalOf(const std::vector<std::uint64_t>& counts) {
    return std::accumulate(counts.begin(), counts.end(), std::uint64_t(0));
}

std::optional<qint64> binValue(const HistogramPlot::Series& h, std::size_t bin) {
    const double w = h.binWidth(), lo = h.lo + double(bin) * w;
    if (w == 1 && lo == std::floor(lo))
        return qint64(lo);
    return std::nullopt;
}

/// A bin as the notes name it: its value or its range.
QString binName(const HistogramPlot::Series& h, std::size_t bin) {
    if (const auto v = binValue(h, bin))
        return QString::number(*v);
    const double w = h.binWidth(), lo = h.lo + double(bin) * w;
    return QStringLiteral("%1 to %2").arg(lo, 0, 'g', 6).arg(lo + w, 0, 'g', 6);
}

} // namespace

HistogramPlot::HistogramPlot(QWidget* parent)
    : QCustomPlot(parent) {
    xAxis->setLabel(tr("value"));
    yAxis->setLabel(tr("count"));
    yAxis2->setLabel(tr("cumulative %"));
    yAxis2->setRange(0, 100);
    xAxis->setRange(0, 255);
    yAxis->setRange(0, 1);
    xAxis->setTicker(tickerFor(true));
    spaceTicksByLabelWidth(xAxis); // 16-bit values' labels stay apart, zoomed or narrow
    // Translucent, so that the curves show through; dragged, where it was dropped is remembered.
    showSmallLegend(this, [this] { saveSettings(); });
    legend->setVisible(false); // until there are histograms (rebuild)
    axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    // The wheel and drags act on the value axis; the count axis follows what is in view
    // (zooming it too cut the curves off, worst on the logarithmic axis).
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    axisRect()->setRangeDrag(Qt::Horizontal);
    axisRect()->setRangeZoom(Qt::Horizontal);
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        if (!m_fitting)
            fitCountAxis();
    });
    setMinimumSize(320, 240);
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus); // Esc ends a value selection
    setStatusTip(tr("Right-click for options; click a legend entry to show or hide a channel, "
                    "drag the legend to move it"));
    connect(this, &QCustomPlot::legendClick, this, &HistogramPlot::onLegendClick);
    connect(this, &HistogramPlot::optionsChanged, this, &HistogramPlot::saveSettings);

    m_marker = new QCPItemStraightLine(this);
    m_marker->setPen(QPen(QColor(0, 0, 0, 140), 1, Qt::DashLine));
    m_marker->setSelectable(false);
    m_marker->setVisible(false);
    m_readout = new QCPItemText(this);
    m_readout->setLayer(QStringLiteral("overlay"));
    m_readout->setClipToAxisRect(false);
    m_readout->position->setType(QCPItemPosition::ptAbsolute);
    m_readout->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_readout->setTextAlignment(Qt::AlignLeft);
    m_readout->setPadding(QMargins(6, 4, 6, 4));
    m_readout->setBrush(QColor(255, 255, 240, 235));
    m_readout->setPen(QPen(QColor(0, 0, 0, 120)));
    m_readout->setSelectable(false);
    m_readout->setVisible(false);
    m_clipText = new QCPItemText(this);
    m_clipText->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_clipText->position->setCoords(0.01, 0.01);
    m_clipText->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_clipText->setColor(QColor(160, 40, 40));
    m_clipText->setBrush(QColor(255, 255, 255, 170));
    m_clipText->setPadding(QMargins(4, 2, 4, 2));
    m_clipText->setSelectable(false);
    m_clipText->setVisible(false);
    // The selected values: shaded over the whole height, and a note.
    m_selectionRect = new QCPItemRect(this);
    m_selectionRect->setLayer(QStringLiteral("background"));
    m_selectionRect->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_selectionRect->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_selectionRect->setPen(QPen(QColor(30, 90, 200, 160), 1));
    m_selectionRect->setBrush(QColor(30, 90, 200, 45));
    m_selectionRect->setSelectable(false);
    m_selectionRect->setVisible(false);
    m_selectionNote = addNote(this, QPointF(0.99, 0.99), Qt::AlignRight | Qt::AlignBottom);
    m_selectionNote->setColor(QColor(20, 60, 150));
    m_selectionNote->setPen(QPen(QColor(30, 90, 200, 120)));
    m_comparisonNote = addNote(this, QPointF(0.01, 0.01), Qt::AlignLeft | Qt::AlignTop);
    m_comparisonNote->setFont(QFont(font().family(), 8));
    m_comparisonNote->setPen(QPen(QColor(0, 0, 0, 90)));
    // The legend, then the notes, each where it covers the fewest curve pixels, stacked without
    // covering one another (placed again at each replot).
    placeOverlays(this, {m_comparisonNote, m_clipText, m_selectionNote});
}

QColor HistogramPlot::channelColor(const QString& channel) {
    if (channel == QLatin1String("r"))
        return {214, 39, 40};
    if (channel == QLatin1String("g"))
        return {44, 160, 44};
    if (channel == QLatin1String("b"))
        return {31, 119, 180};
    if (channel == QLatin1String("a"))
        return {148, 103, 189};
    // Gray: dark on a light background, light on a dark one.
    return isDark(QApplication::palette()) ? QColor(200, 200, 200) : QColor(64, 64, 64);
}

void HistogramPlot::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() == QEvent::PaletteChange ||
        event->type() == QEvent::ApplicationPaletteChange) {
        rebuild(); // the gray channel's colour follows the palette
        replot(rpQueuedReplot);
    }
}

void HistogramPlot::setHistograms(const std::vector<ChannelHistogram>& histograms) {
    std::vector<Series> series;
    series.reserve(histograms.size());
    for (const ChannelHistogram& h : histograms)
        series.push_back(
            {h.name, 0, 256, std::vector<std::uint64_t>(h.counts.begin(), h.counts.end())});
    setHistograms(std::move(series));
}

void HistogramPlot::setHistograms(std::vector<Series> histograms) {
    m_histograms = std::move(histograms);
    rebuild();
    showAll();         // a new image: all of it (the options stay as they were)
    if (m_selection) { // kept over a new region or image: its counts are new
        showSelection();
        emit valueRangeChanged();
    }
}

void HistogramPlot::showAll() {
    showRange(false);
}

void HistogramPlot::showRange(bool whole) {
    double lo = 0, hi = 255;
    bool bytes = true, any = false;
    for (const Series& h : m_histograms) {
        if (h.counts.empty())
            continue;
        // The occupied bins (a 12-bit image in 65,536 bins fills the first 4,096), or all.
        std::size_t first = 0, last = h.counts.size() - 1;
        if (!whole) {
            while (first < last && h.counts[first] == 0)
                ++first;
            while (last > first && h.counts[last] == 0)
                --last;
        }
        const double a = h.lo + h.binWidth() * double(first);
        const double b = h.lo + h.binWidth() * double(last);
        lo = any ? std::min(lo, a) : a;
        hi = any ? std::max(hi, b) : b;
        any = true;
        bytes = bytes && h.lo == 0 && h.hi == 256 && h.counts.size() == 256;
    }
    if (bytes && !whole) { // byte values: always 0 ... 255, as before
        lo = 0;
        hi = 255;
    }
    const double pad = bytes ? 0 : (hi - lo) * 0.02;
    xAxis->setTicker(tickerFor(bytes));
    m_fitting = true;
    xAxis->setRange(lo - pad, hi > lo ? hi + pad : lo + 1);
    m_fitting = false;
    fitCountAxis();
}

std::uint64_t HistogramPlot::peakIn(double lo, double hi, QString* note) const {
    struct Spike {
        QString channel;
        std::size_t bin;
        std::uint64_t count;
        const Series* series;
    };
    std::vector<Spike> spikes;
    std::uint64_t peak = 0;
    for (const Series& h : m_histograms) {
        const QString channel = QString::fromStdString(h.name);
        if (h.counts.empty() || !channelVisible(channel))
            continue;
        // The bins drawn in [lo, hi] (each at its lower edge), one more either side.
        const double w = h.binWidth();
        const double a = std::floor((lo - h.lo) / w) - 1, b = std::ceil((hi - h.lo) / w) + 1;
        const std::size_t n = h.counts.size();
        if (b < 0 || a >= double(n))
            continue;
        const std::size_t first = a < 0 ? 0 : std::size_t(a);
        const std::size_t last = std::min(n - 1, std::size_t(b));
        std::size_t mode = first;
        for (std::size_t i = first; i <= last; ++i)
            if (h.counts[i] > h.counts[mode])
                mode = i;
        std::uint64_t second = 0;
        for (std::size_t i = first; i <= last; ++i)
            if (i != mode)
                second = std::max(second, h.counts[i]);
        std::uint64_t top = h.counts[mode];
        // ImageJ's rule for its threshold and contrast histograms: a bin more than twice the
        // second-highest is drawn to 1.5 times that one.
        if (m_clipSpikes && second > 0 && top > 2 * second) {
            spikes.push_back({channel, mode, top, &h});
            top = second + (second + 1) / 2;
        }
        peak = std::max(peak, top);
        // The reference, drawn scaled to this channel's pixels, in view too (unclipped).
        if (const Series* matching = matchingReference(h)) {
            const Series& r = *matching;
            const std::uint64_t shown = totalOf(h.counts), pinned = totalOf(r.counts);
            std::uint64_t highest = 0;
            for (std::size_t i = first; i <= last; ++i)
                highest = std::max(highest, r.counts[i]);
            if (pinned)
                peak = std::max(peak, std::uint64_t(std::ceil(double(highest) * double(shown) /
                                                              double(pinned))));
        }
    }
    if (note) {
        QStringList cut;
        for (const Spike& s : spikes)
            if (s.count > peak)
                cut << tr("%1 at %2 (%3)")
                           .arg(channelLabel(s.channel), binName(*s.series, s.bin),
                                countText(s.count));
        *note = cut.isEmpty() ? QString() : tr("clipped: %1").arg(cut.join(QStringLiteral(", ")));
    }
    return peak;
}

void HistogramPlot::fitCountAxis() {
    QString note;
    const std::uint64_t peak =
        m_histograms.empty() ? 0 : peakIn(xAxis->range().lower, xAxis->range().upper, &note);
    m_fitting = true;
    if (m_log && m_histograms.empty()) // nothing yet: one clean decade, not ticks squeezed below 2
        yAxis->setRange(1.0, 10.0);
    else if (m_log)
        yAxis->setRange(0.5, std::max<double>(2.0, double(peak) * 2.0));
    else
        yAxis->setRange(0, std::max<double>(1.0, double(peak) * 1.05));
    m_fitting = false;
    m_clipText->setText(note);
    m_clipText->setVisible(!note.isEmpty());
    replot(rpQueuedReplot);
}

QString HistogramPlot::clipNote() const {
    return m_clipText->visible() ? m_clipText->text() : QString();
}

void HistogramPlot::clearHistograms() {
    m_histograms.clear();
    hideHover();
    showSelection();
    rebuild();
    fitCountAxis();
}

void HistogramPlot::rebuild() {
    clearGraphs();
    bool cumulativeInLegend = false, referenceInLegend = false;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const auto& h : m_histograms) {
        const QVector<double> keys = binKeys(h);
        const QString channel = QString::fromStdString(h.name);
        const bool visible = channelVisible(channel);
        const qsizetype n = keys.size();
        QVector<double> values(n), cumulative(n);
        const std::uint64_t total = totalOf(h.counts);
        std::uint64_t running = 0;
        for (qsizetype i = 0; i < n; ++i) {
            // A logarithmic axis cannot show 0: empty bins become gaps.
            values[i] = (m_log && h.counts[i] == 0) ? nan : double(h.counts[i]);
            running += h.counts[i];
            cumulative[i] = total ? 100.0 * double(running) / double(total) : 0.0;
        }
        const QColor colour = channelColor(channel);
        QCPGraph* g = addGraph();
        g->setName(channelLabel(channel));
        g->setProperty(kChannelProperty, channel);
        QPen pen(colour, 1.5);
        if (channel == QLatin1String("a"))
            pen.setStyle(Qt::DashLine);
        g->setPen(pen);
        if (m_style == Style::Bars) {
            g->setLineStyle(QCPGraph::lsStepCenter);
            QColor fill = colour;
            fill.setAlpha(60);
            g->setBrush(fill);
        } else {
            g->setLineStyle(QCPGraph::lsLine);
            g->setBrush(Qt::NoBrush);
        }
        g->setData(keys, values, true);
        g->setVisible(visible);
        if (!visible) // the legend entry stays, greyed, so it can be clicked back on
            if (auto* item = legend->itemWithPlottable(g))
                item->setTextColor(Qt::gray);
        const Series* reference = matchingReference(h);
        if (reference && visible && total > 0) {
            // Scaled to this channel's pixels: two regions of different sizes overlay by shape.
            const std::uint64_t referenceTotal = totalOf(reference->counts);
            const double scale = referenceTotal ? double(total) / double(referenceTotal) : 0.0;
            QVector<double> scaled(n);
            for (qsizetype i = 0; i < n; ++i) {
                const double v = double(reference->counts[std::size_t(i)]) * scale;
                scaled[i] = (m_log && v == 0) ? nan : v;
            }
            QCPGraph* r = addGraph();
            QColor dim = colour;
            dim.setAlpha(170);
            r->setPen(QPen(dim, 1.2, Qt::DashLine));
            r->setLineStyle(m_style == Style::Bars ? QCPGraph::lsStepCenter : QCPGraph::lsLine);
            r->setData(keys, scaled, true);
            // One legend entry for every channel's reference, as for the cumulative overlay.
            if (referenceInLegend)
                r->removeFromLegend();
            else
                r->setName(tr("reference (dashed, scaled)"));
            referenceInLegend = true;
        }
        if (m_cumulative && visible) {
            QCPGraph* c = addGraph(xAxis, yAxis2);
            c->setName(channelLabel(channel) + tr(" cumulative"));
            c->setProperty(kChannelProperty, channel);
            c->setProperty(kCumulativeProperty, true);
            QPen cpen(colour, 1.0, Qt::DotLine);
            c->setPen(cpen);
            c->setData(keys, cumulative, true);
            // One legend entry stands for every channel's overlay (each in its channel's
            // colour, dotted).
            if (cumulativeInLegend)
                c->removeFromLegend();
            else
                c->setName(tr("cumulative % (dotted, right axis)"));
            cumulativeInLegend = true;
        }
    }
    yAxis2->setVisible(m_cumulative);
    legend->setVisible(!m_histograms.empty()); // no stray empty box before the first image
    const QString comparison = comparisonText();
    m_comparisonNote->setText(comparison);
    m_comparisonNote->setVisible(!comparison.isEmpty() && !m_histograms.empty());
}

void HistogramPlot::setReference(std::vector<Series> reference, const QString& label) {
    m_reference = std::move(reference);
    m_referenceLabel = label;
    rebuild();
    fitCountAxis(); // the reference may stand higher
}

void HistogramPlot::clearReference() {
    m_reference.clear();
    m_referenceLabel.clear();
    rebuild();
    fitCountAxis();
}

const HistogramPlot::Series* HistogramPlot::matchingReference(const Series& shown) const {
    for (const Series& r : m_reference)
        if (r.name == shown.name && r.counts.size() == shown.counts.size() && r.lo == shown.lo &&
            r.hi == shown.hi)
            return &r;
    return nullptr;
}

std::optional<HistogramDistances> HistogramPlot::distanceTo(const QString& channel) const {
    for (const Series& shown : m_histograms)
        if (QString::fromStdString(shown.name) == channel)
            if (const Series* reference = matchingReference(shown))
                return compareHistograms(reference->counts, shown.counts);
    return std::nullopt;
}

QString HistogramPlot::comparisonText() const {
    if (m_reference.empty())
        return {};
    QString text = tr("against %1 (compareHist):").arg(m_referenceLabel);
    for (const Series& h : m_histograms) {
        const QString channel = QString::fromStdString(h.name);
        if (!channelVisible(channel))
            continue;
        if (const auto d = distanceTo(channel)) {
            text += tr("\n%1: χ² %2 · intersection %3 · Bhattacharyya %4 · correlation %5")
                        .arg(channelLabel(channel))
                        .arg(d->chiSquare, 0, 'f', 3)
                        .arg(d->intersection, 0, 'f', 3)
                        .arg(d->bhattacharyya, 0, 'f', 3)
                        .arg(d->correlation, 0, 'f', 3);
            continue;
        }
        const auto other = std::find_if(m_reference.begin(), m_reference.end(),
                                        [&](const Series& r) { return r.name == h.name; });
        text += other == m_reference.end()
                    ? tr("\n%1: not in the reference").arg(channelLabel(channel))
                    : tr("\n%1: not comparable (%2 bins over %3 … %4 against %5 over %6 … %7)")
                          .arg(channelLabel(channel))
                          .arg(other->counts.size())
                          .arg(other->lo)
                          .arg(other->hi)
                          .arg(h.counts.size())
                          .arg(h.lo)
                          .arg(h.hi);
    }
    return text;
}

void HistogramPlot::setStyle(Style style) {
    if (style == m_style)
        return;
    m_style = style;
    rebuild();
    replot(rpQueuedReplot);
    emit optionsChanged();
}

void HistogramPlot::setLogScale(bool on) {
    if (on == m_log)
        return;
    m_log = on;
    if (on) {
        yAxis->setScaleType(QCPAxis::stLogarithmic);
        yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
    } else {
        yAxis->setScaleType(QCPAxis::stLinear);
        yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    }
    rebuild();
    fitCountAxis(); // the count axis's range suits the new scale; the values in view stay
    emit optionsChanged();
}

void HistogramPlot::setClipSpikes(bool on) {
    if (on == m_clipSpikes)
        return;
    m_clipSpikes = on;
    fitCountAxis();
    emit optionsChanged();
}

void HistogramPlot::setCumulative(bool on) {
    if (on == m_cumulative)
        return;
    m_cumulative = on;
    rebuild();
    replot(rpQueuedReplot);
    emit optionsChanged();
}

void HistogramPlot::setChannelVisible(const QString& channel, bool visible) {
    if (visible == channelVisible(channel))
        return;
    if (visible)
        m_hidden.remove(channel);
    else
        m_hidden.insert(channel);
    rebuild();
    fitCountAxis();    // the highest visible bin may have changed
    if (m_selection) { // the note lists the visible channels
        showSelection();
        emit valueRangeChanged();
    }
    emit optionsChanged();
}

QCPGraph* HistogramPlot::channelGraph(const QString& channel) const {
    for (int i = 0; i < graphCount(); ++i)
        if (graph(i)->property(kChannelProperty).toString() == channel &&
            !graph(i)->property(kCumulativeProperty).toBool())
            return graph(i);
    return nullptr;
}

QCPGraph* HistogramPlot::cumulativeGraph(const QString& channel) const {
    for (int i = 0; i < graphCount(); ++i)
        if (graph(i)->property(kChannelProperty).toString() == channel &&
            graph(i)->property(kCumulativeProperty).toBool())
            return graph(i);
    return nullptr;
}

int HistogramPlot::binAt(double x) const {
    if (m_histograms.empty())
        return -1;
    const Series& h = m_histograms.front(); // every channel has the same bins
    const long bin = std::lround((x - h.lo) / h.binWidth());
    return bin < 0 || bin >= long(h.counts.size()) ? -1 : int(bin);
}

bool HistogramPlot::sharesBins() const {
    for (const Series& h : m_histograms)
        if (h.lo != m_histograms.front().lo || h.hi != m_histograms.front().hi ||
            h.counts.size() != m_histograms.front().counts.size())
            return false;
    return true;
}

QString HistogramPlot::toolTipAt(double x) const {
    if (m_histograms.empty())
        return {};
    if (sharesBins())
        return toolTipText(binAt(x));
    // Channels over ranges of their own (a float image's): each one's bin at x.
    QStringList lines;
    for (const Series& h : m_histograms) {
        const QString channel = QString::fromStdString(h.name);
        const long bin = std::lround((x - h.lo) / h.binWidth());
        if (!channelVisible(channel) || bin < 0 || bin >= long(h.counts.size()))
            continue;
        const double lo = h.lo + double(bin) * h.binWidth();
        lines << tr("%1: %2 in %3 to %4")
                     .arg(channelLabel(channel))
                     .arg(countText(h.counts[std::size_t(bin)]))
                     .arg(lo, 0, 'g', 9)
                     .arg(lo + h.binWidth(), 0, 'g', 9);
    }
    return lines.join(QLatin1Char('\n'));
}

QString HistogramPlot::toolTipText(int bin) const {
    if (m_histograms.empty() || bin < 0 || std::size_t(bin) >= m_histograms.front().counts.size())
        return {};
    const Series& first = m_histograms.front();
    const double w = first.binWidth(), lo = first.lo + bin * w;
    const bool last = std::size_t(bin) + 1 == first.counts.size();
    const auto value = binValue(first, std::size_t(bin));
    QString text = value ? tr("value %1").arg(*value)
                         : tr("bin %1: %2 to %3 (%4)")
                               .arg(bin)
                               .arg(lo, 0, 'g', 9)
                               .arg(last ? first.hi : lo + w, 0, 'g', 9)
                               .arg(last ? tr("closed") : tr("upper edge excluded"));
    for (const auto& h : m_histograms) {
        const QString channel = QString::fromStdString(h.name);
        if (!channelVisible(channel) || std::size_t(bin) >= h.counts.size())
            continue;
        text += QStringLiteral("\n%1: %2")
                    .arg(channelLabel(channel), countText(h.counts[std::size_t(bin)]));
        if (m_cumulative) {
            std::uint64_t total = 0, upTo = 0;
            for (std::size_t i = 0; i < h.counts.size(); ++i) {
                total += h.counts[i];
                if (i <= std::size_t(bin))
                    upTo += h.counts[i];
            }
            const double percent = total ? 100.0 * double(upTo) / double(total) : 0.0;
            text += tr(" (cumulative %1 %)").arg(percent, 0, 'f', 2);
        }
    }
    return text;
}

QMenu* HistogramPlot::createOptionsMenu(QWidget* parent) {
    auto* menu = new QMenu(parent);
    for (const auto& h : m_histograms) {
        const QString channel = QString::fromStdString(h.name);
        QAction* a = menu->addAction(tr("Show %1").arg(channelLabel(channel)));
        a->setCheckable(true);
        a->setChecked(channelVisible(channel));
        connect(a, &QAction::toggled, this,
                [this, channel](bool on) { setChannelVisible(channel, on); });
    }
    if (!m_histograms.empty())
        menu->addSeparator();
    QAction* bars = menu->addAction(tr("Bars"));
    bars->setCheckable(true);
    bars->setChecked(m_style == Style::Bars);
    connect(bars, &QAction::toggled, this,
            [this](bool on) { setStyle(on ? Style::Bars : Style::Lines); });
    QAction* log = menu->addAction(tr("Logarithmic count axis"));
    log->setCheckable(true);
    log->setChecked(m_log);
    connect(log, &QAction::toggled, this, &HistogramPlot::setLogScale);
    QAction* cumulative = menu->addAction(tr("Cumulative overlay"));
    cumulative->setCheckable(true);
    cumulative->setChecked(m_cumulative);
    connect(cumulative, &QAction::toggled, this, &HistogramPlot::setCumulative);
    QAction* clip = menu->addAction(tr("Clip spikes (a bin over twice the next highest)"));
    clip->setCheckable(true);
    clip->setChecked(m_clipSpikes);
    connect(clip, &QAction::toggled, this, &HistogramPlot::setClipSpikes);
    QAction* corner = menu->addAction(tr("Legend back where it covers least"));
    corner->setEnabled(axisRect()->insetLayout()->insetPlacement(0) == QCPLayoutInset::ipFree);
    connect(corner, &QAction::triggered, this, [this] {
        axisRect()->insetLayout()->setInsetPlacement(0, QCPLayoutInset::ipBorderAligned);
        replot(rpQueuedReplot);
        saveSettings();
    });
    menu->addSeparator();
    QAction* reset = menu->addAction(tr("Reset zoom (the values present)"));
    connect(reset, &QAction::triggered, this, &HistogramPlot::showAll);
    QAction* whole = menu->addAction(tr("Whole range (every bin)"));
    connect(whole, &QAction::triggered, this, [this] { showRange(true); });
    menu->addSeparator();
    QAction* select = menu->addAction(tr("Select values: Shift + drag"));
    select->setEnabled(false); // says how; the drag does it
    QAction* clear = menu->addAction(tr("Clear Selection (Esc)"));
    clear->setEnabled(m_selection.has_value());
    connect(clear, &QAction::triggered, this, &HistogramPlot::clearSelection);
    return menu;
}

void HistogramPlot::hoverAt(const QPoint& pos) {
    const double x = xAxis->pixelToCoord(pos.x());
    const QString text = axisRect()->rect().contains(pos) ? toolTipAt(x) : QString();
    if (text.isEmpty())
        return hideHover();
    // The line stands on the bin's point (its lower edge) when every channel has the same bins.
    double at = x;
    const Series& first = m_histograms.front();
    if (const int bin = binAt(x); sharesBins() && bin >= 0)
        at = first.lo + double(bin) * first.binWidth();
    m_marker->point1->setCoords(at, yAxis->range().lower);
    m_marker->point2->setCoords(at, yAxis->range().upper);
    m_readout->setText(text);
    // Beside the cursor, on the side where it fits.
    const QRect box = QFontMetrics(m_readout->font())
                          .boundingRect(QRect(0, 0, 4000, 4000), Qt::AlignLeft, text)
                          .adjusted(0, 0, 14, 10);
    int left = pos.x() + 16, top = pos.y() + 16;
    if (left + box.width() > width() - 2)
        left = pos.x() - 16 - box.width();
    if (top + box.height() > height() - 2)
        top = pos.y() - 16 - box.height();
    m_readout->position->setCoords(std::max(2, left), std::max(2, top));
    m_marker->setVisible(true);
    m_readout->setVisible(true);
    replot(rpQueuedReplot);
}

void HistogramPlot::hideHover() {
    if (!m_readout->visible() && !m_marker->visible())
        return;
    m_marker->setVisible(false);
    m_readout->setVisible(false);
    replot(rpQueuedReplot);
}

QString HistogramPlot::hoverText() const {
    return m_readout->visible() ? m_readout->text() : QString();
}

std::optional<double> HistogramPlot::markerValue() const {
    if (!m_marker->visible())
        return std::nullopt;
    return m_marker->point1->coords().x();
}

void HistogramPlot::mousePressEvent(QMouseEvent* event) {
    hideHover();
    if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier) &&
        !m_histograms.empty() && axisRect()->rect().contains(event->position().toPoint())) {
        // Shift + drag selects values instead of panning.
        m_selectingFrom = xAxis->pixelToCoord(event->position().x());
        setFocus(Qt::MouseFocusReason); // Esc in the plot ends the selection
        selectValues(*m_selectingFrom, *m_selectingFrom);
        return;
    }
    QCustomPlot::mousePressEvent(event);
}

void HistogramPlot::mouseMoveEvent(QMouseEvent* event) {
    if (m_selectingFrom && !(event->buttons() & Qt::LeftButton))
        m_selectingFrom.reset(); // its release went elsewhere (a dialog opened mid-drag)
    if (m_selectingFrom) {
        selectValues(*m_selectingFrom, xAxis->pixelToCoord(event->position().x()));
        return;
    }
    QCustomPlot::mouseMoveEvent(event); // a legend drag never gets here (makeLegendMovable)
    if (event->buttons() == Qt::NoButton)
        hoverAt(event->position().toPoint());
    else
        hideHover();
}

void HistogramPlot::mouseReleaseEvent(QMouseEvent* event) {
    if (m_selectingFrom && event->button() == Qt::LeftButton) {
        selectValues(*m_selectingFrom, xAxis->pixelToCoord(event->position().x()));
        m_selectingFrom.reset();
        return;
    }
    QCustomPlot::mouseReleaseEvent(event);
}

bool HistogramPlot::event(QEvent* event) {
    // Esc ends a selection here before the window's Esc (Cancel, or the image's region) takes it.
    if (event->type() == QEvent::ShortcutOverride && m_selection &&
        static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        event->accept();
        return true;
    }
    return QCustomPlot::event(event);
}

void HistogramPlot::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape && m_selection) {
        clearSelection();
        return;
    }
    QCustomPlot::keyPressEvent(event);
}

std::pair<double, double> HistogramPlot::binEdgesAt(double x) const {
    if (m_histograms.empty() || m_histograms.front().counts.empty())
        return {x, x};
    const Series& first = m_histograms.front();
    const double w = first.binWidth();
    const double last = double(first.counts.size() - 1);
    const double bin = std::clamp(std::floor((x - first.lo) / w), 0.0, last);
    return {first.lo + bin * w, first.lo + (bin + 1) * w};
}

void HistogramPlot::selectValues(double lo, double hi) {
    if (hi < lo)
        std::swap(lo, hi);
    m_selection = std::pair{binEdgesAt(lo).first, binEdgesAt(hi).second};
    showSelection();
    emit valueRangeChanged();
}

void HistogramPlot::clearSelection() {
    const bool had = m_selection.has_value();
    m_selection.reset();
    m_selectingFrom.reset();
    showSelection();
    if (had)
        emit valueRangeChanged();
}

std::uint64_t HistogramPlot::selectedCount(const QString& channel) const {
    if (!m_selection)
        return 0;
    for (const Series& h : m_histograms) {
        if (QString::fromStdString(h.name) != channel)
            continue;
        const double w = h.binWidth();
        std::uint64_t n = 0;
        for (std::size_t i = 0; i < h.counts.size(); ++i) {
            const double mid = h.lo + (double(i) + 0.5) * w; // a bin is in when its middle is
            if (mid >= m_selection->first && mid <= m_selection->second)
                n += h.counts[i];
        }
        return n;
    }
    return 0;
}

QString HistogramPlot::selectionText() const {
    if (!m_selection || m_histograms.empty())
        return {};
    const Series& first = m_histograms.front();
    const auto [lo, hi] = *m_selection;
    // Whole values where every bin is one value (8- and 16-bit), else the bins' edges.
    const bool whole = binValue(first, 0).has_value();
    QString text = whole ? tr("values %1 … %2").arg(qRound64(lo)).arg(qRound64(hi) - 1)
                         : tr("values %1 … %2").arg(lo, 0, 'g', 6).arg(hi, 0, 'g', 6);
    for (const Series& h : m_histograms) {
        const QString channel = QString::fromStdString(h.name);
        if (!channelVisible(channel))
            continue;
        const std::uint64_t total = totalOf(h.counts);
        const std::uint64_t n = selectedCount(channel);
        text += QStringLiteral("\n%1: %2 (%3 %)")
                    .arg(channelLabel(channel), countText(n))
                    .arg(total ? 100.0 * double(n) / double(total) : 0.0, 0, 'f', 1);
    }
    return text;
}

void HistogramPlot::showSelection() {
    const bool shown = m_selection && !m_histograms.empty();
    m_selectionRect->setVisible(shown);
    m_selectionNote->setVisible(shown);
    if (shown) {
        m_selectionRect->topLeft->setCoords(m_selection->first, 0);
        m_selectionRect->bottomRight->setCoords(m_selection->second, 1);
        m_selectionNote->setText(selectionText());
    }
    replot(rpQueuedReplot);
}

void HistogramPlot::leaveEvent(QEvent* event) {
    QCustomPlot::leaveEvent(event);
    hideHover();
}

void HistogramPlot::setSettingsKey(const QString& key) {
    m_settingsKey.clear(); // applying what was saved saves nothing
    if (!key.isEmpty()) {
        const QSettings s = histlabSettings();
        const QString k = key + QLatin1Char('/');
        setStyle(s.value(k + QStringLiteral("style")).toString() == QLatin1String("bars")
                     ? Style::Bars
                     : Style::Lines);
        setLogScale(s.value(k + QStringLiteral("log"), m_log).toBool());
        setCumulative(s.value(k + QStringLiteral("cumulative"), m_cumulative).toBool());
        setClipSpikes(s.value(k + QStringLiteral("clipSpikes"), m_clipSpikes).toBool());
        for (const QString& channel : s.value(k + QStringLiteral("hidden")).toStringList())
            setChannelVisible(channel, false);
        const QRectF rect = s.value(k + QStringLiteral("legendRect")).toRectF();
        if (rect.isValid() && QRectF(0, 0, 1, 1).contains(rect.topLeft())) {
            axisRect()->insetLayout()->setInsetPlacement(0, QCPLayoutInset::ipFree);
            axisRect()->insetLayout()->setInsetRect(0, rect);
        }
    }
    m_settingsKey = key;
}

void HistogramPlot::saveSettings() const {
    if (m_settingsKey.isEmpty())
        return;
    QSettings s = histlabSettings();
    const QString k = m_settingsKey + QLatin1Char('/');
    s.setValue(k + QStringLiteral("style"),
               m_style == Style::Bars ? QStringLiteral("bars") : QStringLiteral("lines"));
    s.setValue(k + QStringLiteral("log"), m_log);
    s.setValue(k + QStringLiteral("cumulative"), m_cumulative);
    s.setValue(k + QStringLiteral("clipSpikes"), m_clipSpikes);
    QStringList hidden(m_hidden.begin(), m_hidden.end());
    hidden.sort();
    s.setValue(k + QStringLiteral("hidden"), hidden);
    const QCPLayoutInset* inset = axisRect()->insetLayout();
    if (inset->insetPlacement(0) == QCPLayoutInset::ipFree)
        s.setValue(k + QStringLiteral("legendRect"), inset->insetRect(0));
    else
        s.remove(k + QStringLiteral("legendRect"));
}

void HistogramPlot::contextMenuEvent(QContextMenuEvent* event) {
    QMenu* menu = createOptionsMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(event->globalPos());
}

void HistogramPlot::onLegendClick(QCPLegend*, QCPAbstractLegendItem* item, QMouseEvent*) {
    auto* plItem = qobject_cast<QCPPlottableLegendItem*>(item);
    if (!plItem)
        return;
    if (plItem->plottable()->property(kCumulativeProperty).toBool())
        return; // the overlay's entry: the menu turns it off
    const QString channel = plItem->plottable()->property(kChannelProperty).toString();
    if (!channel.isEmpty())
        setChannelVisible(channel, !channelVisible(channel));
}

} // namespace histlab::ui
