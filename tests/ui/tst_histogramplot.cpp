// The histogram plot's options (ui/histogramplot.h): channel visibility, bars or lines, a
// logarithmic count axis, the cumulative overlay, the tooltip text and the options menu.
#include "plots/histogramplot.h"

#include <QMenu>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>

using histlab::ChannelHistogram;
using histlab::ui::HistogramPlot;

namespace {

// r: 10 pixels at 0, 30 at 100, none elsewhere; gray: 1 at every value.
std::vector<ChannelHistogram> sampleHistograms() {
    ChannelHistogram r;
    r.name = "r";
    r.counts[0] = 10;
    r.counts[100] = 30;
    ChannelHistogram gray;
    gray.name = "gray";
    gray.counts.fill(1);
    return {r, gray};
}

QAction* findAction(QMenu* menu, const QString& text) {
    for (QAction* a : menu->actions())
        if (a->text() == text)
            return a;
    return nullptr;
}

} // namespace

class TestHistogramPlot : public QObject {
    Q_OBJECT
private slots:
    void graphsFollowTheData() {
        HistogramPlot plot;
        plot.setHistograms(sampleHistograms());
        QCOMPARE(plot.graphCount(), 2);
        QVERIFY(plot.channelGraph("r"));
        QCOMPARE(plot.channelGraph("r")->data()->size(), 256);
        QCOMPARE(plot.channelGraph("r")->data()->at(100)->value, 30.0);
        QCOMPARE(plot.channelGraph("gray")->name(), QStringLiteral("gray"));
        QCOMPARE(plot.channelGraph("r")->name(), QStringLiteral("R"));
    }

    void hiddenChannelsStayHiddenAcrossImages() {
        HistogramPlot plot;
        QSignalSpy changed(&plot, &HistogramPlot::optionsChanged);
        plot.setHistograms(sampleHistograms());
        plot.setChannelVisible("r", false);
        QCOMPARE(changed.count(), 1);
        QVERIFY(!plot.channelGraph("r")->visible());
        QVERIFY(plot.channelGraph("gray")->visible());
        plot.setHistograms(sampleHistograms()); // a new image
        QVERIFY(!plot.channelGraph("r")->visible());
        QVERIFY(!plot.toolTipText(100).contains("R:"));
        plot.setChannelVisible("r", true);
        QVERIFY(plot.channelGraph("r")->visible());
    }

    void barsAndLines() {
        HistogramPlot plot;
        plot.setHistograms(sampleHistograms());
        QCOMPARE(plot.channelGraph("r")->lineStyle(), QCPGraph::lsLine);
        plot.setStyle(HistogramPlot::Style::Bars);
        QCOMPARE(plot.channelGraph("r")->lineStyle(), QCPGraph::lsStepCenter);
        QVERIFY(plot.channelGraph("r")->brush().style() != Qt::NoBrush);
        plot.setStyle(HistogramPlot::Style::Lines);
        QCOMPARE(plot.channelGraph("r")->brush().style(), Qt::NoBrush);
    }

    void logarithmicAxisShowsEmptyBinsAsGaps() {
        HistogramPlot plot;
        plot.setHistograms(sampleHistograms());
        plot.setLogScale(true);
        QCOMPARE(plot.yAxis->scaleType(), QCPAxis::stLogarithmic);
        QVERIFY(plot.yAxis->range().lower > 0);
        QVERIFY(std::isnan(plot.channelGraph("r")->data()->at(1)->value)); // count 0
        QCOMPARE(plot.channelGraph("r")->data()->at(100)->value, 30.0);
        plot.setLogScale(false);
        QCOMPARE(plot.yAxis->scaleType(), QCPAxis::stLinear);
        QCOMPARE(plot.channelGraph("r")->data()->at(1)->value, 0.0);
    }

    void cumulativeOverlayIsPercentOfPixels() {
        HistogramPlot plot;
        plot.setHistograms(sampleHistograms());
        QVERIFY(!plot.cumulativeGraph("r"));
        plot.setCumulative(true);
        QCPGraph* c = plot.cumulativeGraph("r");
        QVERIFY(c);
        QCOMPARE(c->valueAxis(), plot.yAxis2);
        QVERIFY(plot.yAxis2->visible());
        QCOMPARE(c->data()->at(0)->value, 25.0); // 10 of 40
        QCOMPARE(c->data()->at(99)->value, 25.0);
        QCOMPARE(c->data()->at(100)->value, 100.0);
        QCOMPARE(c->data()->at(255)->value, 100.0);
        QCOMPARE(plot.cumulativeGraph("gray")->data()->at(127)->value, 50.0);
        plot.setChannelVisible("gray", false); // no overlay for a hidden channel
        QVERIFY(!plot.cumulativeGraph("gray"));
        plot.setCumulative(false);
        QVERIFY(!plot.cumulativeGraph("r"));
        QVERIFY(!plot.yAxis2->visible());
    }

    void toolTipNamesTheBinAndEveryVisibleCount() {
        HistogramPlot plot;
        QVERIFY(plot.toolTipText(5).isEmpty()); // no data yet
        plot.setHistograms(sampleHistograms());
        const QString t = plot.toolTipText(100);
        QVERIFY2(t.contains("value 100") && t.contains("R: 30") && t.contains("gray: 1"),
                 qPrintable(t));
        QVERIFY(plot.toolTipText(-1).isEmpty());
        QVERIFY(plot.toolTipText(256).isEmpty());
        plot.setCumulative(true);
        QVERIFY2(plot.toolTipText(100).contains("cumulative 100.00 %"),
                 qPrintable(plot.toolTipText(100)));
    }

    void optionsMenuActsOnThePlot() {
        HistogramPlot plot;
        plot.setHistograms(sampleHistograms());
        std::unique_ptr<QMenu> menu(plot.createOptionsMenu(nullptr));
        QAction* showR = findAction(menu.get(), "Show R");
        QAction* bars = findAction(menu.get(), "Bars");
        QAction* log = findAction(menu.get(), "Logarithmic count axis");
        QAction* cumulative = findAction(menu.get(), "Cumulative overlay");
        QVERIFY(showR && bars && log && cumulative);
        QVERIFY(showR->isChecked());
        showR->setChecked(false);
        QVERIFY(!plot.channelVisible("r"));
        bars->setChecked(true);
        QCOMPARE(plot.style(), HistogramPlot::Style::Bars);
        log->setChecked(true);
        QVERIFY(plot.logScale());
        cumulative->setChecked(true);
        QVERIFY(plot.cumulative());
        // A new menu reflects the state.
        std::unique_ptr<QMenu> again(plot.createOptionsMenu(nullptr));
        QVERIFY(!findAction(again.get(), "Show R")->isChecked());
        QVERIFY(findAction(again.get(), "Bars")->isChecked());
    }

    void legendClickTogglesTheChannel() {
        HistogramPlot plot;
        plot.resize(600, 400);
        plot.setHistograms(sampleHistograms());
        auto* item = plot.legend->itemWithPlottable(plot.channelGraph("r"));
        QVERIFY(item);
        emit plot.legendClick(plot.legend, item, nullptr);
        QVERIFY(!plot.channelVisible("r"));
        auto* again = plot.legend->itemWithPlottable(plot.channelGraph("r"));
        QVERIFY(again); // still listed, greyed, so it can be clicked back on
        emit plot.legendClick(plot.legend, again, nullptr);
        QVERIFY(plot.channelVisible("r"));
    }

    // Pictures of the options for a person to look at (not an assertion of looks).
    void snapshot() {
        const QByteArray dir = qgetenv("HISTLAB_SNAPSHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set HISTLAB_SNAPSHOT_DIR to write pictures of the plot's options");
        HistogramPlot plot;
        plot.resize(800, 450);
        std::vector<ChannelHistogram> h = sampleHistograms();
        for (int i = 0; i < 256; ++i) // a smooth bump in r as well
            h[0].counts[i] += std::uint64_t(1000.0 * std::exp(-(i - 140) * (i - 140) / 800.0));
        plot.setHistograms(h);
        QVERIFY(plot.savePng(QString::fromLocal8Bit(dir) + "/lines.png", 800, 450));
        plot.setStyle(HistogramPlot::Style::Bars);
        plot.setLogScale(true);
        plot.setCumulative(true);
        QVERIFY(plot.savePng(QString::fromLocal8Bit(dir) + "/bars_log_cumulative.png", 800, 450));
    }
};

QTEST_MAIN(TestHistogramPlot)
#include "tst_histogramplot.moc"
