#pragma once
// The Joint tab: the joint 2-D histogram of two images of the same size from the window's Images
// list, or of two channels of one image, with an optional mask, on the device chosen in the Run
// dock (lane "joint": a new run replaces the one running, Cancel keeps the previous result).
// It runs what histlab-cli joint runs (makeJointRequest, runJoint): the CPU reference and its
// entropies, then each chosen method on the device, verified cell by cell, then MI evaluations
// on the device.
//   controls   image and channel of A and of B (the channels imagePlane takes), the mask (none,
//              or an image of the list: its non-zero pixels are counted), bins per axis (16 …
//              1,024), the method (auto, each joint method, or all), the timed repeats
//   the plot   the heat map on a logarithmic colour scale with its colour bar, A's marginal
//              above it and B's to its right (JointPlot)
//   numbers    H(A), H(B), H(A,B), MI in bits, the three NMIs ("—" where undefined), the pairs
//              counted and left out; the colocalisation as Fiji's Coloc 2 gives it (Pearson's r
//              all, below and above Costes' thresholds, M1, M2, tM1, tM2, the thresholds and
//              regression line, also drawn on the map, ICQ, the pairs above both thresholds,
//              the device's sums verified against the CPU reference); a table of the methods
//              (median and min ms, GB/s, G pairs/s, % of the read-only kernel, geometry, status,
//              detail); the MI evaluations per second
//   files      Export Plot… (PNG, JPG, PDF, SVG: the map with Costes' lines, its title with MI,
//              NMI and r), Save CSV… (jointCsv: the 2-D table), Save JSON… (jointJson, with the
//              colocalisation), as histlab-cli joint --csv / --json write them
// A request the core refuses (images of different sizes, a mask of another size, a channel an
// image lacks) is shown in red in the status line, naming the files; the result shown stays.
#include "panels/resultpanel.h"

#include <pipelines/largebin/jointpipeline.h>

#include <QSize>
#include <QStringList>

class QComboBox;
class QLabel;
class QTableWidget;

namespace histlab::ui {

class ImageList;
class JointPlot;

/// What the Joint tab asks the worker: two images (or one twice) and their channels, a mask,
/// the bins, the methods (a name the core's parseNameList takes: "auto", a method, "all").
struct JointJobRequest {
    QString sourceA, sourceB;                  ///< file or resource paths
    QString channelA = QStringLiteral("gray"); ///< one of imageChannelNames()
    QString channelB = QStringLiteral("gray");
    QString mask; ///< empty: none
    int binsA = 256, binsB = 256;
    QString method = QStringLiteral("auto");
    QString coloc = QStringLiteral("stepwise"); ///< Costes' search: stepwise, bisection, off
    QString device = QStringLiteral("auto");    ///< a core device selector (see selectDevice)
    int repeats = 5;
};

/// One finished joint run: what was asked and what the core computed.
struct JointShown {
    JointJobRequest request;
    JointRun run;
};

class JointPanel : public ResultPanel<JointShown> {
    Q_OBJECT
public:
    explicit JointPanel(JobBridge* bridge, QWidget* parent = nullptr);
    void startRun() override;

    /// The images the window has opened (its Images list): the choices for A, B and the mask,
    /// each named with its size where the list knows it; an entry that could not be read is
    /// not offered. A and B are the current image (setCurrentImage; else the first) until the
    /// person chooses them; a chosen image, and the mask, stay chosen while they are listed.
    void setImages(const QStringList& paths);
    /// Where the sizes and the unreadable entries are known (the window's Images list); its
    /// changes update the choices.
    void setImageList(const ImageList* list);
    /// The image the Image tab shows: A and B default to two of its channels (R and G of a
    /// colour image, a gray image against itself) until the person chooses.
    void setCurrentImage(const QString& source, const QSize& size, bool colour);

    JointPlot* plot() const { return m_plot; }
    QComboBox* imageACombo() const { return m_imageA; }
    QComboBox* imageBCombo() const { return m_imageB; }
    QComboBox* channelACombo() const { return m_channelA; }
    QComboBox* channelBCombo() const { return m_channelB; }
    /// "none", then the images.
    QComboBox* maskCombo() const { return m_mask; }
    QComboBox* binsACombo() const { return m_binsA; }
    QComboBox* binsBCombo() const { return m_binsB; }
    /// "auto", each joint method, "all".
    QComboBox* methodCombo() const { return m_method; }
    /// Costes' search: "stepwise", "bisection", "off".
    QComboBox* colocCombo() const { return m_coloc; }

    /// The numbers, each a label: "<value> bits" (entropies, MI), the NMIs, "—" when undefined.
    QLabel* entropyALabel() const { return m_entropyA; }
    QLabel* entropyBLabel() const { return m_entropyB; }
    QLabel* jointEntropyLabel() const { return m_jointEntropy; }
    QLabel* miLabel() const { return m_mi; }
    QLabel* nmiStudholmeLabel() const { return m_nmiStudholme; }
    QLabel* nmiArithmeticLabel() const { return m_nmiArithmetic; }
    QLabel* nmiGeometricLabel() const { return m_nmiGeometric; }
    /// Pairs counted, and left out (out of range, NaN or masked).
    QLabel* pairsLabel() const { return m_pairs; }
    /// The MI evaluations per second on the device, and how they were verified.
    QLabel* evaluationsLabel() const { return m_evaluations; }
    /// Colocalisation (coloc.h), numbers as numberText shows them: "r (below …, above …)",
    /// "M1, M2", "tM1, tM2", "A TA, B TB · b = slope·a + intercept", ICQ, the pairs above both
    /// thresholds, and the device's verdict (or why none was computed).
    QLabel* pearsonLabel() const { return m_pearson; }
    QLabel* mandersLabel() const { return m_manders; }
    QLabel* thresholdedMandersLabel() const { return m_thresholdedManders; }
    QLabel* thresholdsLabel() const { return m_thresholds; }
    QLabel* icqLabel() const { return m_icq; }
    QLabel* aboveBothLabel() const { return m_aboveBoth; }
    QLabel* colocStatusLabel() const { return m_colocStatus; }

    QTableWidget* methodsTable() const { return m_table; }
    enum Column {
        MethodColumn,
        MedianColumn,
        MinColumn,
        GbpsColumn,
        GpairsColumn,
        PercentColumn,
        GeometryColumn,
        StatusColumn,
        DetailColumn,
        ColumnCount
    };

    /// A number as the tab shows it: six decimals, "—" for NaN (undefined).
    static QString numberText(double value);

    /// What a run would count now: the chosen images, channels, mask and settings (the
    /// Register page registers this pair).
    JointJobRequest request() const;

private:
    QString present(const JointShown& result) override;
    QString cancelledStatus() const override;
    bool canRun() const override;
    QString fileBaseName(Output kind) const override;
    void showNumbers(const JointRun& run);
    void showMethods(const JointRun& run);
    void showColocalisation(const JointRun& run);

    JointPlot* m_plot;
    QComboBox* m_imageA;
    QComboBox* m_imageB;
    QComboBox* m_channelA;
    QComboBox* m_channelB;
    QComboBox* m_mask;
    QComboBox* m_binsA;
    QComboBox* m_binsB;
    QComboBox* m_method;
    QComboBox* m_coloc;
    QLabel* m_entropyA;
    QLabel* m_entropyB;
    QLabel* m_jointEntropy;
    QLabel* m_mi;
    QLabel* m_nmiStudholme;
    QLabel* m_nmiArithmetic;
    QLabel* m_nmiGeometric;
    QLabel* m_pairs;
    QLabel* m_evaluations;
    QLabel* m_pearson;
    QLabel* m_manders;
    QLabel* m_thresholdedManders;
    QLabel* m_thresholds;
    QLabel* m_icq;
    QLabel* m_aboveBoth;
    QLabel* m_colocStatus;
    QTableWidget* m_table;
    /// The combos filled again from m_paths (sizes, readability), keeping what can be kept.
    void fillImageCombos();
    /// "left01.png (640 × 480)".
    QString entryText(const QString& path) const;

    bool m_chosenA = false; // the person chose A (or B): the list no longer decides it
    bool m_chosenB = false;
    bool m_chosenChannels = false; // the person chose a channel: the image no longer decides
    QStringList m_paths;
    const ImageList* m_list = nullptr;
    QString m_currentImage;
    QSize m_currentSize;
};

} // namespace histlab::ui
