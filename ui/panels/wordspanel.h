#pragma once
// The Words tab: a folder of images as bags of visual words, on the device chosen in the Run
// dock. It runs what histlab-cli bow build-codebook and bow histograms run (runBuildCodebook,
// runHistograms), on the worker (lane "words": a new run replaces the one running, Cancel keeps
// what is shown).
//   controls   the folder (default: the folder of the Images list's first file), the detector
//              (kaze, sift), K, the assignment kernel (auto, each kernel, all), the weighting
//              (none, l1, l2, tfidf), the longer side images are reduced to; Build codebook
//              (k-means, the assignment on the device), Compute histograms (each image's words
//              with the codebook held: built, or loaded from OpenCV FileStorage)
//   results    a table of the kernels (descriptors, kernel ms, M descriptors/s, GFLOP/s, % of
//              the device's FP32 peak measured once in the same job, ambiguous labels, status
//              (verified: every label equals the CPU reference's), geometry); the images
//              (descriptors, or the reason one could not be described); for the selected image
//              its histogram of words as bars (the chosen weighting), its nearest images by
//              cosine similarity as thumbnails, and the image with its keypoints (Show
//              keypoints: described again on the worker)
//   files      Export Plot… (the bars), Save CSV… (wordsCsv with the chosen weighting), Load
//              Codebook… / Save Codebook… (OpenCV's vocabulary, as bow build-codebook --out)
// What the core refuses (no folder, no images, K above the descriptors, a codebook file it
// cannot read) is one red line in the status; the codebook and histograms shown stay.
#include "panels/jobpanel.h"

#include <pipelines/bow/collectionrun.h>

#include <QImage>
#include <QPointer>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QCPBars;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace histlab::ui {

/// What the Words tab asks the worker: the folder and how its images are described, K (a
/// codebook's build), the kernel ("auto", a BowKernel name, "all"), the weighting.
struct WordsJobRequest {
    QString folder;
    QString detector = QStringLiteral("kaze");
    int maxSide = 1024;
    int k = 256;
    QString kernel = QStringLiteral("auto");
    QString weighting = QStringLiteral("none");
    QString device = QStringLiteral("auto");
    std::shared_ptr<const Codebook> codebook; ///< for histograms
    QString codebookName;                     ///< where it came from, for the CSV and messages
};

/// The weights and nearest images of a table under one weighting (computed on the worker).
struct WordsView {
    BowWeighting weighting = BowWeighting::None;
    std::vector<std::vector<double>> weights;    ///< weightedHistograms
    std::vector<std::vector<Neighbour>> nearest; ///< nearestImages(similarityWeights, 5)
};

/// A codebook built on the device.
struct WordsCodebookResult {
    WordsJobRequest request;
    CodebookResult run; ///< its kmeans.codebook moved into `codebook`
    std::shared_ptr<const Codebook> codebook;
};

/// A folder's histograms with the codebook held.
struct WordsHistogramsResult {
    WordsJobRequest request;
    HistogramsResult run; ///< its table moved into `table`
    std::shared_ptr<const WordTable> table;
    WordsView view;
    Fp32Peak peak; ///< of the device that ran, measured once per device
};

class WordsPanel : public JobPanel {
    Q_OBJECT
public:
    /// Neighbours shown for the selected image.
    static constexpr std::size_t nearestCount = 5;

    explicit WordsPanel(JobBridge* bridge, QWidget* parent = nullptr);
    /// Build codebook (Run, Ctrl+Enter).
    void startRun() override;
    /// Compute histograms with the codebook held; refused without one.
    void computeHistograms();
    /// Reads a codebook (OpenCV FileStorage, the matrix "vocabulary") on the worker; the
    /// answer arrives as codebookChanged() or a red status line.
    void loadCodebookFrom(const QString& path);
    /// Writes the codebook held on the worker; the answer arrives as codebookSaved() or a red
    /// status line.
    void saveCodebookTo(const QString& path);

    /// The folder of the first file of the window's Images list becomes the folder while none
    /// is given (resources, such as the bundled sample, have none).
    void setImages(const QStringList& paths);

    QLineEdit* folderEdit() const { return m_folder; }
    QPushButton* chooseFolderButton() const { return m_chooseFolder; }
    QComboBox* detectorCombo() const { return m_detector; }
    QSpinBox* kSpin() const { return m_k; }
    /// "auto", each BowKernel name, "all".
    QComboBox* kernelCombo() const { return m_kernel; }
    /// "none", "l1", "l2", "tfidf".
    QComboBox* weightingCombo() const { return m_weighting; }
    QSpinBox* maxSideSpin() const { return m_maxSide; }
    QCheckBox* keypointsCheck() const { return m_keypoints; }
    QPushButton* histogramsButton() const { return m_histogramsButton; }
    QPushButton* loadCodebookButton() const { return m_loadCodebook; }
    QPushButton* saveCodebookButton() const { return m_saveCodebook; }
    QLabel* codebookLabel() const { return m_codebookLabel; }

    QTableWidget* kernelTable() const { return m_kernels; }
    enum KernelColumn {
        KernelColumn,
        DescriptorsColumn,
        KernelMsColumn,
        MdescColumn,
        GflopsColumn,
        PeakColumn,
        AmbiguousColumn,
        StatusColumn,
        GeometryColumn,
        KernelColumnCount
    };
    /// One row an image: file, descriptors, status ("ok" or the reason).
    QTableWidget* imageTable() const { return m_images; }
    enum ImageColumn { FileColumn, ImageDescriptorsColumn, ImageStatusColumn, ImageColumnCount };
    /// The selected image's weights, one bar a word.
    QCustomPlot* plot() const { return m_plot; }
    QCPBars* bars() const { return m_bars; }
    /// The selected image's nearest images: "file\n0.873", the similarity as Qt::UserRole.
    QListWidget* nearestList() const { return m_nearest; }
    /// The selected image (with its keypoints when asked).
    QLabel* imageLabel() const { return m_image; }

    /// The codebook held (built or loaded), null before one.
    std::shared_ptr<const Codebook> codebook() const { return m_codebook; }
    const std::optional<WordsCodebookResult>& codebookResult() const { return m_built; }
    const std::optional<WordsHistogramsResult>& histogramsResult() const { return m_result; }
    /// The keypoints drawn on the image shown (0 when none are).
    std::size_t keypointsShown() const { return m_keypointsShown; }

signals:
    /// A codebook is held: built, or loaded from a file.
    void codebookChanged();
    void codebookSaved(const QString& path);
    /// The selected image's preview (and keypoints, when asked) is shown.
    void previewShown();

private:
    struct Preview; // the selected image's picture, keypoints and neighbours' thumbnails

    WordsJobRequest request() const;
    QString showResult(const std::any& result) override;
    QString presentCodebook(const WordsCodebookResult& result);
    QString presentHistograms(const WordsHistogramsResult& result);
    void showFailure(const JobError& error) override;
    QString cancelledStatus() const override;
    bool hasResult() const override { return m_result.has_value(); }
    bool canRun() const override;
    void updateActions() override;
    QString fileBaseName(Output kind) const override;
    void chooseFolder();
    void chooseLoadCodebook();
    void chooseSaveCodebook();
    void showKernels(const WordsHistogramsResult& result);
    void showImages(const WordTable& table);
    void showSelected();
    void requestPreview();
    void showPreview(const Preview& preview);
    void drawImage();
    bool eventFilter(QObject* watched, QEvent* event) override;
    void weightingChanged();
    /// Runs `work` on a lane of the tab's own (not the Run button's); `done` hears the result.
    void submitAside(const QString& lane, JobWork work, std::function<void(const std::any&)> done,
                     std::function<void(const JobError&)> failed);

    QLineEdit* m_folder;
    QPushButton* m_chooseFolder;
    QComboBox* m_detector;
    QSpinBox* m_k;
    QComboBox* m_kernel;
    QComboBox* m_weighting;
    QSpinBox* m_maxSide;
    QCheckBox* m_keypoints;
    QPushButton* m_histogramsButton;
    QPushButton* m_loadCodebook;
    QPushButton* m_saveCodebook;
    QLabel* m_codebookLabel;
    QTableWidget* m_kernels;
    QTableWidget* m_images;
    QCustomPlot* m_plot;
    QCPBars* m_bars;
    QListWidget* m_nearest;
    QLabel* m_image;
    QLabel* m_imageCaption;

    std::shared_ptr<const Codebook> m_codebook;
    QString m_codebookName;
    std::optional<WordsCodebookResult> m_built;
    std::optional<WordsHistogramsResult> m_result;
    // Only the worker reads or writes it: the FP32 peak of each device measured so far.
    std::shared_ptr<std::map<std::string, Fp32Peak>> m_peaks;
    // The selected image's picture as decoded, and its keypoints (in its own pixels).
    QImage m_picture;
    int m_pictureWidth = 0, m_pictureHeight = 0;
    std::vector<BowKeypoint> m_pictureKeypoints;
    std::size_t m_keypointsShown = 0;
};

} // namespace histlab::ui
