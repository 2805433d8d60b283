// The image view on its own (fit, 1:1, zoom around the cursor, pan, the pixel under the cursor,
// a dragged region, all in full-image pixels even when the preview is downscaled), then in the
// window on PoCL: a selected region becomes the histograms' and statistics' input, clearing it
// brings the whole image back, and of a quick series of regions the last one is what shows.
#include "bridge/imagecache.h"
#include "bridge/logging.h"
#include "common/regiondialog.h"
#include "panels/runpanel.h"
#include "panels/statisticspanel.h"
#include "plots/histogramplot.h"
#include "uitestsupport.h"
#include "views/compareview.h"
#include "views/imageview.h"
#include "window/mainwindow.h"

#include <image/image.h>
#include <io/imageio.h>
#include <pipelines/histogramstats.h>

#include <QAbstractButton>
#include <QApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QMouseEvent>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QWheelEvent>
#include <QtTest>

#include <array>
#include <chrono>
#include <cmath>
#include <future>
#include <optional>
#include <vector>

using namespace histlab;
using namespace histlab::ui;
using namespace histlab::uitest;

namespace {

/// The preview JobBridge makes of a large image: at most maxPreviewSide on its longer side.
QImage previewOf(const QImage& image) {
    const int side = histlab::ui::JobBridge::maxPreviewSide;
    return image.scaled(side, side, Qt::KeepAspectRatio, Qt::SmoothTransformation);
}

/// Black and white pixels alternating: mid-grey once area-averaged.
QImage checkerboard(int width, int height) {
    QImage board(width, height, QImage::Format_RGB32);
    for (int y = 0; y < height; ++y) {
        auto* line = reinterpret_cast<QRgb*>(board.scanLine(y));
        for (int x = 0; x < width; ++x)
            line[x] = (x + y) % 2 ? qRgb(255, 255, 255) : qRgb(0, 0, 0);
    }
    return board;
}

/// True when the 40 × 20 pixels around `centre` of a grab (one device pixel per widget pixel)
/// are all mid-grey (120 ... 135): an area average, not a point sample.
bool isMidGrey(const QPixmap& grab, const QPoint& centre) {
    QImage picture = grab.toImage();
    picture.setDevicePixelRatio(1);
    for (int y = centre.y() - 10; y < centre.y() + 10; ++y)
        for (int x = centre.x() - 20; x < centre.x() + 20; ++x)
            if (const int g = qGray(picture.pixel(x, y)); g < 120 || g > 135)
                return false;
    return true;
}

bool sameRegion(const std::optional<Region>& a, const std::optional<Region>& b) {
    if (!a || !b)
        return !a && !b;
    return a->x == b->x && a->y == b->y && a->width == b->width && a->height == b->height;
}

QString describe(const std::optional<Region>& r) {
    if (!r)
        return QStringLiteral("none");
    return QStringLiteral("%1,%2 %3x%4").arg(r->x).arg(r->y).arg(r->width).arg(r->height);
}

/// A mouse move without buttons, sent to the widget itself (QTest moves the cursor instead).
void hover(QWidget* widget, const QPointF& pos) {
    QMouseEvent move(QEvent::MouseMove, pos, widget->mapToGlobal(pos), Qt::NoButton, Qt::NoButton,
                     Qt::NoModifier);
    QApplication::sendEvent(widget, &move);
}

void wheel(QWidget* widget, const QPointF& pos, int delta) {
    QWheelEvent event(pos, widget->mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
}

/// The widget position of the centre of image pixel `pixel`.
QPoint centreOf(const ImageView& view, QPoint pixel) {
    return view.mapFromImage(QPointF(pixel) + QPointF(0.5, 0.5)).toPoint();
}

/// Drags with the left button from pixel `from` over `via` to pixel `to`.
void drag(ImageView* view, QPoint from, QPoint via, QPoint to) {
    QTest::mousePress(view, Qt::LeftButton, {}, centreOf(*view, from));
    QTest::mouseMove(view, centreOf(*view, via));
    QTest::mouseMove(view, centreOf(*view, to));
    QTest::mouseRelease(view, Qt::LeftButton, {}, centreOf(*view, to));
}

/// The window's histograms of `region` of the file, from its pixels: each channel, then gray
/// (luma of R, G, B; the image itself when it is gray). 8-bit fixtures only.
std::vector<std::array<std::uint64_t, 256>> regionCounts(const QString& file, const Region& r) {
    const histlab::HostImage image = histlab::loadImage(QFile::encodeName(file).toStdString());
    const int nchan = image.channels;
    std::vector<std::array<std::uint64_t, 256>> counts(nchan == 1 ? 1 : nchan + 1);
    for (int y = r.y; y < r.y + r.height; ++y)
        for (int x = r.x; x < r.x + r.width; ++x) {
            const std::uint8_t* p = image.data.data() + (std::size_t(y) * image.width + x) * nchan;
            for (int c = 0; c < nchan; ++c)
                ++counts[std::size_t(c)][p[c]];
            if (nchan > 1)
                ++counts[std::size_t(nchan)][histlab::lumaOf(p[0], p[1], p[2])];
        }
    return counts;
}

Region wholeOf(const QString& file) {
    const histlab::HostImage image = histlab::loadImage(QFile::encodeName(file).toStdString());
    return Region{0, 0, image.width, image.height};
}

/// Compares what the window shows (the run, the plot, the statistics) with `expected`.
void verifyShown(const MainWindow& window,
                 const std::vector<std::array<std::uint64_t, 256>>& expected,
                 std::uint64_t pixels) {
    const auto& histograms = window.panel<ImagePanel>()->currentRun().histograms;
    QCOMPARE(histograms.size(), expected.size());
    const auto& statistics = window.panel<ImagePanel>()->statisticsPanel()->statistics();
    QCOMPARE(statistics.size(), expected.size());
    for (std::size_t c = 0; c < expected.size(); ++c) {
        const QString name = QString::fromStdString(histograms[c].name);
        QVERIFY2(histograms[c].counts == expected[c], qPrintable(name));
        QCPGraph* graph = window.panel<ImagePanel>()->histogramPlot()->channelGraph(name);
        QVERIFY2(graph, qPrintable(name));
        QCOMPARE(graph->data()->size(), 256);
        for (int bin = 0; bin < 256; ++bin)
            QCOMPARE(graph->data()->at(bin)->value, double(expected[c][std::size_t(bin)]));
        QCOMPARE(statistics[c].count, pixels);
        QCOMPARE(window.panel<ImagePanel>()
                     ->statisticsPanel()
                     ->table()
                     ->item(StatisticsPanel::Pixels, int(c))
                     ->text()
                     .remove(',')
                     .toULongLong(),
                 quint64(pixels));
    }
}

} // namespace

class TestImageView : public QObject, public TestFolder {
    Q_OBJECT

private slots:
    void initTestCase();
    void mapsAtFit_data();
    void mapsAtFit();
    void mapsAtActualSize_data();
    void mapsAtActualSize();
    void zoomsAroundTheCursor();
    void shrunkPaintsTheAreaAverage();
    void smoothCopyKeepsOffQtsPool();
    void compareViewSmoothsBothImages();
    void shortcutsZoom();
    void pans();
    void overviewPansWhileZoomed();
    void hoverShowsPixelValue_data();
    void hoverShowsPixelValue();
    void highlightStaysInsideTheRegion();
    void hoverOnDownscaledPreview();
    void dragSelectsRegion_data();
    void dragSelectsRegion();
    void clickAndEscapeClearRegion();
    void regionMovesAndResizes();
    void regionDrivesHistogram_data();
    void regionDrivesHistogram();
    void regionOfDownscaledImage();
    void newestRegionWins();
    void histogramFollowsTheDrag();
    void typedRegionIsAnalysed();

private:
    QImage m_large; // 3000 x 1000 RGB, also saved as large.ppm
};

void TestImageView::initTestCase() {
    QVERIFY(setUpFolder());
    m_large = makeImage(3000, 1000, QImage::Format_RGB888);
    QVERIFY(m_large.save(path("large.ppm")));
}

void TestImageView::mapsAtFit_data() {
    QTest::addColumn<QSize>("imageSize");
    QTest::addColumn<QSize>("previewSize");
    QTest::addColumn<QSize>("viewSize");
    QTest::addColumn<double>("scale");
    QTest::addColumn<QPointF>("viewPos");
    QTest::addColumn<QPointF>("imagePos");
    QTest::addColumn<QPoint>("pixel");

    QTest::newRow("exact fit, top-left")
        << QSize(100, 50) << QSize(100, 50) << QSize(400, 200) << 4.0 << QPointF(2, 2)
        << QPointF(0.5, 0.5) << QPoint(0, 0);
    QTest::newRow("exact fit, bottom-right")
        << QSize(100, 50) << QSize(100, 50) << QSize(400, 200) << 4.0 << QPointF(399, 199)
        << QPointF(99.75, 49.75) << QPoint(99, 49);
    QTest::newRow("pillarboxed") << QSize(100, 100) << QSize(100, 100) << QSize(400, 200) << 2.0
                                 << QPointF(100, 0) << QPointF(0, 0) << QPoint(0, 0);
    QTest::newRow("pillarboxed, centre")
        << QSize(100, 100) << QSize(100, 100) << QSize(400, 200) << 2.0 << QPointF(200, 100)
        << QPointF(50, 50) << QPoint(50, 50);
    // The preview is 2048 x 682: positions are still the file's.
    QTest::newRow("downscaled preview, bottom-right")
        << QSize(3000, 1000) << QSize(2048, 682) << QSize(600, 200) << 0.2 << QPointF(599, 199)
        << QPointF(2995, 995) << QPoint(2995, 995);
    QTest::newRow("downscaled preview, centre")
        << QSize(3000, 1000) << QSize(2048, 682) << QSize(600, 200) << 0.2 << QPointF(300, 100)
        << QPointF(1500, 500) << QPoint(1500, 500);
}

void TestImageView::mapsAtFit() {
    QFETCH(QSize, imageSize);
    QFETCH(QSize, previewSize);
    QFETCH(QSize, viewSize);
    QFETCH(double, scale);
    QFETCH(QPointF, viewPos);
    QFETCH(QPointF, imagePos);
    QFETCH(QPoint, pixel);

    ImageView view;
    view.resize(viewSize);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCOMPARE(view.size(), viewSize);
    view.setImage(makeImage(previewSize.width(), previewSize.height(), QImage::Format_RGB888),
                  imageSize);
    QVERIFY(view.isFitted());
    QCOMPARE(view.imageSize(), imageSize);
    QCOMPARE(view.scale(), scale);
    QCOMPARE(view.mapToImage(viewPos), imagePos);
    QCOMPARE(view.mapFromImage(imagePos), viewPos);
    QCOMPARE(view.pixelAt(viewPos), std::optional<QPoint>(pixel));
    QVERIFY(!view.pixelAt(QPointF(-1, -1)));

    // Fit follows the widget's size.
    view.resize(viewSize * 2);
    QTRY_COMPARE(view.scale(), scale * 2);
    QCOMPARE(view.mapToImage(viewPos * 2), imagePos);
}

void TestImageView::mapsAtActualSize_data() {
    QTest::addColumn<QSize>("imageSize");
    QTest::addColumn<QSize>("previewSize");
    QTest::addColumn<QPointF>("viewPos");
    QTest::addColumn<QPointF>("imagePos");

    // A 600 x 200 view: a small image sits in the middle, a large one shows its centre.
    QTest::newRow("small image, centred")
        << QSize(100, 50) << QSize(100, 50) << QPointF(250, 75) << QPointF(0, 0);
    QTest::newRow("large image, centre")
        << QSize(3000, 1000) << QSize(2048, 682) << QPointF(300, 100) << QPointF(1500, 500);
    QTest::newRow("large image, top-left")
        << QSize(3000, 1000) << QSize(2048, 682) << QPointF(0, 0) << QPointF(1200, 400);
}

void TestImageView::mapsAtActualSize() {
    QFETCH(QSize, imageSize);
    QFETCH(QSize, previewSize);
    QFETCH(QPointF, viewPos);
    QFETCH(QPointF, imagePos);

    ImageView view;
    view.resize(600, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setImage(makeImage(previewSize.width(), previewSize.height(), QImage::Format_RGB888),
                  imageSize);
    QSignalSpy scaled(&view, &ImageView::scaleChanged);
    view.actualSize();
    QVERIFY(!view.isFitted());
    QCOMPARE(view.scale(), 1.0);
    QCOMPARE(scaled.count(), 1);
    QCOMPARE(scaled.first().first().toDouble(), 1.0);
    QCOMPARE(view.mapToImage(viewPos), imagePos);
    QCOMPARE(view.mapFromImage(imagePos), viewPos);
    QVERIFY(!view.grab().isNull()); // paints at 1:1 (the preview magnified when downscaled)

    view.fitToWindow();
    QVERIFY(view.isFitted());
    QCOMPARE(view.scale(), std::min(600.0 / imageSize.width(), 200.0 / imageSize.height()));
}

void TestImageView::shrunkPaintsTheAreaAverage() {
    // A one-pixel checkerboard shrunk five times: its area average is mid-grey everywhere;
    // a point sample (what a cheap scaling does) is black or white. The smooth copy is made
    // off the GUI thread and replaces the first, bilinear picture by itself.
    ImageView view;
    view.resize(400, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setImage(checkerboard(2000, 1000));
    QCOMPARE(view.scale(), 0.2);
    const QPoint centre(200, 100);
    view.grab(); // the first paint asks for the smooth copy
    QTRY_VERIFY_WITH_TIMEOUT(isMidGrey(view.grab(), centre), 10000);

    // A new image drops the copy of the old one; finishSmoothCopies() waits for the new one.
    QImage white(2000, 1000, QImage::Format_RGB32);
    white.fill(Qt::white);
    view.setImage(white);
    view.grab();
    view.finishSmoothCopies();
    QImage picture = view.grab().toImage();
    QCOMPARE(qGray(picture.pixel(centre)), 255);
}

void TestImageView::smoothCopyKeepsOffQtsPool() {
    // Qt 6.4's painting on the GUI thread waits on Qt's global thread pool, and so does its own
    // smooth scaling of a large image. The view's smooth copies and the list's thumbnails are
    // made by smoothScaled(): with every thread of that pool held, it still finishes.
    QThreadPool* pool = QThreadPool::globalInstance();
    QSemaphore held, release;
    const int threads = pool->maxThreadCount();
    for (int i = 0; i < threads; ++i)
        pool->start([&] {
            held.release();
            release.acquire();
        });
    QVERIFY(held.tryAcquire(threads, 10000));
    const QImage board = checkerboard(2000, 1000);
    QImage gray(2000, 1000, QImage::Format_Grayscale8);
    for (int y = 0; y < gray.height(); ++y)
        for (int x = 0; x < gray.width(); ++x)
            gray.scanLine(y)[x] = (x + y) % 2 ? 200 : 100;
    // Straight alpha: transparent red beside opaque blue averages to half-transparent blue,
    // with none of the red that is not there.
    QImage alpha(2000, 1000, QImage::Format_RGBA8888);
    for (int y = 0; y < alpha.height(); ++y) {
        uchar* line = alpha.scanLine(y);
        for (int x = 0; x < alpha.width(); ++x) {
            const bool blue = (x + y) % 2;
            const std::array<uchar, 4> px =
                blue ? std::array<uchar, 4>{0, 0, 255, 255} : std::array<uchar, 4>{255, 0, 0, 0};
            std::copy(px.begin(), px.end(), line + 4 * x);
        }
    }
    auto made = std::async(std::launch::async, [&] {
        return std::array<QImage, 3>{smoothScaled(board, QSize(400, 200)),
                                     smoothScaled(gray, QSize(400, 200)),
                                     smoothScaled(alpha, QSize(400, 200))};
    });
    const bool finished = made.wait_for(std::chrono::seconds(30)) == std::future_status::ready;
    // Qt's own, for the record: whether it waits for the held pool on this Qt.
    auto qts = std::async(std::launch::async, [&] {
        return board.scaled(400, 200, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    });
    const bool qtWaited = qts.wait_for(std::chrono::milliseconds(500)) != std::future_status::ready;
    release.release(threads);
    qts.wait();
    qInfo("QImage::scaled(Qt::SmoothTransformation) %s Qt's held global pool",
          qtWaited ? "waited for" : "did not wait for");
    QVERIFY2(finished, "smoothScaled() waited for Qt's global thread pool");
    const std::array<QImage, 3> out = made.get();
    QCOMPARE(out[0].format(), QImage::Format_RGB32);
    QCOMPARE(out[1].format(), QImage::Format_RGB32); // gray, ready to paint
    QCOMPARE(out[2].format(), QImage::Format_ARGB32_Premultiplied);
    for (const QImage& image : out)
        QCOMPARE(image.size(), QSize(400, 200));
    // 5 x 5 areas of the checkerboards: 12 or 13 of one value, 13 or 12 of the other.
    for (const QPoint p : {QPoint(0, 0), QPoint(201, 77), QPoint(399, 199)}) {
        const int board = qGray(out[0].pixel(p)), twoGrays = qGray(out[1].pixel(p));
        QVERIFY2(board >= 122 && board <= 133, qPrintable(QString::number(board)));
        QVERIFY2(twoGrays >= 148 && twoGrays <= 152, qPrintable(QString::number(twoGrays)));
        const QRgb mixed = reinterpret_cast<const QRgb*>(out[2].constScanLine(p.y()))[p.x()];
        QCOMPARE(qRed(mixed), 0);
        QVERIFY2(qAlpha(mixed) >= 122 && qAlpha(mixed) <= 133,
                 qPrintable(QString::number(qAlpha(mixed))));
        QCOMPARE(qBlue(mixed), qAlpha(mixed)); // premultiplied opaque blue
    }
}

void TestImageView::compareViewSmoothsBothImages() {
    // Two layers ask for their copies in one paint, and again at another size while the
    // copying thread is busy: each layer still gets the copy of the latest size.
    CompareView view;
    view.resize(800, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const QImage board = checkerboard(2000, 1000);
    view.setImages(board, board);
    QSemaphore busy;
    view.smoothCopyPool()->start([&busy] { busy.acquire(); }); // the thread held
    view.grab();
    view.resize(700, 240); // a smaller scale in either mode
    view.grab();
    busy.release();
    const auto bothGrey = [&view] {
        const QPixmap picture = view.grab();
        return isMidGrey(picture, QPoint(view.width() / 4, view.height() / 2)) &&
               isMidGrey(picture, QPoint(view.width() * 3 / 4, view.height() / 2));
    };
    QTRY_VERIFY_WITH_TIMEOUT(bothGrey(), 10000);
}

void TestImageView::zoomsAroundTheCursor() {
    ImageView view;
    view.resize(400, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setImage(makeImage(100, 50, QImage::Format_RGB888));
    QCOMPARE(view.scale(), 4.0);

    // One notch in: the image point under the cursor stays under it.
    const QPointF cursor(100, 60);
    const QPointF before = view.mapToImage(cursor);
    wheel(&view, cursor, 120);
    QVERIFY(!view.isFitted());
    QVERIFY(std::abs(view.scale() - 4.0 * std::pow(2.0, 0.25)) < 1e-9);
    QVERIFY(std::abs(view.mapToImage(cursor).x() - before.x()) < 1e-9);
    QVERIFY(std::abs(view.mapToImage(cursor).y() - before.y()) < 1e-9);
    const QPointF after = view.mapToImage(cursor);
    QCOMPARE(view.pixelAt(cursor), std::optional<QPoint>(QPoint(int(after.x()), int(after.y()))));

    // Four more: twice the scale again, the same point still under the cursor.
    wheel(&view, cursor, 480);
    QVERIFY(std::abs(view.scale() - 8.0 * std::pow(2.0, 0.25)) < 1e-9);
    QVERIFY(std::abs(view.mapToImage(cursor).x() - before.x()) < 1e-9);
    QVERIFY(std::abs(view.mapToImage(cursor).y() - before.y()) < 1e-9);
    QVERIFY(!view.grab().isNull()); // paints magnified

    // Out past the fitted size: the image is centred again.
    wheel(&view, cursor, -120 * 16);
    QVERIFY(view.scale() < 4.0);
    QCOMPARE(view.mapToImage(QPointF(200, 100)), QPointF(50, 25));
}

void TestImageView::shortcutsZoom() {
    ImageView view;
    view.resize(400, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&view));
    view.setImage(makeImage(100, 50, QImage::Format_RGB888));
    QCOMPARE(view.scale(), 4.0);

    QTest::keyClick(&view, Qt::Key_Equal, Qt::ControlModifier);
    QCOMPARE(view.scale(), 5.0);
    QTest::keyClick(&view, Qt::Key_Minus, Qt::ControlModifier);
    QCOMPARE(view.scale(), 4.0);
    QTest::keyClick(&view, Qt::Key_1, Qt::ControlModifier);
    QCOMPARE(view.scale(), 1.0);
    QVERIFY(!view.isFitted());
    QTest::keyClick(&view, Qt::Key_0, Qt::ControlModifier);
    QCOMPARE(view.scale(), 4.0);
    QVERIFY(view.isFitted());

    // The same actions, for the window's View menu.
    QStringList shortcuts;
    for (const QAction* action : view.viewActions())
        shortcuts << action->shortcut().toString(QKeySequence::PortableText);
    QCOMPARE(shortcuts, (QStringList{"Ctrl+=", "Ctrl+-", "Ctrl+1", "Ctrl+0"}));
}

// Zoomed in, an overview in the corner shows the whole image with the part in view; a press
// there brings that place to the centre and a drag follows. Fitted, there is none, and a press
// in that corner selects as anywhere else.
void TestImageView::overviewPansWhileZoomed() {
    ImageView view;
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setImage(makeImage(2000, 1500, QImage::Format_RGB888));
    QVERIFY(view.overview().isEmpty());
    view.actualSize();
    const QRect box = view.overview();
    QVERIFY(!box.isEmpty());
    QCOMPARE(box.width(), 150);
    QCOMPARE(box.height(), 112);
    QVERIFY(view.rect().contains(box));
    QSignalSpy regions(&view, &ImageView::regionChanged);
    QTest::mousePress(&view, Qt::LeftButton, {}, box.center());
    const QPointF centre = view.mapToImage(QPointF(400, 300));
    QVERIFY2(std::abs(centre.x() - 1000) < 20 && std::abs(centre.y() - 750) < 20,
             qPrintable(QStringLiteral("%1,%2").arg(centre.x()).arg(centre.y())));
    QTest::mouseMove(&view, box.topLeft()); // dragged to the corner: the top left shows
    QTest::mouseRelease(&view, Qt::LeftButton, {}, box.topLeft());
    QCOMPARE(view.mapToImage(QPointF(0, 0)), QPointF(0, 0));
    QCOMPARE(regions.count(), 0);
    QVERIFY(!view.region());
    QVERIFY(!view.isFitted());
    view.fitToWindow();
    QVERIFY(view.overview().isEmpty());
}

// A drag inside the region moves it (kept inside the image), a drag on a corner or an edge
// resizes it; the cursor tells which; the release reports the final region.
void TestImageView::regionMovesAndResizes() {
    ImageView view;
    view.resize(400, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setImage(makeImage(100, 50, QImage::Format_RGB888)); // 4 screen pixels a pixel
    QCOMPARE(view.scale(), 4.0);
    view.selectRegion({10, 10, 20, 10}); // on screen (40, 40) to (120, 80)
    QSignalSpy regions(&view, &ImageView::regionChanged);
    const auto same = [](const Region& a, const Region& b) {
        return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
    };

    QTest::mouseMove(&view, QPoint(80, 60));
    QCOMPARE(view.cursor().shape(), Qt::SizeAllCursor);
    QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(80, 60));
    QVERIFY(view.isSelecting());
    QTest::mouseMove(&view, QPoint(120, 80));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(120, 80));
    QVERIFY(view.region());
    QVERIFY(same(*view.region(), {20, 15, 20, 10}));
    QVERIFY(same(regions.last().at(0).value<Region>(), {20, 15, 20, 10}));

    // Its bottom right corner, at (160, 100), dragged to (200, 120): pixel (50, 30).
    QTest::mouseMove(&view, QPoint(159, 99));
    QCOMPARE(view.cursor().shape(), Qt::SizeFDiagCursor);
    QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(159, 99));
    QTest::mouseMove(&view, QPoint(202, 122));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(202, 122));
    QVERIFY(same(*view.region(), {20, 15, 31, 16}));
    // Its left edge, dragged past the image's edge: the region stops at column 0.
    QTest::mouseMove(&view, QPoint(80, 90));
    QCOMPARE(view.cursor().shape(), Qt::SizeHorCursor);
    QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(80, 90));
    QTest::mouseMove(&view, QPoint(-50, 90));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(-50, 90));
    QVERIFY(same(*view.region(), {0, 15, 51, 16}));
    // Moved far right: it stays whole inside the image.
    QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(100, 100));
    QTest::mouseMove(&view, QPoint(390, 100));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(390, 100));
    QVERIFY(same(*view.region(), {49, 15, 51, 16}));
}

void TestImageView::pans() {
    ImageView view;
    view.resize(400, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setImage(makeImage(100, 50, QImage::Format_RGB888));
    view.zoomBy(2, QPointF(200, 100)); // 800 x 400 on screen, its centre in the middle
    QCOMPARE(view.scale(), 8.0);
    QSignalSpy regions(&view, &ImageView::regionChanged);

    // Middle button: the image point under the press follows the cursor.
    const QPointF grabbed = view.mapToImage(QPointF(200, 100));
    QTest::mousePress(&view, Qt::MiddleButton, {}, QPoint(200, 100));
    QTest::mouseMove(&view, QPoint(250, 120));
    QTest::mouseRelease(&view, Qt::MiddleButton, {}, QPoint(250, 120));
    QCOMPARE(view.mapToImage(QPointF(250, 120)), grabbed);

    // Space + left button does the same and selects nothing.
    view.setFocus();
    QTest::keyPress(&view, Qt::Key_Space);
    QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(250, 120));
    QTest::mouseMove(&view, QPoint(200, 100));
    QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(200, 100));
    QTest::keyRelease(&view, Qt::Key_Space);
    QCOMPARE(view.mapToImage(QPointF(200, 100)), grabbed);
    QCOMPARE(regions.count(), 0);
    QVERIFY(!view.region());

    // Never past the image's edge: a long drag stops with the corner at the widget's corner.
    QTest::mousePress(&view, Qt::MiddleButton, {}, QPoint(200, 100));
    QTest::mouseMove(&view, QPoint(2000, 1000));
    QTest::mouseRelease(&view, Qt::MiddleButton, {}, QPoint(2000, 1000));
    QCOMPARE(view.mapToImage(QPointF(0, 0)), QPointF(0, 0));
}

void TestImageView::hoverShowsPixelValue_data() {
    QTest::addColumn<int>("format");
    QTest::addColumn<int>("depth");
    QTest::newRow("gray") << int(QImage::Format_Grayscale8) << 8;
    QTest::newRow("rgb") << int(QImage::Format_RGB888) << 8;
    QTest::newRow("rgba") << int(QImage::Format_RGBA8888) << 8;
    QTest::newRow("gray, 16-bit file") << int(QImage::Format_Grayscale8) << 16;
}

void TestImageView::hoverShowsPixelValue() {
    QFETCH(int, format);
    QFETCH(int, depth);

    const QImage image = makeImage(40, 30, QImage::Format(format));
    ImageView view;
    view.resize(400, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setImage(image);
    view.setSourceDepth(depth);
    QSignalSpy hovered(&view, &ImageView::hovered);
    QSignalSpy left(&view, &ImageView::hoverLeft);

    for (const QPoint pixel : {QPoint(0, 0), QPoint(17, 11), QPoint(39, 29), QPoint(5, 28)}) {
        hover(&view, centreOf(view, pixel));
        QVERIFY(!hovered.isEmpty());
        const QList<QVariant> last = hovered.takeLast();
        QCOMPARE(last.at(0).toPoint(), pixel);
        // The expected text, from the image's bytes.
        const uchar* row = image.constScanLine(pixel.y());
        QString expected;
        if (image.format() == QImage::Format_Grayscale8) {
            expected = QStringLiteral("gray %1").arg(row[pixel.x()]);
        } else {
            const int n = image.format() == QImage::Format_RGB888 ? 3 : 4;
            const uchar* p = row + n * pixel.x();
            expected = QStringLiteral("R %1 G %2 B %3").arg(p[0]).arg(p[1]).arg(p[2]);
            if (n == 4)
                expected += QStringLiteral(" A %1").arg(p[3]);
        }
        if (depth == 16)
            expected += QStringLiteral(" (high byte)");
        QCOMPARE(last.at(1).toString(), expected);
        QCOMPARE(view.valueText(pixel), expected);
    }
    QCOMPARE(left.count(), 0);
    hover(&view, QPointF(-5, -5));
    QCOMPARE(left.count(), 1);
}

// The range's mask is painted only inside the region when there is one: its counts are the
// region's.
void TestImageView::highlightStaysInsideTheRegion() {
    QImage gray(40, 30, QImage::Format_Grayscale8);
    gray.fill(128);
    ImageView view;
    view.resize(400, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setImage(gray);
    view.selectRegion(Region{10, 10, 10, 10});
    const QImage before = view.grab().toImage();
    view.setHighlight(highlightValues(gray, 8, QStringLiteral("gray"), 0, 256)); // every pixel
    const QImage after = view.grab().toImage();
    const QPointF inside = view.mapFromImage(QPointF(15.5, 15.5));
    const QPointF outside = view.mapFromImage(QPointF(30.5, 5.5));
    QVERIFY(after.pixel(inside.toPoint()) != before.pixel(inside.toPoint()));
    QCOMPARE(after.pixel(outside.toPoint()), before.pixel(outside.toPoint()));
    view.clearRegion(); // no region: the whole image
    const QImage whole = view.grab().toImage();
    QVERIFY(whole.pixel(outside.toPoint()) != before.pixel(outside.toPoint()));
}

void TestImageView::hoverOnDownscaledPreview() {
    const QImage preview = previewOf(m_large);
    QCOMPARE(preview.size(), QSize(2048, 682));
    ImageView view;
    view.resize(600, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setImage(preview, m_large.size());
    QSignalSpy hovered(&view, &ImageView::hovered);

    hover(&view, QPointF(599, 199));
    QCOMPARE(hovered.count(), 1);
    QCOMPARE(hovered.first().at(0).toPoint(), QPoint(2995, 995));
    // The value is the preview's, at the preview pixel holding that pixel's centre.
    const int px = int(2995.5 * 2048 / 3000), py = int(995.5 * preview.height() / 1000);
    const uchar* p = preview.constScanLine(py) + 3 * px;
    QCOMPARE(hovered.first().at(1).toString(),
             QStringLiteral("R %1 G %2 B %3 (downscaled preview)").arg(p[0]).arg(p[1]).arg(p[2]));
}

void TestImageView::dragSelectsRegion_data() {
    QTest::addColumn<QPoint>("from");
    QTest::addColumn<QPoint>("to");
    QTest::addColumn<QPoint>("viewTo"); // where the drag ends, if not at `to`'s centre
    QTest::addColumn<QRect>("region");

    // A 100 x 50 image in a 400 x 300 view: 4 px per pixel, 50 px bands above and below.
    QTest::newRow("down-right") << QPoint(10, 5) << QPoint(20, 15) << QPoint()
                                << QRect(10, 5, 11, 11);
    QTest::newRow("up-left") << QPoint(20, 15) << QPoint(10, 5) << QPoint() << QRect(10, 5, 11, 11);
    QTest::newRow("one column") << QPoint(42, 3) << QPoint(42, 40) << QPoint()
                                << QRect(42, 3, 1, 38);
    QTest::newRow("clamped to the image")
        << QPoint(50, 17) << QPoint() << QPoint(399, 299) << QRect(50, 17, 50, 33);
    QTest::newRow("clamped, from the band above")
        << QPoint(30, 20) << QPoint() << QPoint(2, 10) << QRect(0, 0, 31, 21);
}

void TestImageView::dragSelectsRegion() {
    QFETCH(QPoint, from);
    QFETCH(QPoint, to);
    QFETCH(QPoint, viewTo);
    QFETCH(QRect, region);

    ImageView view;
    view.resize(400, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setImage(makeImage(100, 50, QImage::Format_RGB888));
    QCOMPARE(view.scale(), 4.0);
    QSignalSpy changed(&view, &ImageView::regionChanged);
    QSignalSpy cleared(&view, &ImageView::regionCleared);

    const QPoint end = viewTo.isNull() ? centreOf(view, to) : viewTo;
    const QPoint middle = (centreOf(view, from) + end) / 2;
    QTest::mousePress(&view, Qt::LeftButton, {}, centreOf(view, from));
    QTest::mouseMove(&view, middle);
    QTest::mouseMove(&view, end);
    QVERIFY(changed.count() >= 1); // live, while dragging
    const Region live = changed.last().first().value<Region>();
    QCOMPARE(QRect(live.x, live.y, live.width, live.height), region);
    const int whileDragging = changed.count();
    QTest::mouseRelease(&view, Qt::LeftButton, {}, end);
    QCOMPARE(changed.count(), whileDragging + 1); // and once more on release
    const Region released = changed.last().first().value<Region>();
    QCOMPARE(QRect(released.x, released.y, released.width, released.height), region);
    QVERIFY(view.region());
    QCOMPARE(QRect(view.region()->x, view.region()->y, view.region()->width, view.region()->height),
             region);
    QCOMPARE(cleared.count(), 0);
    QVERIFY(!view.grab().isNull()); // paints the rectangle
}

void TestImageView::clickAndEscapeClearRegion() {
    ImageView view;
    view.resize(400, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setImage(makeImage(100, 50, QImage::Format_RGB888));
    QSignalSpy changed(&view, &ImageView::regionChanged);
    QSignalSpy cleared(&view, &ImageView::regionCleared);

    drag(&view, QPoint(10, 10), QPoint(30, 30), QPoint(20, 20));
    QVERIFY(view.region());
    QCOMPARE(view.region()->width, 11);
    QTest::mouseClick(&view, Qt::LeftButton, {}, centreOf(view, QPoint(60, 30)));
    QVERIFY(!view.region());
    QCOMPARE(cleared.count(), 1);
    QTest::mouseClick(&view, Qt::LeftButton, {}, centreOf(view, QPoint(60, 30)));
    QCOMPARE(cleared.count(), 1); // nothing to clear

    drag(&view, QPoint(10, 10), QPoint(30, 30), QPoint(20, 20));
    QVERIFY(view.region());
    view.setFocus();
    QTest::keyClick(&view, Qt::Key_Escape);
    QVERIFY(!view.region());
    QCOMPARE(cleared.count(), 2);

    // A new image starts without a region, and says nothing about it.
    drag(&view, QPoint(10, 10), QPoint(30, 30), QPoint(20, 20));
    view.setImage(makeImage(10, 10, QImage::Format_RGB888));
    QVERIFY(!view.region());
    QCOMPARE(cleared.count(), 2);
}

void TestImageView::regionDrivesHistogram_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QRect>("region");

    const QString data = QStringLiteral(HISTLAB_TEST_DATA_DIR "/");
    QTest::newRow("rgb8.png") << data + "rgb8.png" << QRect(3, 4, 17, 11);
    QTest::newRow("rgb8.png, bottom-right pixel") << data + "rgb8.png" << QRect(40, 28, 1, 1);
    QTest::newRow("rgba8.png") << data + "rgba8.png" << QRect(2, 1, 9, 7);
    QTest::newRow("gray8.png") << data + "gray8.png" << QRect(10, 5, 20, 12);
    QTest::newRow("gray8.png, first column") << data + "gray8.png" << QRect(0, 0, 1, 23);
}

void TestImageView::regionDrivesHistogram() {
    QFETCH(QString, file);
    QFETCH(QRect, region);

    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImage(file);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, kTimeoutMs);
    const Region whole = wholeOf(file);
    const auto wholeCounts = regionCounts(file, whole);
    verifyShown(window, wholeCounts, std::uint64_t(whole.width) * whole.height);
    if (QTest::currentTestFailed())
        return;

    ImageView* view = window.panel<ImagePanel>()->imageView();
    const QImage preview = view->image();
    const double scale = view->scale();
    // Drag from the region's first pixel to its last, over a far pixel on the way (so even a
    // one-pixel region is a drag, and a larger region is asked for first).
    const QPoint first = region.topLeft(), last = region.bottomRight();
    const QPoint far(first.x() < whole.width / 2 ? whole.width - 1 : 0,
                     first.y() < whole.height / 2 ? whole.height - 1 : 0);
    drag(view, first, far, last);
    const Region expected{region.x(), region.y(), region.width(), region.height()};
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy() &&
                                 sameRegion(window.panel<ImagePanel>()->currentRegion(), expected),
                             kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 2, kTimeoutMs);
    verifyShown(window, regionCounts(file, expected),
                std::uint64_t(region.width()) * region.height());
    if (QTest::currentTestFailed())
        return;
    const QString prefix = QStringLiteral("region %1,%2 %3×%4 · ")
                               .arg(region.x())
                               .arg(region.y())
                               .arg(region.width())
                               .arg(region.height());
    QVERIFY2(window.panel<ImagePanel>()->runSummary().startsWith(prefix),
             qPrintable(window.panel<ImagePanel>()->runSummary()));
    // The view keeps the whole image, as it was, with the rectangle.
    QCOMPARE(view->image(), preview);
    QCOMPARE(view->scale(), scale);
    QVERIFY(sameRegion(view->region(), expected));
    QCOMPARE(window.panel<ImagePanel>()->currentImageSize(), QSize(whole.width, whole.height));

    // A click clears it: the whole image again, in the same view.
    const int before = int(shown.count());
    QTest::mouseClick(view, Qt::LeftButton, {}, centreOf(*view, QPoint(0, 0)));
    QVERIFY(!view->region());
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy() && !window.panel<ImagePanel>()->currentRegion() &&
                                 shown.count() > before,
                             kTimeoutMs);
    verifyShown(window, wholeCounts, std::uint64_t(whole.width) * whole.height);
    QVERIFY2(!window.panel<ImagePanel>()->runSummary().startsWith(QStringLiteral("region")),
             qPrintable(window.panel<ImagePanel>()->runSummary()));
    QCOMPARE(view->image(), preview);
    QCOMPARE(view->scale(), scale);
}

void TestImageView::regionOfDownscaledImage() {
    const QString file = path("large.ppm");
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImage(file);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, kTimeoutMs);
    ImageView* view = window.panel<ImagePanel>()->imageView();
    QCOMPARE(view->image().size(), QSize(2048, 683));
    QCOMPARE(view->imageSize(), QSize(3000, 1000));

    // The pixel under the cursor is the file's, and so is the status bar's text.
    QSignalSpy hovered(view, &ImageView::hovered);
    const QPointF at = view->mapFromImage(QPointF(2345.5, 678.5));
    hover(view, at);
    QCOMPARE(hovered.count(), 1);
    QCOMPARE(hovered.first().at(0).toPoint(), QPoint(2345, 678));
    const auto* label = window.findChild<QLabel*>(QStringLiteral("pixelLabel"));
    QVERIFY(label);
    // The file's own values at that pixel, not the downscaled preview's.
    const uchar* p = m_large.constScanLine(678) + 3 * 2345;
    QCOMPARE(label->text(),
             QStringLiteral("x 2345, y 678: value %1,%2,%3").arg(p[0]).arg(p[1]).arg(p[2]));

    // A region dragged on the preview is a region of the file.
    QSignalSpy changed(view, &ImageView::regionChanged);
    const QPointF from = view->mapFromImage(QPointF(1000.5, 200.5));
    const QPointF to = view->mapFromImage(QPointF(1999.5, 799.5));
    QTest::mousePress(view, Qt::LeftButton, {}, from.toPoint());
    QTest::mouseMove(view, to.toPoint());
    QTest::mouseRelease(view, Qt::LeftButton, {}, to.toPoint());
    QVERIFY(!changed.isEmpty());
    const Region region = changed.last().first().value<Region>();
    // Screen pixels are whole: each corner lands within one screen pixel of its image point.
    const double tolerance = 1 / view->scale() + 1;
    QVERIFY2(std::abs(region.x - 1000) <= tolerance && std::abs(region.y - 200) <= tolerance &&
                 std::abs(region.x + region.width - 2000) <= tolerance &&
                 std::abs(region.y + region.height - 800) <= tolerance,
             qPrintable(describe(region)));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy() &&
                                 sameRegion(window.panel<ImagePanel>()->currentRegion(), region),
                             kTimeoutMs);
    verifyShown(window, regionCounts(file, region), std::uint64_t(region.width) * region.height);
}

void TestImageView::newestRegionWins() {
    const QString file = QStringLiteral(HISTLAB_TEST_DATA_DIR "/rgb8.png");
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.show();
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImage(file);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 1, kTimeoutMs);

    // Every region the window shows, in order.
    QList<std::optional<Region>> shownRegions;
    connect(&window, &MainWindow::histogramShown, &window,
            [&] { shownRegions << window.panel<ImagePanel>()->currentRegion(); });

    const std::vector<Region> series{
        {0, 0, 41, 29}, {1, 1, 30, 20}, {5, 5, 10, 10}, {20, 3, 21, 26}, {7, 9, 13, 4}};
    for (const Region& region : series)
        window.panel<ImagePanel>()->imageView()->selectRegion(
            region); // as a drag emits them, one after the other
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy(), kTimeoutMs);
    QTest::qWait(300); // a stale answer would arrive about now
    QVERIFY(!window.isBusy());

    QVERIFY(sameRegion(window.panel<ImagePanel>()->currentRegion(), series.back()));
    verifyShown(window, regionCounts(file, series.back()),
                std::uint64_t(series.back().width) * series.back().height);
    // Never an older region after a newer one: what was shown follows the order asked.
    QVERIFY(!shownRegions.isEmpty());
    QVERIFY2(sameRegion(shownRegions.last(), series.back()),
             qPrintable(describe(shownRegions.last())));
    std::size_t next = 0;
    for (const std::optional<Region>& r : shownRegions) {
        std::size_t i = next;
        while (i < series.size() && !sameRegion(r, series[i]))
            ++i;
        QVERIFY2(i < series.size(), qPrintable(describe(r)));
        next = i + 1;
    }
}

// A real mouse drag on a large image: regions are shown while the button is still down (each
// running once, and not cancelled by the next mouse move), and the release runs the final region
// again with the Run panel's repeats.
void TestImageView::histogramFollowsTheDrag() {
    MainWindow window;
    window.setErrorDialogsEnabled(false);
    window.resize(1200, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    window.openImage(path("large.ppm"));
    QVERIFY(shown.wait(kTimeoutMs));

    ImageView* view = window.panel<ImagePanel>()->imageView();
    int shownWhileDragging = 0;
    std::size_t samplesWhileDragging = 0;
    connect(&window, &MainWindow::histogramShown, &window, [&] {
        if (view->isSelecting() && window.panel<ImagePanel>()->currentRegion()) {
            ++shownWhileDragging;
            samplesWhileDragging =
                window.panel<ImagePanel>()->currentRun().passes.front().stats.samplesMs.size();
        }
    });
    const QPointF from = view->mapFromImage(QPointF(100, 100));
    const QPointF to = view->mapFromImage(QPointF(2900, 900));
    QTest::mousePress(view, Qt::LeftButton, {}, from.toPoint());
    const int moves = 60;
    for (int i = 1; i <= moves; ++i) { // about 60 moves a second for a second
        QTest::mouseMove(view, (from + (to - from) * (double(i) / moves)).toPoint());
        QSignalSpy(&window, &MainWindow::histogramShown).wait(16);
    }
    // Shown during the moves, not only once the mouse stopped (a request cancelled by every
    // move would show nothing before then).
    QVERIFY2(shownWhileDragging >= 2, qPrintable(QString::number(shownWhileDragging)));
    QCOMPARE(samplesWhileDragging, std::size_t(1));

    QTest::mouseRelease(view, Qt::LeftButton, {}, to.toPoint());
    const Region final = *view->region();
    QTRY_VERIFY_WITH_TIMEOUT(
        !window.isBusy() && sameRegion(window.panel<ImagePanel>()->currentRegion(), final) &&
            window.panel<ImagePanel>()->currentRun().passes.front().stats.samplesMs.size() > 1,
        kTimeoutMs);
    QCOMPARE(window.panel<ImagePanel>()->currentRun().passes.front().stats.samplesMs.size(),
             std::size_t(window.panel<RunPanel>()->repeats()));
    verifyShown(window, regionCounts(path("large.ppm"), final),
                std::uint64_t(final.width) * final.height);
    qInfo("%d histograms shown while dragging", shownWhileDragging);
}

// View › Region…: a region typed in is analysed as a dragged one is (its counts exact), and
// Whole Image goes back to the whole image.
void TestImageView::typedRegionIsAnalysed() {
    const QString file = QStringLiteral(HISTLAB_TEST_DATA_DIR "/rgb8.png");
    MainWindow window;
    QVERIFY(showWindow(window, file));
    QSignalSpy shown(&window, &MainWindow::histogramShown);
    QAction* ask = nullptr;
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text() == QStringLiteral("&Region…"))
            ask = action;
    QVERIFY(ask);
    const auto typeAndPress = [&](const std::optional<Region>& region, bool whole) {
        ask->trigger();
        auto* dialog = window.findChild<RegionDialog*>();
        if (!dialog)
            return false;
        if (region)
            dialog->setRegion(*region);
        auto* buttons = dialog->findChild<QDialogButtonBox*>();
        for (QAbstractButton* b : buttons->buttons())
            if ((whole && buttons->buttonRole(b) == QDialogButtonBox::ResetRole) ||
                (!whole && buttons->buttonRole(b) == QDialogButtonBox::AcceptRole))
                b->click();
        return true;
    };
    const Region typed{5, 6, 12, 9};
    QVERIFY(typeAndPress(typed, false));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy() &&
                                 sameRegion(window.panel<ImagePanel>()->currentRegion(), typed),
                             kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, kTimeoutMs);
    verifyShown(window, regionCounts(file, typed), std::uint64_t(typed.width) * typed.height);
    QVERIFY(sameRegion(window.panel<ImagePanel>()->imageView()->region(), typed));
    // The dialog offers what is selected; Whole Image clears it.
    QTRY_VERIFY(window.findChild<RegionDialog*>() == nullptr); // closed, deleted
    QVERIFY(typeAndPress(std::nullopt, true));
    QTRY_VERIFY_WITH_TIMEOUT(!window.isBusy() && !window.panel<ImagePanel>()->currentRegion(),
                             kTimeoutMs);
    QVERIFY(!window.panel<ImagePanel>()->imageView()->region());
}

QTEST_MAIN(TestImageView)
#include "tst_imageview.moc"
