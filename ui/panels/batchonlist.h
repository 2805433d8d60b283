#pragma once
// The Images list's "Histograms of All on Every Device…": the 256-bin histograms of every image
// in the list (the bundled sample left out), counted on every OpenCL device at once on the
// worker (the core's batch: images decoded on host threads, each device taking the next, each
// verified), written as `histlab-cli batch` writes its table (through a temporary file). It runs
// on a lane of its own ("batch"), beside the Image tab's analysis, with a Stop button of its own
// for the status bar.
#include <QObject>
#include <QString>

class QToolButton;
class QWidget;

namespace histlab::ui {

class ImageList;
class JobBridge;

class BatchOnList : public QObject {
    Q_OBJECT
public:
    static constexpr const char* lane = "batch";

    BatchOnList(JobBridge* bridge, ImageList* images, QObject* parent = nullptr);

    /// The status bar's Stop button, shown while the batch runs.
    QToolButton* stopButton() const { return m_stop; }

public slots:
    /// Asks for the CSV file (starting in lastFolder()), then run().
    void chooseFileAndRun(QWidget* dialogParent);
    /// Counts every image of the list and writes the table to `csvPath`. Progress and the
    /// outcome come as message(), the end as finished().
    void run(const QString& csvPath);
    /// Stops the batch: no table is saved, and finished() says so.
    void cancel();

signals:
    /// For the status bar (`timeoutMs` 0 keeps it).
    void message(const QString& text, int timeoutMs);
    /// The batch ended: `summary` is what the status bar says; `ok` when every image was
    /// counted and verified and the table saved.
    void finished(const QString& summary, bool ok);

private:
    JobBridge* m_bridge;
    ImageList* m_images;
    QToolButton* m_stop;
};

} // namespace histlab::ui
