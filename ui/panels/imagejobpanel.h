#pragma once
// A JobPanel whose job works on the image the window shows (Blur, Equalize): an "Image" row at
// the top of the controls, the original and the result in a CompareView under its tool bar
// (mode, zoom, the pixel under the cursor), and Save Result…, which writes the result at full
// size and depth (saveImage: a temporary file and a rename, so a failure leaves nothing behind).
// Run is enabled only while an image is shown; another image clears the result and drops a run
// of the old one.
#include "panels/jobpanel.h"

#include <QImage>
#include <QSize>
#include <QString>

class QLabel;
class QPushButton;

namespace histlab::ui {

class CompareView;

/// What a job on the window's image is asked: the image, the device, the timed repeats, and how
/// large its previews may be.
struct ImageJobRequest {
    QString source;                          ///< a file or resource path (as AnalysisRequest)
    int page = 1;                            ///< of a multi-page TIFF, from 1
    QString device = QStringLiteral("auto"); ///< a core device selector (see selectDevice)
    int repeats = 5;
    /// The previews (original and results) are at most this many pixels on the longer side.
    int maxPreviewSide = 4096;
};

/// What a job on the window's image says of what it ran on.
struct ImageJobRun {
    DeviceInfo device;
    QSize imageSize;     ///< of the file, in pixels
    int channels = 0;    ///< of what was processed
    int depth = 8;       ///< of what was processed
    QImage inputPreview; ///< what was processed, 8-bit (as previewOf)
};

/// On the worker, the start of a job on the window's image: its image, loaded through `images`
/// (the image the window shows is not read again), and its device (logged for `purpose`); `run`
/// says what they are.
struct ImageJobInput {
    std::shared_ptr<const HostImage> image;
    Device& device;
};
ImageJobInput openImageJob(JobContext& context, ImageCache& images, const ImageJobRequest& request,
                           const std::string& purpose, ImageJobRun& run);

class ImageJobPanel : public JobPanel {
    Q_OBJECT
public:
    /// The image the window shows: its source (file or resource path), its page of `pages`
    /// (a multi-page TIFF), full size and display preview. A different image or page clears the
    /// result (and drops a run of the old one); the same one again keeps it.
    void setImage(const QString& source, int page, int pages, const QSize& imageSize,
                  const QImage& preview);
    QString imageSource() const { return m_source; }
    int imagePage() const { return m_page; }

    CompareView* compareView() const { return m_compare; }
    QPushButton* saveResultButton() const { return m_save; }
    /// Writes resultImage() to `path` (the format by its suffix: PNG, TIFF, BMP, JPEG, PGM/PPM,
    /// WebP). A failure is reported (status line, problem(), a message box when enabled) and
    /// returned; no file is left behind.
    ExportResult saveResultTo(const QString& path);

public slots:
    /// Save Result…: asks for a file, then saveResultTo().
    void chooseSaveResult();

protected:
    /// How the panel speaks of what it does.
    struct Words {
        QString verb;       ///< "blur": "No image to blur"
        QString purpose;    ///< "the Blur tab blurs the image the Image tab shows"
        QString result;     ///< "blurred image": "Run … to see the blurred image here"
        QString saveTitle;  ///< the file dialog's caption, "Save Blurred Image"
        QString resultName; ///< the result's label in the view, "Result"
    };
    ImageJobPanel(JobBridge* bridge, Job job, Words words, QWidget* parent = nullptr);

    QSize imageSize() const { return m_imageSize; }
    /// The compare view under its tool bar, for the panel's results side.
    QWidget* viewer() const { return m_viewer; }
    /// The image's file name without its suffix ("histlab" for none): file names start with it.
    QString imageBaseName() const;
    /// Refuses a run when no image is shown; true when it did.
    bool refuseWithoutImage();

    /// Forgets the result shown (another image).
    virtual void clearResult() = 0;
    /// The full-size result Save Result… writes, or nullptr when none is shown.
    virtual const HostImage* resultImage() const = 0;
    /// The file name Save Result… proposes, without the suffix.
    virtual QString resultFileName() const = 0;

    bool canRun() const override { return !m_source.isEmpty(); }
    QString cancelledStatus() const override;
    void updateActions() override;

private:
    Words m_words;
    CompareView* m_compare;
    QLabel* m_hover;
    QLabel* m_imageLabel;
    QWidget* m_viewer;
    QPushButton* m_save;
    QString m_source;
    int m_page = 1;
    QSize m_imageSize;
};

} // namespace histlab::ui
