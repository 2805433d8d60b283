// The Words tab offscreen, on PoCL: a folder of two copies of the sample, a small JPEG and a
// truncated one gives a codebook of K 8 words built on the device, then each image's histogram
// of words: the kernel table's rows verified against the CPU reference, the truncated file
// listed with its reason, the selected image's K bars, and the nearest image of one copy is the
// other at similarity 1.000. The weighting and the keypoints are shown from the worker; the CSV
// is wordsCsv's. What the core refuses (no folder, a missing one, one without images, K above
// the descriptors, a codebook file it cannot read) is one red status line and the result shown
// stays; what bow build-codebook's plan refuses (a kernel the device cannot run at that K) is
// refused before any image is described; a codebook build cancelled while it runs keeps the
// result too.
#include "panels/imagepanel.h"
#include "panels/statisticspanel.h"
#include "panels/wordspanel.h"
#include "uitestsupport.h"
#include "window/mainwindow.h"

#include <services/opencvservices.h>

#include <qcustomplot.h>

#include <QApplication>
#include <QCheckBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStyle>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

#include <memory>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

class TestWordsPanel : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void codebookHistogramsAndNearestImages();
    void keyIdentifiersShowWholeAtTheDefaultSize();
    void weightingKeypointsAndCsv();
    void refusalsKeepTheResult_data();
    void refusalsKeepTheResult();
    void planRefusesBeforeAnyImageIsDescribed();
    void cancelledBuildKeepsThePreviousState();

private:
    QString imagesFolder() const { return path(QStringLiteral("images")); }
    std::unique_ptr<MainWindow> m_window;
    WordsPanel* m_panel = nullptr;
};

void TestWordsPanel::initTestCase() {
    QVERIFY(setUpFolder());
    installOpenCvServices(); // as the window does
    QVERIFY(QDir().mkpath(imagesFolder()));
    const QDir images(imagesFolder());
    QVERIFY(QFile::copy(QStringLiteral(HISTLAB_SAMPLE_IMAGE),
                        images.filePath(QStringLiteral("sample-a.png"))));
    QVERIFY(QFile::copy(QStringLiteral(HISTLAB_SAMPLE_IMAGE),
                        images.filePath(QStringLiteral("sample-b.png"))));
    QVERIFY(QFile::copy(fixture(QStringLiteral("rgb.jpg")),
                        images.filePath(QStringLiteral("rgb.jpg"))));
    QVERIFY(QFile::copy(fixture(QStringLiteral("truncated.jpg")),
                        images.filePath(QStringLiteral("truncated.jpg"))));
    // A folder with no image, and a codebook file OpenCV cannot read.
    QVERIFY(QDir().mkpath(path(QStringLiteral("empty"))));
    QFile notes(path(QStringLiteral("empty/notes.txt")));
    QVERIFY(notes.open(QIODevice::WriteOnly));
    notes.write("no image here\n");
    notes.close();
    QFile bad(path(QStringLiteral("bad.yml")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("this: [is not a vocabulary\n");
    bad.close();

    m_window = std::make_unique<MainWindow>();
    QVERIFY(showWindow(*m_window, QStringLiteral(HISTLAB_SAMPLE_IMAGE)));
    m_panel = openTab(*m_window, m_window->panel<WordsPanel>(),
                      Qt::ControlModifier | Qt::ShiftModifier | Qt::Key_W);
    QVERIFY(m_panel);
}

void TestWordsPanel::cleanupTestCase() {
    m_window.reset();
}

void TestWordsPanel::codebookHistogramsAndNearestImages() {
    WordsPanel* panel = m_panel;
    // The Images list's first file gave the folder: the sample's.
    QCOMPARE(QDir(panel->folderEdit()->text()).canonicalPath(),
             QFileInfo(QStringLiteral(HISTLAB_SAMPLE_IMAGE)).canonicalPath());
    QVERIFY(!panel->histogramsButton()->isEnabled()); // no codebook yet
    panel->folderEdit()->setText(imagesFolder());
    choose(panel->detectorCombo(), QStringLiteral("kaze"));
    choose(panel->kernelCombo(), QStringLiteral("auto"));
    choose(panel->weightingCombo(), QStringLiteral("l2"));
    panel->kSpin()->setValue(8);
    panel->keypointsCheck()->setChecked(false);

    QSignalSpy built(panel, &WordsPanel::codebookChanged);
    QCOMPARE(watchRun(panel), QString());
    QCOMPARE(built.count(), 1);
    QVERIFY2(panel->statusLabel()->styleSheet().isEmpty(),
             qPrintable(panel->statusLabel()->text()));
    QVERIFY(panel->codebook());
    QCOMPARE(panel->codebook()->k, std::size_t(8));
    QCOMPARE(panel->codebook()->dim, std::size_t(64)); // KAZE
    QCOMPARE(panel->codebookResult()->run.status, Status::Verified);
    QVERIFY(panel->histogramsButton()->isEnabled());
    QVERIFY(panel->saveCodebookButton()->isEnabled());

    QSignalSpy ended(panel, &JobPanel::runEnded);
    QTest::mouseClick(panel->histogramsButton(), Qt::LeftButton);
    QVERIFY(panel->isRunning());
    QVERIFY(ended.wait(kTimeoutMs));
    QVERIFY(panel->histogramsResult());
    QVERIFY2(panel->statusLabel()->styleSheet().isEmpty(),
             qPrintable(panel->statusLabel()->text()));

    // The kernels: every row verified against the CPU reference.
    QTableWidget* kernels = panel->kernelTable();
    QVERIFY(kernels->rowCount() >= 1);
    for (int row = 0; row < kernels->rowCount(); ++row) {
        QCOMPARE(cell(kernels, row, WordsPanel::StatusColumn), QStringLiteral("verified"));
        QVERIFY(cell(kernels, row, WordsPanel::DescriptorsColumn) != QStringLiteral("0"));
        QVERIFY(!cell(kernels, row, WordsPanel::GflopsColumn).isEmpty());
    }

    // The images, in listing order; the truncated file with its reason.
    QTableWidget* images = panel->imageTable();
    QCOMPARE(images->rowCount(), 4);
    QCOMPARE(cell(images, 0, WordsPanel::FileColumn), QStringLiteral("rgb.jpg"));
    const int truncated = rowOf(images, WordsPanel::FileColumn, QStringLiteral("truncated.jpg"));
    QVERIFY(truncated >= 0);
    const QString reason = cell(images, truncated, WordsPanel::ImageStatusColumn);
    QVERIFY2(reason != QStringLiteral("ok") && !reason.isEmpty(), qPrintable(reason));
    QCOMPARE(QString::fromStdString(
                 panel->histogramsResult()->table->images[std::size_t(truncated)].error),
             reason);
    const int a = rowOf(images, WordsPanel::FileColumn, QStringLiteral("sample-a.png"));
    const int b = rowOf(images, WordsPanel::FileColumn, QStringLiteral("sample-b.png"));
    QVERIFY(a >= 0 && b >= 0);
    QCOMPARE(cell(images, a, WordsPanel::ImageStatusColumn), QStringLiteral("ok"));

    // The selected copy's bars: K of them, its l2 weights; its nearest image: the other copy.
    images->selectRow(a);
    QCOMPARE(panel->bars()->data()->size(), 8);
    const std::vector<double>& weights = panel->histogramsResult()->view.weights[std::size_t(a)];
    double squares = 0;
    int i = 0;
    for (auto it = panel->bars()->data()->constBegin(); it != panel->bars()->data()->constEnd();
         ++it, ++i) {
        QCOMPARE(it->key, double(i));
        QCOMPARE(it->value, weights[std::size_t(i)]);
        squares += it->value * it->value;
    }
    QVERIFY(qAbs(squares - 1.0) < 1e-9); // l2: unit length
    QListWidget* nearest = panel->nearestList();
    QVERIFY(nearest->count() >= 1);
    QCOMPARE(nearest->item(0)->text(), QStringLiteral("sample-b.png\n1.000"));
    QVERIFY(qAbs(nearest->item(0)->data(Qt::UserRole).toDouble() - 1.0) < 1e-9);
    // Its picture and the neighbours' thumbnails arrive from the worker.
    QTRY_VERIFY_WITH_TIMEOUT(panel->imageLabel()->pixmap().width() > 0, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!nearest->item(0)->icon().isNull(), kTimeoutMs);

    // The failed file: no bars, no neighbours.
    images->selectRow(truncated);
    QCOMPARE(panel->bars()->data()->size(), 0);
    QCOMPARE(nearest->count(), 0);
    QVERIFY(panel->exportPlotButton()->isEnabled());
    QVERIFY(panel->saveCsvButton()->isEnabled());
}

// At the default 1200 x 800 window with the Images dock, a file name of the Words tab's image
// table and a number of the Image tab's statistics are shown whole: their columns are at least
// as wide as their text (the tables scroll rather than cut them).
void TestWordsPanel::keyIdentifiersShowWholeAtTheDefaultSize() {
    MainWindow& window = *m_window;
    window.resize(1200, 800);
    window.imagesDock()->show();
    QTableWidget* images = m_panel->imageTable();
    QVERIFY(images->rowCount() >= 1);
    QTest::qWait(0); // the layout settles
    QApplication::processEvents();
    const int row = rowOf(images, WordsPanel::FileColumn, QStringLiteral("sample-b.png"));
    QVERIFY(row >= 0);
    const QFontMetrics names(images->font());
    // A cell's text has the focus frame's margin and a pixel on each side (QCommonStyle).
    const int margin =
        2 * (images->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, images) + 1);
    QVERIFY2(images->columnWidth(WordsPanel::FileColumn) >=
                 names.horizontalAdvance(QStringLiteral("sample-b.png")) + margin,
             qPrintable(QString::number(images->columnWidth(WordsPanel::FileColumn))));
    const QString descriptors = cell(images, row, WordsPanel::ImageDescriptorsColumn);
    QVERIFY(images->columnWidth(WordsPanel::ImageDescriptorsColumn) >=
            names.horizontalAdvance(descriptors) + margin);

    // The buttons below the status keep their place whatever its length.
    const QString status = m_panel->statusLabel()->text();
    const int saveY = m_panel->saveCodebookButton()->mapTo(&window, QPoint()).y();
    m_panel->statusLabel()->setText(QStringLiteral("a long message, ").repeated(40));
    QApplication::processEvents();
    QCOMPARE(m_panel->saveCodebookButton()->mapTo(&window, QPoint()).y(), saveY);
    m_panel->statusLabel()->setText(QStringLiteral("short"));
    QApplication::processEvents();
    QCOMPARE(m_panel->saveCodebookButton()->mapTo(&window, QPoint()).y(), saveY);
    m_panel->statusLabel()->setText(status);

    // The Image tab's statistics of the sample (451 x 300): "135,300" pixels, whole.
    window.findChild<QTabWidget*>()->setCurrentWidget(window.panel<ImagePanel>());
    QApplication::processEvents();
    QTableWidget* statistics = window.panel<ImagePanel>()->statisticsPanel()->table();
    QVERIFY(statistics->columnCount() >= 1);
    QCOMPARE(statistics->item(StatisticsPanel::Pixels, 0)->text(), QStringLiteral("135,300"));
    const QFontMetrics numbers(statistics->font());
    for (int column = 0; column < statistics->columnCount(); ++column)
        for (int r = 0; r < statistics->rowCount(); ++r) {
            const QString text = statistics->item(r, column)->text();
            QVERIFY2(statistics->columnWidth(column) >= numbers.horizontalAdvance(text) + margin,
                     qPrintable(QStringLiteral("%1: column %2 is %3 px")
                                    .arg(text)
                                    .arg(column)
                                    .arg(statistics->columnWidth(column))));
        }
    openTab(window, m_panel, Qt::ControlModifier | Qt::ShiftModifier | Qt::Key_W);
}

void TestWordsPanel::weightingKeypointsAndCsv() {
    WordsPanel* panel = m_panel;
    QVERIFY(panel->histogramsResult());
    QTableWidget* images = panel->imageTable();
    const int a = rowOf(images, WordsPanel::FileColumn, QStringLiteral("sample-a.png"));
    images->selectRow(a);
    // none: the raw counts, recomputed on the worker; they add up to the descriptors.
    choose(panel->weightingCombo(), QStringLiteral("none"));
    QTRY_COMPARE_WITH_TIMEOUT(panel->histogramsResult()->view.weighting, BowWeighting::None,
                              kTimeoutMs);
    const ImageWords& words = panel->histogramsResult()->table->images[std::size_t(a)];
    double sum = 0;
    for (auto it = panel->bars()->data()->constBegin(); it != panel->bars()->data()->constEnd();
         ++it)
        sum += it->value;
    QCOMPARE(sum, double(words.descriptors));

    // Keypoints: described again on the worker, as many as descriptors.
    QSignalSpy shown(panel, &WordsPanel::previewShown);
    panel->keypointsCheck()->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(panel->keypointsShown() > 0, kTimeoutMs);
    QCOMPARE(panel->keypointsShown(), words.descriptors);
    panel->keypointsCheck()->setChecked(false);
    QCOMPARE(panel->keypointsShown(), std::size_t(0));

    // Save CSV: wordsCsv with the chosen weighting.
    const QString csv = path(QStringLiteral("words.csv"));
    QVERIFY(panel->saveCsvTo(csv).ok);
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll().toStdString(),
             wordsCsv(*panel->histogramsResult()->table, BowWeighting::None));

    // The codebook saved and loaded back is the same.
    const QString yml = path(QStringLiteral("codebook.yml"));
    QSignalSpy saved(panel, &WordsPanel::codebookSaved);
    panel->saveCodebookTo(yml);
    QVERIFY(saved.wait(kTimeoutMs));
    const std::shared_ptr<const Codebook> before = panel->codebook();
    QSignalSpy loaded(panel, &WordsPanel::codebookChanged);
    panel->loadCodebookFrom(yml);
    QVERIFY(loaded.wait(kTimeoutMs));
    QVERIFY(panel->codebook() != before);
    QCOMPARE(panel->codebook()->values, before->values);
}

void TestWordsPanel::refusalsKeepTheResult_data() {
    QTest::addColumn<QString>("action"); // build, histograms or load
    QTest::addColumn<QString>("folder"); // relative to the test's folder ("": none)
    QTest::addColumn<int>("k");
    QTest::addColumn<QString>("says");

    QTest::newRow("no folder") << "build"
                               << "" << 8 << "No folder";
    QTest::newRow("missing folder") << "build"
                                    << "nope" << 8 << "no such folder";
    QTest::newRow("no images") << "histograms"
                               << "empty" << 8 << "no images";
    QTest::newRow("K above the descriptors") << "build"
                                             << "images" << 60000 << "K: 60000 centroids";
    QTest::newRow("unreadable codebook") << "load"
                                         << "images" << 8 << "bad.yml";
}

void TestWordsPanel::refusalsKeepTheResult() {
    QFETCH(QString, action);
    QFETCH(QString, folder);
    QFETCH(int, k);
    QFETCH(QString, says);
    WordsPanel* panel = m_panel;
    QVERIFY(panel->histogramsResult());
    const auto table = panel->histogramsResult()->table;
    const auto codebook = panel->codebook();
    const int kernelRows = panel->kernelTable()->rowCount();

    panel->folderEdit()->setText(folder.isEmpty() ? QString() : path(folder));
    panel->kSpin()->setValue(k);
    QSignalSpy problems(panel, &JobPanel::problem);
    if (action == QStringLiteral("build"))
        panel->startRun();
    else if (action == QStringLiteral("histograms"))
        panel->computeHistograms();
    else
        panel->loadCodebookFrom(path(QStringLiteral("bad.yml")));
    QTRY_COMPARE_WITH_TIMEOUT(problems.count(), 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isRunning(), kTimeoutMs);
    const QString status = panel->statusLabel()->text();
    QVERIFY2(status.contains(says), qPrintable(status));
    QVERIFY2(!status.contains(QLatin1Char('\n')), qPrintable(status)); // one line
    QVERIFY(panel->statusLabel()->styleSheet().contains(QStringLiteral("#c00000")));
    // What was shown stays.
    QCOMPARE(panel->histogramsResult()->table, table);
    QCOMPARE(panel->codebook(), codebook);
    QCOMPARE(panel->kernelTable()->rowCount(), kernelRows);
    QCOMPARE(panel->imageTable()->rowCount(), 4);

    panel->folderEdit()->setText(imagesFolder());
    panel->kSpin()->setValue(8);
}

void TestWordsPanel::planRefusesBeforeAnyImageIsDescribed() {
    // gpu5 keeps the codebook in constant memory: 65,536 centroids of 4 floats (1 MiB) do not
    // fit PoCL's. histlab-cli bow build-codebook --kernel gpu5 --k 65536 refuses it before any
    // work; the tab does too: one red line naming the kernel, and no image was described.
    WordsPanel* panel = m_panel;
    QVERIFY(panel->histogramsResult());
    const auto codebook = panel->codebook();
    panel->folderEdit()->setText(imagesFolder());
    choose(panel->kernelCombo(), QStringLiteral("gpu5"));
    panel->kSpin()->setValue(65536);
    QSignalSpy problems(panel, &JobPanel::problem);
    QSignalSpy progress(panel, &JobPanel::progressChanged);
    panel->startRun();
    QTRY_COMPARE_WITH_TIMEOUT(problems.count(), 1, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isRunning(), kTimeoutMs);
    const QString status = panel->statusLabel()->text();
    QVERIFY2(status.contains(QStringLiteral("gpu5 cannot run on")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("constant memory")), qPrintable(status));
    for (const QList<QVariant>& p : progress)
        QVERIFY2(!p.at(1).toString().contains(QStringLiteral("describ")),
                 qPrintable(p.at(1).toString()));
    QCOMPARE(panel->codebook(), codebook);

    choose(panel->kernelCombo(), QStringLiteral("auto"));
    panel->kSpin()->setValue(8);
}

void TestWordsPanel::cancelledBuildKeepsThePreviousState() {
    WordsPanel* panel = m_panel;
    QVERIFY(panel->histogramsResult());
    const auto table = panel->histogramsResult()->table;
    const auto codebook = panel->codebook();
    const QString codebookText = panel->codebookLabel()->text();
    panel->folderEdit()->setText(imagesFolder());
    panel->kSpin()->setValue(8);
    QSignalSpy built(panel, &WordsPanel::codebookChanged);
    QTest::mouseClick(panel->runButton(), Qt::LeftButton);
    QVERIFY(panel->isRunning());
    QCOMPARE(cancelAndWait(panel), QString());
    QCOMPARE(built.count(), 0);
    QCOMPARE(panel->codebook(), codebook);
    QCOMPARE(panel->codebookLabel()->text(), codebookText);
    QCOMPARE(panel->histogramsResult()->table, table);
    QCOMPARE(panel->imageTable()->rowCount(), 4);
    QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("previous")));
}

QTEST_MAIN(TestWordsPanel)
#include "tst_wordspanel.moc"
