#pragma once
// The Images list's "Histograms of All on Every Device…": the 256-bin histograms of every image
// in the list (the bundled sample left out), counted on every OpenCL device at once on the
// worker (the core's batch: images decoded on host threads, each device taking the next, each
// verified), written as `histlab-cli batch` writes its table (through a temporary file). It runs
// on a lane of its own ("batch"), beside the Image tab's analysis, with a Stop button of its own
// for the status bar.
#include "common/exportdialog.h"

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
    /// What chooseFileAndRun() asks for the file through (tests give one that opens nothing).
    void setFileChooser(FileChooser chooser) { m_chooser = std::move(chooser); }

public slots:
    /// Asks for the CSV file (starting in lastFolder()), then run().
    void chooseFileAndRun(QWidget* dialogParent);
    /// Counts every image of the list and writes the table to `csvPath`. Progress and the
    /// outcome come as message(), the end as finished().
    void run(const QString& csvPath);
    /// Stops the batch: the rows of the images done are saved, and finished() says how many.
    void cancel();

signals:
    /// For the status bar (`timeoutMs` 0 keeps it).
    void message(const QString& text, int timeoutMs);
    /// The batch ended: `summary` is what the status bar says; `ok` when every image was
    /// counted and verified and the table saved; `stopped` when the person stopped it (no
    /// failure to warn about).
    void finished(const QString& summary, bool ok, bool stopped);

private:
    JobBridge* m_bridge;
    ImageList* m_images;
    QToolButton* m_stop;
    FileChooser m_chooser = nativeSaveFileChooser();
};

} // namespace histlab::ui
