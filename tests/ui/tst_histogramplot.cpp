// The histogram plot's options (ui/histogramplot.h): channel visibility, bars or lines, a
// logarithmic count axis, the cumulative overlay, spike clipping, the hover readout and marker,
// the value-axis zoom with the count axis following, the legend (dragged, one overlay entry),
// options remembered, the options menu, and a title on exported plots.
#include "common/exporter.h"
#include "plots/histogramplot.h"
#include "plots/plotstyle.h"
#include "uitestsupport.h"

#include <QMenu>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using histlab::ChannelHistogram;
using histlab::ui::HistogramPlot;
using histlab::uitest::sendMouse;

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

/// A photo with a black frame: bin 0 holds 28,000 pixels, the rest at most 1,000.
std::vector<ChannelHistogram> spikeHistograms() {
    ChannelHistogram gray;
    gray.name = "gray";
    for (int i = 1; i < 256; ++i)
        gray.counts[i] = std::uint64_t(1000.0 * std::exp(-(i - 120) * (i - 120) / 2000.0)) + 1;
    gray.counts[0] = 28000;
    return {gray};
}

QPoint pixelOf(HistogramPlot& plot, double value, double count) {
    return QPoint(int(std::lround(plot.xAxis->coordToPixel(value))),
                  int(std::lround(plot.yAxis->coordToPixel(count))));
}

/// The plot on screen at 600 × 400 with sampleHistograms(), laid out.
bool showSample(HistogramPlot& plot) {
    plot.resize(600, 400);
    plot.show();
    if (!QTest::qWaitForWindowExposed(&plot))
        return false;
    plot.setHistograms(sampleHistograms());
    plot.replot();
    return true;
}

} // namespace

class TestHistogramPlot : public QObject, public histlab::uitest::TestFolder {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(setUpFolder()); }

    // Shift + drag selects values, GIMP's way: the whole bins touched, each visible channel's
    // count and share in the note; a plain drag still pans; Esc clears.
    void shiftDragSelectsValues() {
        HistogramPlot plot;
        QVERIFY(showSample(plot));
        QSignalSpy changed(&plot, &HistogramPlot::valueRangeChanged);
        const auto shiftMouse = [&](QEvent::Type type, double value, Qt::MouseButton button,
                                    Qt::MouseButtons buttons) {
            const QPoint pos = pixelOf(plot, value, 5);
            QMouseEvent event(type, QPointF(pos), plot.mapToGlobal(QPointF(pos)), button, buttons,
                              Qt::ShiftModifier);
            QApplication::sendEvent(&plot, &event);
        };
        const QCPRange before = plot.xAxis->range();
        shiftMouse(QEvent::MouseButtonPress, 90.3, Qt::LeftButton, Qt::LeftButton);
        shiftMouse(QEvent::MouseMove, 140.6, Qt::NoButton, Qt::LeftButton);
        shiftMouse(QEvent::MouseButtonRelease, 149.6, Qt::LeftButton, Qt::NoButton);
        QCOMPARE(plot.xAxis->range().lower, before.lower); // not panned
        QVERIFY(changed.count() >= 2);
        QVERIFY(plot.selectedValues().has_value());
        QCOMPARE(plot.selectedValues()->first, 90.0);
        QCOMPARE(plot.selectedValues()->second, 150.0); // values 90 ... 149
        QCOMPARE(plot.selectedCount(QStringLiteral("r")), std::uint64_t(30));
        QCOMPARE(plot.selectedCount(QStringLiteral("gray")), std::uint64_t(60));
        const QString text = plot.selectionText();
        QVERIFY2(text.startsWith(QStringLiteral("values 90 … 149\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("R: 30 (75.0 %)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("gray: 60 (23.4 %)")), qPrintable(text));
        plot.setChannelVisible(QStringLiteral("r"), false); // the note follows the channels
        QVERIFY(!plot.selectionText().contains(QStringLiteral("R:")));
        // A new histogram keeps the values and counts them again.
        plot.setHistograms(spikeHistograms());
        QVERIFY(plot.selectedValues().has_value());
        QVERIFY(plot.selectedCount(QStringLiteral("gray")) > 0);
        QTest::keyClick(&plot, Qt::Key_Escape);
        QVERIFY(!plot.selectedValues().has_value());
        QVERIFY(plot.selectionText().isEmpty());
    }

    // A pinned reference: drawn dashed (one legend entry), scaled to the shown pixels, and
    // compared channel by channel with compareHist's four distances; bins that differ are
    // said to be not comparable.
    void referenceIsComparedWithTheShownHistograms() {
        HistogramPlot plot;
        QVERIFY(showSample(plot));
        plot.setReference(plot.histograms(), QStringLiteral("sample, region 1,2 3×4"));
        QVERIFY(plot.hasReference());
        int dashed = 0;
        for (int i = 0; i < plot.graphCount(); ++i)
            dashed += plot.graph(i)->pen().style() == Qt::DashLine;
        QCOMPARE(dashed, 2); // r and gray
        QString text = plot.comparisonText();
        QVERIFY2(text.startsWith(QStringLiteral("against sample, region 1,2 3×4")),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("R: χ² 0.000 · intersection 1.000 · "
                                              "Bhattacharyya 0.000 · correlation 1.000")),
                 qPrintable(text));
        // Another picture: gray, every count at value 5 but one.
        ChannelHistogram gray;
        gray.name = "gray";
        gray.counts.fill(1);
        gray.counts[5] = 1000;
        plot.setHistograms({gray});
        const auto d = plot.distanceTo(QStringLiteral("gray"));
        QVERIFY(d.has_value());
        QVERIFY(d->intersection < 0.3 && d->bhattacharyya > 0.3);
        text = plot.comparisonText();
        QVERIFY2(!text.contains(QStringLiteral("R:")), qPrintable(text)); // not shown now
        // 65,536 exact bins against the reference's 256: not comparable, and said so.
        HistogramPlot::Series wide{"gray", 0, 65536, std::vector<std::uint64_t>(65536, 1)};
        plot.setHistograms(std::vector<HistogramPlot::Series>{wide});
        QVERIFY(!plot.distanceTo(QStringLiteral("gray")));
        QVERIFY2(plot.comparisonText().contains(QStringLiteral("gray: not comparable (256 bins")),
                 qPrintable(plot.comparisonText()));
        // The same number of bins over another range (a float region's): not drawn, not compared.
        HistogramPlot::Series unit{"gray", 0, 1, std::vector<std::uint64_t>(256, 1)};
        plot.setHistograms(std::vector<HistogramPlot::Series>{unit});
        int drawn = 0;
        for (int i = 0; i < plot.graphCount(); ++i)
            drawn += plot.graph(i)->pen().style() == Qt::DashLine;
        QCOMPARE(drawn, 0);
        QVERIFY(!plot.distanceTo(QStringLiteral("gray")));
        QVERIFY(plot.comparisonText().contains(QStringLiteral("not comparable")));
        plot.clearReference();
        QVERIFY(plot.comparisonText().isEmpty());
    }

    void hoverReadoutStaysAndMarksTheBin() {
        HistogramPlot plot;
        QVERIFY(showSample(plot));
        QVERIFY(plot.toolTip().isEmpty()); // no help tooltip to replace the readout
        sendMouse(&plot, QEvent::MouseMove, pixelOf(plot, 100, 5), Qt::NoButton, Qt::NoButton);
        QVERIFY2(plot.hoverText().startsWith("value 100"), qPrintable(plot.hoverText()));
        QVERIFY(plot.hoverText().contains("R: 30"));
        QCOMPARE(plot.markerValue(), std::optional<double>(100.0));
        QTest::qWait(1500); // a tooltip would have gone by now; the readout stays
        QVERIFY(plot.hoverText().startsWith("value 100"));
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(&plot, &leave);
        QVERIFY(plot.hoverText().isEmpty());
        QVERIFY(!plot.markerValue());
    }

    void spikesClipAsImageJDoes() {
        HistogramPlot plot;
        plot.setHistograms(spikeHistograms());
        QCOMPARE(plot.yAxis->range().upper, 28000 * 1.05);
        QVERIFY(plot.clipNote().isEmpty());
        QSignalSpy changed(&plot, &HistogramPlot::optionsChanged);
        plot.setClipSpikes(true);
        QCOMPARE(changed.count(), 1);
        // 1.5 times the second-highest bin (1,001), and a note naming the bin cut.
        QCOMPARE(plot.yAxis->range().upper, 1502 * 1.05);
        QVERIFY2(plot.clipNote().contains("gray at 0 ("), qPrintable(plot.clipNote()));
        // No spike in view: nothing clipped.
        plot.xAxis->setRange(50, 200);
        QVERIFY(plot.clipNote().isEmpty());
        QCOMPARE(plot.yAxis->range().upper, 1001 * 1.05);
    }

    void valueAxisZoomsAndTheCountAxisFollows() {
        HistogramPlot plot;
        QCOMPARE(plot.axisRect()->rangeZoom(), Qt::Horizontal);
        QCOMPARE(plot.axisRect()->rangeDrag(), Qt::Horizontal);
        plot.setHistograms(sampleHistograms());
        QCOMPARE(plot.yAxis->range().upper, 30 * 1.05);
        plot.xAxis->setRange(150, 255); // only gray's ones in view
        QCOMPARE(plot.yAxis->range().upper, 1.05);
        plot.setLogScale(true);
        QCOMPARE(plot.xAxis->range().lower, 150.0); // the values in view stay
        QCOMPARE(plot.yAxis->range().upper, 2.0);
    }

    // The legend goes to the corner with the least data under it (here the top left: the
    // data is high on the right), and the comparison and range notes stack beside it without
    // covering it or one another.
    void legendAndNotesGoWhereTheyCoverLeast() {
        ChannelHistogram gray;
        gray.name = "gray";
        for (int i = 0; i < 256; ++i)
            gray.counts[std::size_t(i)] = i < 120 ? 10 : 1000;
        HistogramPlot plot;
        plot.resize(600, 400);
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.setHistograms({gray});
        plot.replot();
        const QRect area = plot.axisRect()->rect();
        QRect legend = plot.legend->outerRect();
        QVERIFY2(legend.left() - area.left() < area.right() - legend.right(),
                 "the legend is not on the left, where the data is low");
        QCOMPARE(histlab::ui::coveredShare(&plot, legend), 0.0);
        plot.setReference(plot.histograms(), QStringLiteral("the region before"));
        plot.selectValues(140, 200);
        plot.replot();
        legend = plot.legend->outerRect();
        QList<QRectF> boxes{QRectF(legend)};
        for (int i = 0; i < plot.itemCount(); ++i)
            if (auto* note = qobject_cast<QCPItemText*>(plot.item(i));
                note && note->visible() && !note->text().isEmpty())
                boxes.append(
                    QRectF(note->topLeft->pixelPosition(), note->bottomRight->pixelPosition()));
        QCOMPARE(boxes.size(), 3); // the legend, the comparison, the range
        for (qsizetype a = 0; a < boxes.size(); ++a) {
            QVERIFY(QRectF(area).adjusted(-1, -1, 1, 1).contains(boxes[a]));
            for (qsizetype b = a + 1; b < boxes.size(); ++b)
                QVERIFY2(!boxes[a].intersects(boxes[b]),
                         qPrintable(QStringLiteral("box %1 overlaps box %2").arg(a).arg(b)));
        }
        // The comparison note, placed before the range's, has the top left under the legend.
        QVERIFY(histlab::ui::coveredShare(&plot, boxes[1]) < 0.05);
    }

    // 16-bit values' tick labels never run together: zoomed, in the whole range, narrow.
    void sixteenBitTickLabelsStayApart() {
        HistogramPlot::Series gray;
        gray.name = "gray";
        gray.lo = 0;
        gray.hi = 65536;
        gray.counts.assign(65536, 0);
        for (std::size_t i = 15000; i < 40000; ++i)
            gray.counts[i] = 1 + i % 7;
        HistogramPlot plot;
        plot.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plot));
        plot.setHistograms({gray});
        const QFontMetrics metrics(plot.xAxis->tickLabelFont());
        const auto apart = [&](const QString& where) {
            plot.replot();
            plot.replot(); // the tick count follows the width of the last layout
            const QVector<double> ticks = plot.xAxis->tickVector();
            const QVector<QString> labels = plot.xAxis->tickVectorLabels();
            if (ticks.size() < 2) {
                qWarning("%s: %d tick(s)", qPrintable(where), int(ticks.size()));
                return false;
            }
            for (qsizetype i = 1; i < ticks.size(); ++i) {
                const double distance =
                    plot.xAxis->coordToPixel(ticks[i]) - plot.xAxis->coordToPixel(ticks[i - 1]);
                const double halves = (metrics.horizontalAdvance(labels[i]) +
                                       metrics.horizontalAdvance(labels[i - 1])) /
                                      2.0;
                if (distance < halves + 6) {
                    qWarning("%s: %s and %s %g px apart", qPrintable(where),
                             qPrintable(labels[i - 1]), qPrintable(labels[i]), distance);
                    return false;
                }
            }
            return true;
        };
        for (int width : {330, 600, 1100}) {
            plot.resize(width, 300);
            plot.showRange(true); // every bin
            QVERIFY(apart(QStringLiteral("whole range, %1 px").arg(width)));
            plot.xAxis->setRange(18000, 21000); // zoomed
            QVERIFY(apart(QStringLiteral("zoomed, %1 px").arg(width)));
            plot.xAxis->setRange(18000, 18100);
            QVERIFY(apart(QStringLiteral("zoomed far, %1 px").arg(width)));
        }
    }

    void legendDragsAndAClickStillToggles() {
        HistogramPlot plot;
        QVERIFY(showSample(plot));
        const QRect before = plot.legend->outerRect();
        const QPoint grab = before.center();
        sendMouse(&plot, QEvent::MouseButtonPress, grab, Qt::LeftButton, Qt::LeftButton);
        sendMouse(&plot, QEvent::MouseMove, grab - QPoint(150, -60), Qt::NoButton, Qt::LeftButton);
        sendMouse(&plot, QEvent::MouseButtonRelease, grab - QPoint(150, -60), Qt::LeftButton,
                  Qt::NoButton);
        plot.replot();
        const QRect after = plot.legend->outerRect();
        QVERIFY2(std::abs(after.left() - (before.left() - 150)) <= 2 &&
                     std::abs(after.top() - (before.top() + 60)) <= 2,
                 qPrintable(QStringLiteral("%1,%2 -> %3,%4")
                                .arg(before.left())
                                .arg(before.top())
                                .arg(after.left())
                                .arg(after.top())));
        QVERIFY(plot.channelVisible("r") && plot.channelVisible("gray")); // a drag, no click
        // Dragged far out: it stays inside the plot.
        const QPoint from = after.center();
        sendMouse(&plot, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
        sendMouse(&plot, QEvent::MouseMove, from + QPoint(2000, 2000), Qt::NoButton,
                  Qt::LeftButton);
        sendMouse(&plot, QEvent::MouseButtonRelease, from + QPoint(2000, 2000), Qt::LeftButton,
                  Qt::NoButton);
        plot.replot();
        QVERIFY(plot.axisRect()->rect().contains(plot.legend->outerRect().adjusted(1, 1, -1, -1)));
    }

    void oneLegendEntryForTheCumulativeOverlay() {
        HistogramPlot plot;
        plot.setHistograms(sampleHistograms());
        plot.setCumulative(true);
        int entries = 0;
        for (int i = 0; i < plot.legend->itemCount(); ++i) {
            auto* item = qobject_cast<QCPPlottableLegendItem*>(plot.legend->item(i));
            if (item && item->plottable()->name().contains("cumulative"))
                ++entries;
        }
        QCOMPARE(entries, 1);
        QCOMPARE(plot.legend->itemCount(), 3); // R, gray, the overlay
    }

    void optionsAreRemembered() {
        {
            HistogramPlot plot;
            plot.setSettingsKey("rememberedPlot");
            plot.setHistograms(sampleHistograms());
            plot.setLogScale(true);
            plot.setClipSpikes(true);
            plot.setStyle(HistogramPlot::Style::Bars);
            plot.setChannelVisible("r", false);
        }
        HistogramPlot again;
        QVERIFY(!again.logScale());
        again.setSettingsKey("rememberedPlot");
        QVERIFY(again.logScale());
        QVERIFY(again.clipSpikes());
        QCOMPARE(again.style(), HistogramPlot::Style::Bars);
        QVERIFY(!again.channelVisible("r"));
        HistogramPlot other; // another key, another plot's options
        other.setSettingsKey("otherPlot");
        QVERIFY(!other.logScale());
    }

    void exportedPlotCarriesItsTitle() {
        HistogramPlot plot;
        plot.resize(600, 400);
        plot.setHistograms(sampleHistograms());
        const int rows = plot.plotLayout()->rowCount();
        histlab::ui::PlotExportOptions options;
        options.width = 600;
        options.height = 400;
        QVERIFY(histlab::ui::exportPlot(plot, path("plain.png"), options).ok);
        options.title = QStringLiteral("sample.png (510 × 383) · a device");
        QVERIFY(histlab::ui::exportPlot(plot, path("titled.png"), options).ok);
        QCOMPARE(plot.plotLayout()->rowCount(), rows); // the plot on screen is as it was
        const QImage plain(path("plain.png")), titled(path("titled.png"));
        QCOMPARE(titled.size(), plain.size());
        // The title's text: dark pixels in the top band's middle, where the plain plot has none.
        const auto darkInTopBand = [](const QImage& image) {
            int dark = 0;
            for (int y = 0; y < 18; ++y)
                for (int x = image.width() / 4; x < image.width() * 3 / 4; ++x)
                    dark += qGray(image.pixel(x, y)) < 128;
            return dark;
        };
        QCOMPARE(darkInTopBand(plain), 0);
        QVERIFY(darkInTopBand(titled) > 20);
    }
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
        HistogramPlot spiky;
        spiky.resize(800, 450);
        spiky.setHistograms(spikeHistograms());
        spiky.setClipSpikes(true);
        spiky.setCumulative(true);
        spiky.replot();
        spiky.hoverAt(pixelOf(spiky, 120, 500));
        QVERIFY(spiky.savePng(QString::fromLocal8Bit(dir) + "/clipped_hover.png", 800, 450));
        // A pinned reference, a range selected and a clipped spike: the legend and three notes.
        spiky.hideHover();
        spiky.setCumulative(false);
        spiky.setReference(spiky.histograms(), QStringLiteral("the region before"));
        spiky.selectValues(140, 200);
        QVERIFY(spiky.savePng(QString::fromLocal8Bit(dir) + "/notes.png", 800, 450));
    }
};

QTEST_MAIN(TestHistogramPlot)
#include "tst_histogramplot.moc"
