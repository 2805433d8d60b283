#include "panels/batchonlist.h"

#include "bridge/jobbridge.h"
#include "bridge/logging.h"
#include "common/exportdialog.h"
#include "views/imagelist.h"

#include <pipelines/batch/batch.h>
#include <report/files.h>

#include <QAction>
#include <QDir>
#include <QFile>
#include <QToolButton>

#include <algorithm>
#include <map>
#include <memory>

namespace histlab::ui {

BatchOnList::BatchOnList(JobBridge* bridge, ImageList* images, QObject* parent)
    : QObject(parent)
    , m_bridge(bridge)
    , m_images(images)
    , m_stop(new QToolButton) {
    m_bridge->setJobName(QString::fromLatin1(lane), tr("histograms of every image"));
    auto* stop = new QAction(tr("Stop Batch"), this);
    connect(stop, &QAction::triggered, this, &BatchOnList::cancel);
    m_stop->setObjectName(QStringLiteral("cancelBatchButton"));
    m_stop->setDefaultAction(stop);
    m_stop->setToolTip(tr(
        "Stop the histograms of every image of the list (the rows of the images done are saved)"));
    m_stop->setVisible(false);
    connect(m_bridge, &JobBridge::runningChanged, m_stop, [this](const QString& name, bool busy) {
        if (name == QLatin1String(lane) && !busy)
            m_stop->setVisible(false);
    });
    connect(m_bridge, &JobBridge::laneStarted, m_stop, [this](const QString& name) {
        if (name == QLatin1String(lane))
            m_stop->setVisible(true);
    });
}

void BatchOnList::chooseFileAndRun(QWidget* dialogParent) {
    // Through the shared helper, as every save: "batch1" typed means batch1.csv.
    const QString path = askSavePath(
        m_chooser, dialogParent, tr("Save the Histograms of Every Image"),
        QDir(lastFolder()).filePath(QStringLiteral("histograms.csv")), tr("CSV table (*.csv)"));
    if (!path.isEmpty())
        run(path);
}

void BatchOnList::run(const QString& csvPath) {
    std::vector<std::string> files;
    int builtIn = 0;
    for (const QString& path : m_images->paths()) {
        if (path.startsWith(QLatin1String(":/")))
            ++builtIn; // the bundled sample is no file the core's reader can open
        else
            files.push_back(QFile::encodeName(path).toStdString());
    }
    const auto done = [this](const QString& summary, bool ok, bool stopped = false) {
        emit message(summary, 20000);
        qCInfo(lcUi).noquote() << summary;
        emit finished(summary, ok, stopped);
    };
    if (files.empty())
        return done(tr("No image files in the Images list to count (the bundled sample is not "
                       "a file)"),
                    false);
    const std::string out = QFile::encodeName(csvPath).toStdString();
    // A stopped batch keeps the rows of the images done: the worker writes them before it
    // reports the stop, and says here how many it wrote (read once the job has ended).
    auto partial = std::make_shared<std::size_t>(0);
    JobWatcher* watcher = m_bridge->submit(
        QString::fromLatin1(lane),
        [files, out, partial](JobContext& ctx, const ItemSink& post) -> std::any {
            BatchParams params;
            params.source.files = files;
            std::vector<int> devices(ctx.devices().infos().size());
            if (devices.empty())
                throw DeviceError("no OpenCL device to count on");
            for (std::size_t i = 0; i < devices.size(); ++i)
                devices[i] = int(i);
            std::vector<BatchImage> done;
            BatchResult result;
            try {
                result = runBatch(ctx, devices, params, [&](const BatchProgress& p) {
                    done.push_back(p.image);
                    if (post)
                        post(p);
                });
            } catch (const CancelledError&) {
                if (!done.empty()) {
                    // In the list's order, as a whole table is.
                    std::map<std::string, std::size_t> order;
                    for (std::size_t i = 0; i < files.size(); ++i)
                        order.emplace(files[i], i);
                    const auto place = [&](const BatchImage& image) {
                        const auto it = order.find(image.file);
                        return it == order.end() ? files.size() : it->second;
                    };
                    std::stable_sort(done.begin(), done.end(),
                                     [&](const BatchImage& a, const BatchImage& b) {
                                         return place(a) < place(b);
                                     });
                    writeFileAtomically(out, batchCsv(BatchPipeline::Histogram, done));
                    *partial = done.size();
                }
                throw;
            }
            writeFileAtomically(out, batchCsv(BatchPipeline::Histogram, result.images));
            result.images.clear(); // the GUI thread needs only the totals
            result.images.shrink_to_fit();
            return result;
        });
    emit message(tr("Histograms of %n image(s) on every device…", nullptr, int(files.size())), 0);
    connect(watcher, &JobWatcher::itemReady, this, [this](const std::any& item) {
        const BatchProgress& p = std::any_cast<const BatchProgress&>(item);
        emit message(tr("Histograms of every image: %1 of %2, %3 images/s, about %4 s left")
                         .arg(p.done)
                         .arg(p.total)
                         .arg(p.imagesPerSecond, 0, 'f', 1)
                         .arg(p.secondsLeft, 0, 'f', 0),
                     0);
    });
    const QString shown = QDir::toNativeSeparators(csvPath);
    connect(watcher, &JobWatcher::finished, this,
            [done, shown, builtIn, count = files.size()](const std::any& value) {
                const BatchResult& r = std::any_cast<const BatchResult&>(value);
                QStringList perDevice;
                for (const BatchDevice& d : r.devices)
                    perDevice << QStringLiteral("%1: %2")
                                     .arg(QString::fromStdString(d.info.name))
                                     .arg(d.images);
                const double perSecond = r.wallMs > 0 ? 1000.0 * double(count) / r.wallMs : 0;
                QString summary =
                    tr("Histograms of %1 image(s) on %2 device(s) (%3), %4 images/s: %5 not "
                       "counted, %6 mismatched; saved to %7")
                        .arg(count)
                        .arg(r.devices.size())
                        .arg(perDevice.join(QStringLiteral(", ")))
                        .arg(perSecond, 0, 'f', 1)
                        .arg(r.failed)
                        .arg(r.mismatches)
                        .arg(shown);
                if (builtIn)
                    summary += tr(" (the bundled sample left out)");
                done(summary, r.failed == 0 && r.mismatches == 0);
            });
    connect(
        watcher, &JobWatcher::failed, this,
        [done, partial, shown, count = files.size()](const JobError& error) {
            if (error.kind == JobError::Kind::Cancelled) {
                if (*partial == 0)
                    return done(tr("Histograms of every image stopped before any image was done; "
                                   "no table was saved"),
                                false, true);
                return done(tr("Histograms of every image stopped after %1 of %2; their rows saved "
                               "to %3")
                                .arg(*partial)
                                .arg(count)
                                .arg(shown),
                            false, true);
            }
            done(tr("Histograms of every image failed: %1")
                     .arg(QString::fromStdString(error.message)),
                 false);
        });
}

void BatchOnList::cancel() {
    m_bridge->cancel(QString::fromLatin1(lane));
}

} // namespace histlab::ui
