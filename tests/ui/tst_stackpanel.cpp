// The stack view offscreen, on PoCL, on stacks written at test time by scripts/make-stack-tiff.py
// (every page its own values): Whole Stack… shows only for a multi-page image and opens the
// view of the file shown; a run's table holds the stack's rows and one row per page and channel,
// its histogram the stack's counts, its Z-axis profile each page's mean and the chosen
// percentile, all equal to what histlab-cli histogram --page A-B --json says of the same file;
// Save CSV… writes byte for byte what --stats-csv writes; a range counts only its pages; Cancel
// stops a long stack between pages and the view stays usable.
#include "panels/stackpanel.h"
#include "uitestsupport.h"

#include <qcustomplot.h>

#include <QAction>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

class TestStackPanel : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void wholeStackOnlyForAStack();
    void equalsTheCli();
    void aRangeCountsItsPages();
    void cancelStopsBetweenPages();

private:
    /// scripts/make-stack-tiff.py NAME ARGS in the test's folder; empty on a failure.
    QString makeStack(const QString& name, const QStringList& args);
    /// histlab-cli ARGS: true when it exits 0 (else its stderr in the log).
    static bool cli(const QStringList& args);
    QString m_rgb; // 5 pages of 40 x 30 RGB, 8-bit
};

void TestStackPanel::initTestCase() {
    QVERIFY(setUpFolder());
    m_rgb = makeStack(QStringLiteral("rgb5.tif"),
                      {QStringLiteral("--pages"), QStringLiteral("5"), QStringLiteral("--width"),
                       QStringLiteral("40"), QStringLiteral("--height"), QStringLiteral("30"),
                       QStringLiteral("--channels"), QStringLiteral("3")});
    QVERIFY(!m_rgb.isEmpty());
}

QString TestStackPanel::makeStack(const QString& name, const QStringList& args) {
    const QString file = path(name);
    QProcess python;
    python.start(QStringLiteral("python3"),
                 QStringList{QStringLiteral(HISTLAB_STACK_SCRIPT), file} + args);
    if (!python.waitForFinished(60000) || python.exitCode() != 0) {
        qWarning("make-stack-tiff.py: %s", python.readAllStandardError().constData());
        return {};
    }
    return file;
}

bool TestStackPanel::cli(const QStringList& args) {
    QProcess process;
    process.start(QStringLiteral(HISTLAB_CLI), args);
    if (!process.waitForFinished(120000) || process.exitCode() != 0) {
        qWarning("histlab-cli: %s", process.readAllStandardError().constData());
        return false;
    }
    return true;
}

/// The stack view of `image`, opened as a person does: the image shown, then Whole Stack….
static StackPanel* openStackView(MainWindow& window, const QString& image) {
    if (!showWindow(window, image))
        return nullptr;
    auto* button = window.findChild<QPushButton*>(QStringLiteral("wholeStackButton"));
    if (!button || !button->isVisible())
        return nullptr;
    QTest::mouseClick(button, Qt::LeftButton);
    if (!window.stackWindow()->isVisible())
        return nullptr;
    logProblems(window.stackPanel());
    return window.stackPanel();
}

void TestStackPanel::wholeStackOnlyForAStack() {
    MainWindow window;
    QVERIFY(showWindow(window, fixture(QStringLiteral("gray8.png"))));
    QAction* action = window.panel<ImagePanel>()->wholeStackAction();
    auto* button = window.findChild<QPushButton*>(QStringLiteral("wholeStackButton"));
    QVERIFY(button);
    QVERIFY(!action->isEnabled());
    QVERIFY(!button->isVisible());
    QVERIFY(!window.stackPanel()->runButton()->isEnabled());

    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImage(m_rgb);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1 && !window.isBusy(), kTimeoutMs);
    QVERIFY(action->isEnabled());
    QVERIFY(button->isVisible());
    action->trigger(); // View › Whole Stack
    QVERIFY(window.stackWindow()->isVisible());
    StackPanel* panel = window.stackPanel();
    QCOMPARE(panel->imageSource(), m_rgb);
    QCOMPARE(panel->imagePages(), 5);
    QCOMPARE(panel->firstPageSpin()->value(), 1);
    QCOMPARE(panel->lastPageSpin()->value(), 5);
    QCOMPARE(panel->lastPageSpin()->maximum(), 5);
    QVERIFY(panel->runButton()->isEnabled());
    QVERIFY(window.stackWindow()->windowTitle().contains(QStringLiteral("rgb5.tif")));
}

void TestStackPanel::equalsTheCli() {
    MainWindow window;
    StackPanel* panel = openStackView(window, m_rgb);
    QVERIFY(panel);
    QVERIFY(!panel->saveCsvButton()->isEnabled());
    QVERIFY(runToEnd(panel));
    QVERIFY2(panel->result().has_value(), qPrintable(panel->statusLabel()->text()));

    // What the CLI says of the same file: its --json (pages and statistics) and --stats-csv.
    const QString csvPath = path(QStringLiteral("cli.csv"));
    const QString cliJson = path(QStringLiteral("cli.json"));
    QVERIFY(cli({QStringLiteral("histogram"), m_rgb, QStringLiteral("--page"),
                 QStringLiteral("all"), QStringLiteral("--repeat"), QStringLiteral("1"),
                 QStringLiteral("--stats-csv"), csvPath, QStringLiteral("--json"), cliJson}));
    const Json json = readJson(cliJson);
    const Json& pages = json.at("pages");
    QCOMPARE(int(pages.size()), 5);
    const Json& channels = pages.at(0).at("channels");
    const int n = int(channels.size());
    QCOMPARE(n, 4); // r, g, b and the luma

    // The table: the stack's rows, then one row per page and channel, as the CLI counts them.
    QTableWidget* table = panel->statisticsTable();
    QCOMPARE(table->rowCount(), n + 5 * n);
    for (int c = 0; c < n; ++c)
        QCOMPARE(cell(table, c, StackPanel::PageColumn), QStringLiteral("all"));
    for (int p = 0; p < 5; ++p)
        for (int c = 0; c < n; ++c) {
            const int row = n + p * n + c;
            const Json& st = pages.at(std::size_t(p)).at("channels").at(std::size_t(c));
            QCOMPARE(cell(table, row, StackPanel::PageColumn), QString::number(p + 1));
            QCOMPARE(cell(table, row, StackPanel::ChannelColumn),
                     QString::fromStdString(st.at("name").get<std::string>()));
            QCOMPARE(cell(table, row, StackPanel::PixelsColumn), QStringLiteral("1200"));
            QCOMPARE(cell(table, row, StackPanel::MeanColumn),
                     QString::fromStdString(
                         statisticText(st.at("statistics").at("mean").get<double>())));
            QCOMPARE(cell(table, row, StackPanel::StatusColumn), QStringLiteral("verified"));
        }

    // The histogram: the stack's counts of each channel, summing to 5 pages of 1,200 pixels.
    QCOMPARE(int(panel->histogramGraphs().size()), n);
    for (const QCPGraph* graph : panel->histogramGraphs()) {
        double sum = 0;
        for (auto it = graph->data()->constBegin(); it != graph->data()->constEnd(); ++it)
            sum += it->value;
        QCOMPARE(sum, 6000.0);
    }

    // The profile: each page's mean and the chosen percentile against the page.
    const auto expectProfile = [&](const QString& percentile, const char* key) {
        choose(panel->percentileCombo(), percentile);
        QCOMPARE(int(panel->meanGraphs().size()), n);
        for (int c = 0; c < n; ++c) {
            const QCPGraph* mean = panel->meanGraphs()[std::size_t(c)];
            const QCPGraph* pct = panel->percentileGraphs()[std::size_t(c)];
            QCOMPARE(mean->data()->size(), 5);
            QCOMPARE(pct->data()->size(), 5);
            for (int p = 0; p < 5; ++p) {
                const Json& st =
                    pages.at(std::size_t(p)).at("channels").at(std::size_t(c)).at("statistics");
                const double want = std::string(key) == "median"
                                        ? st.at("median").get<double>()
                                        : st.at("percentiles").at(key).get<double>();
                QCOMPARE((mean->data()->constBegin() + p)->key, double(p + 1));
                QCOMPARE((mean->data()->constBegin() + p)->value, st.at("mean").get<double>());
                QCOMPARE((pct->data()->constBegin() + p)->value, want);
            }
        }
    };
    expectProfile(QStringLiteral("p95"), "p95");
    expectProfile(QStringLiteral("p25"), "p25");
    expectProfile(QStringLiteral("p10"), "p10");
    expectProfile(QStringLiteral("p90"), "p90");
    expectProfile(QStringLiteral("median"), "median");

    // The files: --stats-csv byte for byte, the --json's pages, the plot.
    const QString csv = path(QStringLiteral("view.csv"));
    QVERIFY(panel->saveCsvButton()->isEnabled());
    QVERIFY(panel->saveCsvTo(csv).ok);
    QFile a(csv), b(csvPath);
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    QCOMPARE(a.readAll(), b.readAll());
    const QString jsonPath = path(QStringLiteral("view.json"));
    QVERIFY(panel->saveJsonTo(jsonPath).ok);
    const Json saved = readJson(jsonPath);
    QCOMPARE(saved.at("pages").size(), std::size_t(5));
    QCOMPARE(saved.at("stack").at("pages_in_file").get<int>(), 5);
    const QString png = path(QStringLiteral("view.png"));
    QVERIFY(panel->exportPlotTo(png, PlotExportOptions{}).ok);
    QVERIFY(!QImage(png).isNull());
}

void TestStackPanel::aRangeCountsItsPages() {
    MainWindow window;
    StackPanel* panel = openStackView(window, m_rgb);
    QVERIFY(panel);
    panel->firstPageSpin()->setValue(2);
    panel->lastPageSpin()->setValue(4);
    QVERIFY(runToEnd(panel));
    QVERIFY2(panel->result().has_value(), qPrintable(panel->statusLabel()->text()));
    QCOMPARE(panel->statisticsTable()->rowCount(), 4 + 3 * 4);
    QCOMPARE(cell(panel->statisticsTable(), 4, StackPanel::PageColumn), QStringLiteral("2"));
    const QCPGraph* mean = panel->meanGraphs().front();
    QCOMPARE(mean->data()->size(), 3);
    QCOMPARE(mean->data()->constBegin()->key, 2.0);
    const QString csvPath = path(QStringLiteral("cli-2-4.csv"));
    QVERIFY(cli({QStringLiteral("histogram"), m_rgb, QStringLiteral("--page"),
                 QStringLiteral("2-4"), QStringLiteral("--repeat"), QStringLiteral("1"),
                 QStringLiteral("--stats-csv"), csvPath}));
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(QByteArray::fromStdString(imageStackStatisticsCsv(panel->result()->run)),
             csv.readAll());

    // The last page before the first: refused in the view, nothing runs.
    panel->firstPageSpin()->setValue(4);
    panel->lastPageSpin()->setValue(2);
    QSignalSpy problems(panel, &JobPanel::problem);
    QTest::mouseClick(panel->runButton(), Qt::LeftButton);
    QCOMPARE(problems.count(), 1);
    QVERIFY(!panel->isRunning());
}

void TestStackPanel::cancelStopsBetweenPages() {
    // 300 pages of 256 x 256 16-bit values (38 MB): about a second of pages on PoCL (3 ms
    // each) after the one being counted when Cancel comes, where Cancel takes a few ms.
    const QString tiff =
        makeStack(QStringLiteral("long16.tif"),
                  {QStringLiteral("--pages"), QStringLiteral("300"), QStringLiteral("--width"),
                   QStringLiteral("256"), QStringLiteral("--height"), QStringLiteral("256"),
                   QStringLiteral("--bits"), QStringLiteral("16")});
    QVERIFY(!tiff.isEmpty());
    MainWindow window;
    StackPanel* panel = openStackView(window, tiff);
    QVERIFY(panel);
    // The progress names the page; Esc (the stack window's own shortcut: the main window's
    // does not reach it) as soon as the second page is under way (from the progress itself, not
    // after a poll that would let the pages run on).
    QStringList stages;
    QSignalSpy ended(panel, &JobPanel::runEnded);
    connect(panel, &JobPanel::progressChanged, panel,
            [&stages, panel](double, const QString& stage) {
                stages << stage;
                if (stage == QStringLiteral("page 2 of 300"))
                    QTest::keyClick(panel->runButton(), Qt::Key_Escape);
            });
    QTest::mouseClick(panel->runButton(), Qt::LeftButton);
    QVERIFY(panel->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(ended.count() == 1, kTimeoutMs);
    QVERIFY2(stages.contains(QStringLiteral("page 2 of 300")), qPrintable(stages.join(", ")));
    qInfo("cancelled; the last progress seen: %s", qPrintable(stages.last()));
    QVERIFY(ended.first().first().toString().contains(QStringLiteral("cancelled")));
    QVERIFY(!panel->isRunning());
    QVERIFY(!panel->cancelButton()->isEnabled());
    QVERIFY2(!stages.contains(QStringLiteral("page 300 of 300")), qPrintable(stages.join(", ")));
    QVERIFY(!panel->result().has_value());
    QVERIFY(
        panel->statusLabel()->text().contains(QStringLiteral("cancelled before the next page")));
    QVERIFY(!panel->saveCsvButton()->isEnabled());

    // The view runs again afterwards: two pages, to the end.
    panel->lastPageSpin()->setValue(2);
    QVERIFY(runToEnd(panel));
    QVERIFY2(panel->result().has_value(), qPrintable(panel->statusLabel()->text()));
    QCOMPARE(panel->statisticsTable()->rowCount(), 1 + 2);
}

QTEST_MAIN(TestStackPanel)
#include "tst_stackpanel.moc"
