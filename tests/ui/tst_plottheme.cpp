// Every plot readable in the dark and the light theme (and no empty legend box on an empty
// plot): the axes' labels and tick labels (the
// Joint tab's colour bar and marginals included), the titles, and the marks that belong to no
// series (the Joint marginals, the Dashboard's min–max whiskers) differ enough from the
// background they are drawn on, by WCAG's contrast ratio computed from the colours the plots
// use: 4.5 for text, 3 for lines.
#include "common/theme.h"
#include "plots/dashboardplot.h"
#include "plots/experimentplot.h"
#include "plots/histogramplot.h"
#include "plots/jointplot.h"

#include <QtTest>

using histlab::ui::contrastRatio;
using histlab::ui::plotColors;
using histlab::ui::Theme;

namespace {

QString name(const QColor& c) {
    return c.name(QColor::HexArgb);
}

/// Fails the test naming `what` when `color` has less than `least` contrast on `background`.
bool readable(const QColor& color, const QColor& background, double least, const QString& what) {
    const double ratio = contrastRatio(color, background);
    if (ratio >= least)
        return true;
    qWarning("%s: %s on %s, contrast %.2f < %.1f", qPrintable(what), qPrintable(name(color)),
             qPrintable(name(background)), ratio, least);
    return false;
}

/// Every axis (the colour bars' too) and title of `plot` readable on its background.
bool axesReadable(QCustomPlot* plot, const QString& what) {
    bool ok = true;
    QList<QCPAxis*> axes;
    for (QCPAxisRect* rect : plot->axisRects()) {
        ok &= readable(plot->axisRects().first()->backgroundBrush().color(),
                       rect->backgroundBrush().color(), 1.0, what);
        axes += rect->axes();
    }
    const QColor background = plot->axisRect()->backgroundBrush().color();
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
        if (auto* scale = qobject_cast<QCPColorScale*>(element))
            axes.append(scale->axis());
        if (auto* title = qobject_cast<QCPTextElement*>(element))
            ok &= readable(title->textColor(), background, 4.5, what + QStringLiteral(" title"));
    }
    for (QCPAxis* axis : axes) {
        const QString which = QStringLiteral("%1 axis \"%2\"").arg(what, axis->label());
        ok &= readable(axis->labelColor(), background, 4.5, which + QStringLiteral(" label"));
        ok &= readable(axis->tickLabelColor(), background, 4.5, which + QStringLiteral(" ticks"));
        ok &= readable(axis->basePen().color(), background, 3.0, which + QStringLiteral(" line"));
    }
    return ok;
}

histlab::JointSpec smallSpec() {
    histlab::JointSpec spec;
    spec.a.bins = spec.b.bins = 4;
    spec.a.lo = spec.b.lo = 0;
    spec.a.hi = spec.b.hi = 256;
    return spec;
}

histlab::JointHistogram smallJoint() {
    histlab::JointHistogram h;
    h.binsA = h.binsB = 4;
    h.counts = {5, 1, 0, 0, 1, 9, 2, 0, 0, 2, 7, 1, 0, 0, 1, 4};
    return h;
}

histlab::DashboardRun smallRun() {
    histlab::DashboardRun run;
    run.pipelines = {"copy", "histogram256"};
    histlab::DashboardDevice device;
    device.info.name = "cpu";
    run.devices = {device};
    return run;
}

} // namespace

class TestPlotTheme : public QObject {
    Q_OBJECT
private slots:
    void cleanupTestCase() { histlab::ui::applyTheme(Theme::Light); }

    void plotsAreReadable_data() {
        QTest::addColumn<bool>("dark");
        QTest::newRow("dark") << true;
        QTest::newRow("light") << false;
    }

    void plotsAreReadable() {
        QFETCH(bool, dark);
        histlab::ui::applyTheme(dark ? Theme::Dark : Theme::Light);
        QCOMPARE(histlab::ui::isDark(QApplication::palette()), dark);
        const QColor background = plotColors().background;

        // The plots made before the switch (the window's), restyled as the window does.
        histlab::ui::JointPlot joint;
        histlab::ui::DashboardPlot dashboard;
        histlab::ui::HistogramPlot histogram;
        joint.setJoint(smallJoint(), smallSpec(), QStringLiteral("A"), QStringLiteral("B"));
        dashboard.reset(smallRun());
        for (QCustomPlot* plot :
             {static_cast<QCustomPlot*>(&joint), static_cast<QCustomPlot*>(&dashboard),
              static_cast<QCustomPlot*>(&histogram)}) {
            QEvent change(QEvent::ApplicationPaletteChange);
            QApplication::sendEvent(plot, &change);
            histlab::ui::applyPlotPalette(plot);
        }
        QCOMPARE(joint.axisRect()->backgroundBrush().color(), background);
        QVERIFY(axesReadable(&joint, QStringLiteral("joint")));
        QVERIFY(axesReadable(&dashboard, QStringLiteral("dashboard")));
        QVERIFY(axesReadable(&histogram, QStringLiteral("histogram")));

        // The marks of no series: the marginals' lines and the whiskers.
        for (QCPGraph* marginal : {joint.marginalA(), joint.marginalB()})
            QVERIFY(readable(marginal->pen().color(), background, 3.0, QStringLiteral("marginal")));
        QVERIFY(dashboard.deviceSpread(0));
        QVERIFY(readable(dashboard.deviceSpread(0)->pen().color(), background, 3.0,
                         QStringLiteral("whiskers")));

        // A plot made after the switch, and a joint shown again: the same.
        histlab::ui::JointPlot later;
        histlab::ui::applyPlotPalette(&later);
        later.setJoint(smallJoint(), smallSpec(), QStringLiteral("A"), QStringLiteral("B"));
        QVERIFY(axesReadable(&later, QStringLiteral("joint made later")));
        QVERIFY(readable(later.marginalB()->pen().color(), background, 3.0,
                         QStringLiteral("marginal made later")));
        histlab::ui::DashboardPlot laterDashboard;
        laterDashboard.reset(smallRun());
        QVERIFY(readable(laterDashboard.deviceSpread(0)->pen().color(), background, 3.0,
                         QStringLiteral("whiskers made later")));
    }

    // An empty or starting plot shows no empty legend box; the first entry brings it back.
    void emptyPlotsShowNoLegendBox() {
        histlab::ui::DashboardPlot dashboard;
        histlab::ui::ExperimentPlot experiment;
        for (QCustomPlot* plot :
             {static_cast<QCustomPlot*>(&dashboard), static_cast<QCustomPlot*>(&experiment)}) {
            plot->resize(500, 350);
            plot->replot();
            QVERIFY(!plot->legend->visible());
        }
        dashboard.reset(smallRun());
        dashboard.replot();
        QVERIFY(dashboard.legend->itemCount() > 0);
        QVERIFY(dashboard.legend->visible());
    }

    void contrastRatioIsWcags() {
        QCOMPARE(qRound(contrastRatio(Qt::black, Qt::white) * 10), 210);
        QCOMPARE(contrastRatio(Qt::red, Qt::red), 1.0);
        QVERIFY(contrastRatio(QColor(0, 0, 128), QColor(42, 42, 42)) < 3); // navy on dark
    }
};

QTEST_MAIN(TestPlotTheme)
#include "tst_plottheme.moc"
