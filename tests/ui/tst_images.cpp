// Several images in the window: File › Open with many files, drops of files (real QDragEnter
// and QDrop events with file URLs) and the refusals of what is not an image, the Images list
// with its thumbnails and its failed entries, File › Open Recent, the Log panel, and the
// window's layout remembered across sessions.
#include "bridge/logging.h"
#include "panels/batchonlist.h"
#include "panels/logpanel.h"
#include "uitestsupport.h"
#include "views/imagelist.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QMenu>
#include <QMimeData>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QToolButton>
#include <QUrl>
#include <QtTest>

#include <map>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

class TestImages : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void openSeveralListsThemAndShowsTheFirst();
    void selectingAnotherShowsIt();
    void dropOpensImagesAndExplainsRefusals();
    void dropOfTextIsRefused();
    void failedImageIsMarkedAndTheShownOneStays();
    void histogramsOfTheWholeListOnEveryDevice();
    void theListsBatchStops();
    void theListsBatchAddsCsvToATypedName();
    void recentFiles();
    void logPanelShowsWhatTheCoreReported();
    void layoutIsRemembered();

private:
    /// Sends a drag-enter, a drag-move and a drop of `mime` onto the window's centre, as a drag
    /// offering `offered` would (a text field offers a copy or a move, and proposes the move),
    /// and returns what the drag's source is told: the source removes what it dragged only on
    /// Qt::MoveAction.
    static Qt::DropAction dragAndDrop(MainWindow& window, QMimeData* mime,
                                      Qt::DropActions offered = Qt::CopyAction | Qt::MoveAction);
};

void TestImages::initTestCase() {
    QVERIFY(setUpFolder());
    QVERIFY(makeImage(64, 48, QImage::Format_RGB888).save(path("a.png")));
    QVERIFY(makeImage(33, 17, QImage::Format_Grayscale8).save(path("b.png")));
    QVERIFY(makeImage(120, 80, QImage::Format_RGB888).save(path("c.jpg")));
    QFile text(path("notes.png"));
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.write("This is a text file with an image's name.\n");
    text.close();
    // A PNG signature, then nothing decodable: it passes the drop's screen, fails to decode.
    QFile damaged(path("damaged.png"));
    QVERIFY(damaged.open(QIODevice::WriteOnly));
    damaged.write("\x89PNG\r\n\x1a\n", 8);
    damaged.write(QByteArray(100, 'x'));
    damaged.close();
    QVERIFY(QDir().mkdir(path(QStringLiteral("folder"))));
}

void TestImages::init() {
    RecentFiles::clear(); // the list this process holds, and its save, before the file goes
    RecentFiles::flush();
    QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab")).clear();
}

void TestImages::openSeveralListsThemAndShowsTheFirst() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    const QStringList three = {path("a.png"), path("b.png"), path("c.jpg")};
    window.openImages(three);
    QVERIFY(shown.wait(kTimeoutMs));
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), path("a.png"));
    QCOMPARE(window.panel<ImagePanel>()->currentImageSize(), QSize(64, 48));

    ImageList* list = window.panel<ImageList>();
    QCOMPARE(list->paths(), three);
    QVERIFY(window.imagesDock()->isVisible()); // shown once a second image joined
    QCOMPARE(list->currentItem()->text(), QStringLiteral("a.png"));
    for (const QString& p : three) {
        QTRY_VERIFY_WITH_TIMEOUT(list->hasThumbnail(p), kTimeoutMs);
        const QListWidgetItem* item = list->findItems(QFileInfo(p).fileName(), Qt::MatchExactly)[0];
        QVERIFY(!item->icon().isNull());
        QVERIFY2(item->toolTip().contains(QStringLiteral(" × ")), qPrintable(item->toolTip()));
    }
    // Opening one again does not add it twice.
    window.openImages({path("b.png")});
    QCOMPARE(list->count(), 3);
}

void TestImages::selectingAnotherShowsIt() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImages({path("a.png"), path("b.png")});
    QVERIFY(shown.wait(kTimeoutMs));
    shown.clear();
    window.panel<ImageList>()->setCurrentRow(1); // as a click or the arrow keys do
    QVERIFY(shown.wait(kTimeoutMs));
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), path("b.png"));
    QCOMPARE(window.panel<ImagePanel>()->currentImageSize(), QSize(33, 17));
    QCOMPARE(window.panel<ImagePanel>()->currentRun().histograms.size(),
             std::size_t(1)); // gray: one channel
}

Qt::DropAction TestImages::dragAndDrop(MainWindow& window, QMimeData* mime,
                                       Qt::DropActions offered) {
    const QPoint centre(window.width() / 2, window.height() / 2);
    QDragEnterEvent enter(centre, offered, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    if (!enter.isAccepted())
        return Qt::IgnoreAction;
    if (enter.dropAction() != Qt::CopyAction)
        return enter.dropAction(); // the cursor would say so
    QDragMoveEvent move(centre, offered, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &move);
    if (!move.isAccepted() || move.dropAction() != Qt::CopyAction)
        return move.isAccepted() ? move.dropAction() : Qt::IgnoreAction;
    QDropEvent drop(QPointF(centre), offered, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    return drop.isAccepted() ? drop.dropAction() : Qt::IgnoreAction;
}

void TestImages::dropOpensImagesAndExplainsRefusals() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    QSignalSpy errors(&window, &MainWindow::errorShown);

    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path("c.jpg")), QUrl::fromLocalFile(path("notes.png")),
                  QUrl::fromLocalFile(path("folder")), QUrl::fromLocalFile(path("missing.png")),
                  QUrl(QStringLiteral("https://example.com/photo.png")),
                  QUrl::fromLocalFile(path("a.png"))});
    QCOMPARE(dragAndDrop(window, &mime), Qt::CopyAction); // a file manager keeps its files
    QCOMPARE(errors.count(), 1);
    const QString message = errors.first().first().toString();
    for (const QString& refusal :
         {path("notes.png") + QStringLiteral(": not an image HistLab can read"),
          path("folder") + QStringLiteral(": is a folder, not an image file"),
          path("missing.png") + QStringLiteral(": no such file"),
          QStringLiteral("https://example.com/photo.png: not a local file")})
        QVERIFY2(message.contains(refusal), qPrintable(message));
    QVERIFY(!message.contains(QStringLiteral("c.jpg")));
    QCOMPARE(window.lastError(), message);

    // The two images are opened all the same: the first shown, both listed.
    QVERIFY(shown.wait(kTimeoutMs));
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), path("c.jpg"));
    QCOMPARE(window.panel<ImageList>()->paths(), QStringList({path("c.jpg"), path("a.png")}));
}

void TestImages::dropOfTextIsRefused() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy errors(&window, &MainWindow::errorShown);
    QMimeData mime;
    mime.setText(QStringLiteral("some words"));
    // Refused with a reason, and ignored: the text field it came from keeps it.
    QCOMPARE(dragAndDrop(window, &mime), Qt::IgnoreAction);
    QCOMPARE(errors.count(), 1);
    QVERIFY2(errors.first().first().toString().contains(
                 QStringLiteral("only image files can be dropped")),
             qPrintable(errors.first().first().toString()));
    QVERIFY(!window.isBusy()); // nothing was asked for
    QCOMPARE(window.panel<ImageList>()->count(), 0);

    // A drag that offers only a move is not taken, files or text: nothing opens, nothing is
    // said, and the source keeps what it offered.
    QMimeData files;
    files.setUrls({QUrl::fromLocalFile(path("a.png"))});
    QCOMPARE(dragAndDrop(window, &files, Qt::MoveAction), Qt::IgnoreAction);
    QCOMPARE(dragAndDrop(window, &mime, Qt::MoveAction), Qt::IgnoreAction);
    QCOMPARE(errors.count(), 1);
    QCOMPARE(window.panel<ImageList>()->count(), 0);
}

void TestImages::failedImageIsMarkedAndTheShownOneStays() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    QSignalSpy errors(&window, &MainWindow::errorShown);
    window.openImages({path("a.png"), path("damaged.png")});
    QVERIFY(shown.wait(kTimeoutMs));
    window.panel<ImageList>()->setCurrentRow(1);
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kTimeoutMs);
    QVERIFY2(errors.first().first().toString().contains(QStringLiteral("damaged.png")),
             qPrintable(errors.first().first().toString()));
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), path("a.png")); // still shown
    QCOMPARE(window.panel<ImageList>()->currentItem()->text(), QStringLiteral("a.png"));
    const QListWidgetItem* failed = window.panel<ImageList>()->item(1);
    QVERIFY2(failed->toolTip().contains(QStringLiteral("damaged.png")),
             qPrintable(failed->toolTip()));
    // Selected again, unchanged: the reason in the status bar, no second decode or error box.
    window.panel<ImageList>()->setCurrentRow(1);
    QTest::qWait(300);
    QCOMPARE(errors.count(), 1);
    QVERIFY(!window.isBusy());
    QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("unchanged since")),
             qPrintable(window.statusBar()->currentMessage()));
    QCOMPARE(window.panel<ImageList>()->currentItem()->text(), QStringLiteral("a.png"));
    // Once the file changes (here: now a good image), selecting it opens it.
    QFile file(path("damaged.png"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray damagedBytes = file.readAll();
    file.close();
    QVERIFY(QFile::remove(path("damaged.png")) && QFile::copy(path("b.png"), path("damaged.png")));
    window.panel<ImageList>()->setCurrentRow(1);
    const bool opened = shown.wait(kTimeoutMs);
    QVERIFY(QFile::remove(path("damaged.png"))); // damaged again, for the tests after this one
    QVERIFY(file.open(QIODevice::WriteOnly) && file.write(damagedBytes) == damagedBytes.size());
    file.close();
    QVERIFY(opened);
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), path("damaged.png"));
}

void TestImages::histogramsOfTheWholeListOnEveryDevice() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openSample();
    QVERIFY(shown.wait(kTimeoutMs));
    const QStringList files = {path("a.png"), path("b.png"), path("c.jpg"), path("damaged.png")};
    window.openImages(files);
    QVERIFY(shown.wait(kTimeoutMs));
    // The list's context menu offers it.
    bool offered = false;
    for (const QAction* action : window.panel<ImageList>()->actions())
        offered = offered || action->text().startsWith(QStringLiteral("Histograms of All"));
    QVERIFY(offered);

    QSignalSpy finished(&window, &MainWindow::batchFinished);
    const QString csv = path("all.csv");
    window.runBatchOnList(csv);
    QVERIFY(finished.wait(kTimeoutMs));
    const QString summary = finished.first().at(0).toString();
    qInfo("%s", qPrintable(summary));
    QVERIFY(!finished.first().at(1).toBool()); // damaged.png was not counted
    QVERIFY2(summary.startsWith(QStringLiteral("Histograms of 4 image(s) on ")),
             qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral(": 1 not counted, 0 mismatched; saved to ")),
             qPrintable(summary));
    QVERIFY2(summary.endsWith(QStringLiteral("(the bundled sample left out)")),
             qPrintable(summary));
    QVERIFY(window.statusBar()->currentMessage() == summary);

    // One row an image and histogram, in the list's order; each histogram's counts add up to
    // its pixels; the damaged file a row with its reason.
    QFile table(csv);
    QVERIFY(table.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(table.readAll()).split('\n', Qt::SkipEmptyParts);
    const QStringList header = lines.first().split(',');
    const int file = int(header.indexOf(QStringLiteral("file"))),
              status = int(header.indexOf(QStringLiteral("status"))),
              histogram = int(header.indexOf(QStringLiteral("histogram"))),
              b0 = int(header.indexOf(QStringLiteral("b0")));
    QVERIFY(file >= 0 && status >= 0 && histogram >= 0 && b0 >= 0);
    const std::map<QString, qint64> pixels = {
        {path("a.png"), 64 * 48}, {path("b.png"), 33 * 17}, {path("c.jpg"), 120 * 80}};
    QStringList order, names;
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split(',');
        if (order.isEmpty() || order.last() != cells[file])
            order << cells[file];
        if (cells[file] == path("damaged.png")) {
            QVERIFY2(cells[status] != QStringLiteral("verified"), qPrintable(lines[i]));
            continue;
        }
        QCOMPARE(cells[status], QStringLiteral("verified"));
        qint64 sum = 0;
        for (int b = 0; b < 256; ++b)
            sum += cells[b0 + b].toLongLong();
        QCOMPARE(sum, pixels.at(cells[file]));
        names << QFileInfo(cells[file]).fileName() + QLatin1Char(':') + cells[histogram];
    }
    QCOMPARE(order, files);
    QVERIFY2(names.contains(QStringLiteral("a.png:r")) &&
                 names.contains(QStringLiteral("a.png:gray")) &&
                 names.contains(QStringLiteral("b.png:gray")),
             qPrintable(names.join(' ')));
    QVERIFY(!QFile::exists(csv + QStringLiteral(".tmp")));
}

void TestImages::theListsBatchStops() {
    // 400 links to one 2000 x 1500 JPEG, about ten seconds of work here: stopped once it has
    // begun, the rows of the images done are saved.
    QVERIFY(QDir().mkpath(path(QStringLiteral("many"))));
    const QString big = path(QStringLiteral("many/big.jpg"));
    QVERIFY(makeImage(2000, 1500, QImage::Format_RGB888).save(big, "JPEG", 95));
    QStringList many;
    for (int i = 0; i < 400; ++i) {
        const QString p = path(QStringLiteral("many/%1.jpg").arg(i, 3, 10, QLatin1Char('0')));
        QVERIFY(QFile::exists(p) || QFile::link(big, p));
        many << p;
    }
    MainWindow window;
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImages(many);
    QVERIFY(shown.wait(kTimeoutMs));
    auto* stop = window.findChild<QToolButton*>(QStringLiteral("cancelBatchButton"));
    QVERIFY(stop);
    QVERIFY(!stop->isVisible());
    QSignalSpy finished(&window, &MainWindow::batchFinished);
    const QString csv = path("stopped.csv");
    window.runBatchOnList(csv);
    QTRY_VERIFY_WITH_TIMEOUT(stop->isVisible(), kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().startsWith(
                                 QStringLiteral("Histograms of every image: ")),
                             kTimeoutMs);
    // Stopped once an image is done (each progress line follows one): the rows done are
    // saved, the status says how many, and no modal warning opens (the dialogs are on here).
    stop->click();
    QVERIFY(finished.wait(kTimeoutMs));
    const QString summary = finished.first().at(0).toString();
    const QRegularExpressionMatch match =
        QRegularExpression(QStringLiteral("^Histograms of every image stopped after (\\d+) of "
                                          "400; their rows saved to "))
            .match(summary);
    QVERIFY2(match.hasMatch(), qPrintable(summary));
    QVERIFY(!finished.first().at(1).toBool());
    QTRY_VERIFY_WITH_TIMEOUT(!stop->isVisible(), kTimeoutMs);
    QVERIFY(!QApplication::activeModalWidget());
    QVERIFY(QFile::exists(csv));
    QFile table(csv);
    QVERIFY(table.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(table.readAll()).split('\n', Qt::SkipEmptyParts);
    const QStringList header = lines.first().split(',');
    const int file = int(header.indexOf(QStringLiteral("file")));
    QSet<QString> files;
    for (int i = 1; i < lines.size(); ++i)
        files.insert(lines[i].split(',').at(file));
    QCOMPARE(files.size(), match.captured(1).toInt());
}

// A name typed without an extension in the batch's save dialog is saved as NAME.csv, as every
// other save dialog does.
void TestImages::theListsBatchAddsCsvToATypedName() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImages({path("a.png"), path("b.png")});
    QVERIFY(shown.wait(kTimeoutMs));
    auto* batch = window.findChild<BatchOnList*>();
    QVERIFY(batch);
    const QString typed = path("batch1");
    QFile::remove(typed + QStringLiteral(".csv"));
    batch->setFileChooser([typed](QWidget*, const QString&, const QString& start,
                                  const QString& filter) {
        // The dialog proposes a CSV name and filter; the user types a bare name.
        return start.endsWith(QStringLiteral(".csv")) && filter.contains(QStringLiteral("*.csv"))
                   ? typed
                   : QString();
    });
    QSignalSpy finished(&window, &MainWindow::batchFinished);
    batch->chooseFileAndRun(&window);
    QVERIFY(finished.wait(kTimeoutMs));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(0).toString()));
    QVERIFY(QFile::exists(typed + QStringLiteral(".csv")));
    QVERIFY(!QFile::exists(typed));
    QVERIFY2(finished.first().at(0).toString().endsWith(
                 QDir::toNativeSeparators(typed + QStringLiteral(".csv"))),
             qPrintable(finished.first().at(0).toString()));
}

void TestImages::recentFiles() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImage(path("a.png"));
    QVERIFY(shown.wait(kTimeoutMs));
    window.openImage(path("b.png"));
    QVERIFY(shown.wait(kTimeoutMs));
    QCOMPARE(RecentFiles::load(), QStringList({path("b.png"), path("a.png")}));
    window.openSample(); // the bundled sample is not a recent file
    QVERIFY(shown.wait(kTimeoutMs));
    QCOMPARE(RecentFiles::load().size(), 2);

    RecentFiles::add(path("gone.png")); // a file that no longer exists
    QMenu* menu = window.recentMenu();
    emit menu->aboutToShow();
    const QList<QAction*> actions = menu->actions();
    QVERIFY(actions.size() >= 3);
    QVERIFY2(actions[0]->text().contains(QStringLiteral("gone.png")),
             qPrintable(actions[0]->text()));
    QVERIFY(actions[0]->text().contains(QStringLiteral("(missing)")));
    QVERIFY(!actions[0]->isEnabled());
    QVERIFY(actions[1]->text().contains(QStringLiteral("b.png")));
    QCOMPARE(actions[1]->toolTip(), QDir::toNativeSeparators(path("b.png")));
    QVERIFY(actions[2]->text().contains(QStringLiteral("a.png")));

    actions[2]->trigger(); // reopens a.png
    QVERIFY(shown.wait(kTimeoutMs));
    QCOMPARE(window.panel<ImagePanel>()->currentSource(), path("a.png"));
    QCOMPARE(RecentFiles::load().first(), path("a.png"));

    for (int i = 0; i < RecentFiles::maxRecent + 5; ++i)
        RecentFiles::add(path(QStringLiteral("img%1.png").arg(i)));
    QCOMPARE(RecentFiles::load().size(), RecentFiles::maxRecent);
    // Saved off the GUI thread; flush() waits, and the settings file then holds the list.
    RecentFiles::flush();
    QCOMPARE(QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab"))
                 .value(QStringLiteral("recentFiles"))
                 .toStringList(),
             RecentFiles::load());

    emit menu->aboutToShow();
    QAction* clear = nullptr;
    for (QAction* a : menu->actions())
        if (a->text().contains(QStringLiteral("Clear")))
            clear = a;
    QVERIFY(clear && clear->isEnabled());
    clear->trigger();
    QVERIFY(RecentFiles::load().isEmpty());
    RecentFiles::flush();
    QVERIFY(!QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab"))
                 .contains(QStringLiteral("recentFiles")));
}

void TestImages::logPanelShowsWhatTheCoreReported() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    QSignalSpy errors(&window, &MainWindow::errorShown);
    window.openImage(path("a.png"));
    QVERIFY(shown.wait(kTimeoutMs));
    window.openImage(path("notes.png"));
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kTimeoutMs);

    LogPanel* log = window.panel<LogPanel>();
    // Each window has its own worker: it opens the device and builds its kernels again.
    QTRY_VERIFY_WITH_TIMEOUT(log->text().contains(QStringLiteral("not an image")), kTimeoutMs);
    const QString text = log->text();
    for (const QString& expected :
         {QStringLiteral("opened device"), QStringLiteral("selected device"),
          QStringLiteral("built histogram256.cl"), QStringLiteral("\"-D"),
          QStringLiteral("a.png analysed:"), path("notes.png") + QStringLiteral(": not an image")})
        QVERIFY2(text.contains(expected), qPrintable(expected + QStringLiteral("\n---\n") + text));

    log->setMinimumLevel(2); // warnings and errors only
    QVERIFY(!log->text().contains(QStringLiteral("built histogram256.cl")));
    QVERIFY(log->text().contains(QStringLiteral("not an image")));
    log->clear();
    QVERIFY(log->text().isEmpty());
}

void TestImages::layoutIsRemembered() {
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!window.logDock()->isVisible()); // hidden until asked for
        window.logDock()->show();
        window.addDockWidget(Qt::RightDockWidgetArea, window.imagesDock());
        window.imagesDock()->show();
        window.close(); // saves the layout
    }
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.logDock()->isVisible());
    // The Images dock waits for a second image, then comes back where it was.
    QVERIFY(!window.imagesDock()->isVisible());
    window.openImages({path("a.png"), path("b.png")});
    QTRY_VERIFY_WITH_TIMEOUT(window.imagesDock()->isVisible(), kTimeoutMs);
    QCOMPARE(window.dockWidgetArea(window.imagesDock()), Qt::RightDockWidgetArea);
    // Never narrower than a thumbnail, whatever width is asked for.
    window.resizeDocks({window.imagesDock()}, {10}, Qt::Horizontal);
    QTRY_VERIFY(window.imagesDock()->width() >= ImageList::thumbnailSide);
}

QTEST_MAIN(TestImages)
#include "tst_images.moc"
