#include "panels/statisticspanel.h"

#include "views/tablecopy.h"

#include <QHeaderView>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace histlab::ui {

namespace {

QString channelLabel(const QString& channel) {
    return channel == QLatin1String("gray") ? channel : channel.toUpper();
}

QString percentileName(double p) {
    return QStringLiteral("p%1").arg(p);
}

/// A row's header and what its tooltip says; the definitions are those of histogramstats.h.
struct RowText {
    QString label;
    QString definition;
};

RowText rowText(int row) {
    using P = StatisticsPanel;
    switch (row) {
    case P::Pixels:
        return {QObject::tr("pixels"),
                QObject::tr("Number of pixels counted: the sum of the channel's 256 bins.")};
    case P::Min:
        return {QObject::tr("min"), QObject::tr("Smallest value present.")};
    case P::Max:
        return {QObject::tr("max"), QObject::tr("Largest value present.")};
    case P::Mean:
        return {QObject::tr("mean"), QObject::tr("Arithmetic mean of the values.")};
    case P::Median:
        return {QObject::tr("median"),
                QObject::tr("50th percentile, nearest rank: the smallest value whose cumulative "
                            "count reaches half of the pixels (the lower median).")};
    case P::Mode:
        return {QObject::tr("mode"),
                QObject::tr("Most frequent value (the smallest one on a tie).")};
    case P::StdDev:
        return {QObject::tr("std. deviation"),
                QObject::tr("Population standard deviation: sqrt(Σ (v − mean)² / N), "
                            "dividing by N, not N − 1.")};
    case P::Entropy:
        return {QObject::tr("entropy (bits)"),
                QObject::tr("Shannon entropy of the histogram in bits per pixel: "
                            "−Σ p·log₂ p over the values present (0 to 8).")};
    default: {
        const double p = kPercentiles[std::size_t(row - P::FirstPercentile)];
        return {percentileName(p),
                QObject::tr("Percentile %1, nearest rank: the smallest value v whose cumulative "
                            "count reaches %1 % of the pixels (rank ⌈%1/100 · N⌉).")
                    .arg(p)};
    }
    }
}

QString cellText(const ChannelStatistics& s, int row) {
    using P = StatisticsPanel;
    switch (row) {
    case P::Pixels:
        return QString::number(s.count);
    case P::Min:
        return QString::number(s.min);
    case P::Max:
        return QString::number(s.max);
    case P::Mean:
        return QString::number(s.mean, 'f', 2);
    case P::Median:
        return QString::number(s.median);
    case P::Mode:
        return QString::number(s.mode);
    case P::StdDev:
        return QString::number(s.stddev, 'f', 2);
    case P::Entropy:
        return QString::number(s.entropy, 'f', 3);
    default:
        return QString::number(s.percentiles[std::size_t(row - P::FirstPercentile)]);
    }
}

} // namespace

StatisticsPanel::StatisticsPanel(QWidget* parent)
    : QWidget(parent)
    , m_table(new QTableWidget(RowCount, 0)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);

    for (int row = 0; row < RowCount; ++row) {
        const RowText text = rowText(row);
        auto* header = new QTableWidgetItem(text.label);
        header->setToolTip(text.definition);
        m_table->setVerticalHeaderItem(row, header);
    }
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::ContiguousSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    // Each channel's column as wide as its numbers ("24,000,000", "-0.0993652"): a number cut
    // to "24,00…" is no number. The last takes the space left; a narrow pane scrolls.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setTextElideMode(Qt::ElideNone);
    m_table->setToolTip(tr("Statistics of the whole image, per channel, from its histograms"));
}

void StatisticsPanel::setStatistics(const std::vector<ChannelStatistics>& statistics) {
    m_statistics = statistics;
    // A selection made on other numbers (another region, another image) marks nothing here.
    m_table->clearSelection();
    m_table->setColumnCount(int(statistics.size()));
    for (int column = 0; column < int(statistics.size()); ++column) {
        const ChannelStatistics& s = statistics[std::size_t(column)];
        m_table->setHorizontalHeaderItem(
            column, new QTableWidgetItem(channelLabel(QString::fromStdString(s.name))));
        for (int row = 0; row < RowCount; ++row) {
            auto* item = new QTableWidgetItem(cellText(s, row));
            if (row == Pixels) { // a 24-megapixel count reads best grouped; copied plain
                item->setData(kCopyTextRole, item->text());
                item->setText(groupedCount(s.count));
            }
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
            m_table->setItem(row, column, item);
        }
    }
}

QSize StatisticsPanel::sizeHint() const {
    const int frame = 2 * m_table->frameWidth();
    // Before the first image the header has no sections, and so no height of its own.
    const int header = std::max(m_table->horizontalHeader()->sizeHint().height(),
                                m_table->fontMetrics().height() + 8);
    // Room for the horizontal scroll bar a narrow pane shows, so that no row hides under it.
    const int scrollBar = m_table->style()->pixelMetric(QStyle::PM_ScrollBarExtent);
    const int height =
        header + RowCount * m_table->verticalHeader()->defaultSectionSize() + frame + scrollBar;
    return {QWidget::sizeHint().width(), height};
}

} // namespace histlab::ui
