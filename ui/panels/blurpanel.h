#pragma once
// The Blur tab: the box blur of the image the window shows, on the device chosen in the Run
// dock (lane "blur": a new run replaces the one running).
//   Whole image   runBoxBlur: border interior, replicate or reflect101; variant auto, direct,
//                 tiled, sliding, or all three in turn to compare them
//   Launch demo   runBlurLaunches on the image's 8-bit gray plane (a color image's luma, a
//                 16-bit image's high byte): the reference text's launches of the interior blur
//                 (cl12-null, cl12-16x16, cl20-null, cl20-16x16, padded-16x16, or all)
// Radius 1..256 and the timed repeats.
//
// The results: the original (or the gray plane) against the selected row's output, a table of
// runs (variant or launch, build options, range, local size, status, median and min ms, GB/s,
// verified, detail; unsupported (a launch refused as the text says it must be) and not
// applicable are expected, with their reason, a verification failure is red), the selected
// launch's corners table (get_global_id, get_local_size, get_enqueued_local_size at the four
// corners of the range) and its timings. Save Result writes the shown output.
#include "panels/imagejobpanel.h"
#include "panels/resultpanel.h"

#include <pipelines/blur/blur.h>

#include <optional>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;

namespace histlab::ui {

/// A box blur (lane "blur"): the whole image with a border mode and a variant, or the
/// reference text's launches of the interior blur on its 8-bit gray plane.
struct BlurRequest : ImageJobRequest {
    enum class Mode { WholeImage, Launches };
    Mode mode = Mode::WholeImage;
    int radius = 1;
    BorderMode border = BorderMode::Reflect101; ///< WholeImage
    /// WholeImage: each is run in turn (several to compare them); empty means {Auto}.
    std::vector<BlurVariant> variants;
    std::vector<BlurLaunch> launches; ///< Launches; empty means all of them
};

/// One finished blur, as values. The previews are 8-bit QImages of the same size (the high
/// byte of 16-bit data, downscaled alike when the image is larger than maxPreviewSide); the
/// outputs themselves are full size, for saving.
/// channels, depth and inputPreview are those of what was blurred: the image, or for the launch
/// demonstration its 8-bit gray plane.
struct BlurShown : ImageJobRun {
    BlurRequest request;
    QString note; ///< e.g. the launch demonstration of a color image runs on its luma
    std::vector<BlurVariantRow> runs;       ///< WholeImage: one per requested variant
    std::vector<BlurLaunchResult> launches; ///< Launches: one per launch
    std::vector<QImage> previews; ///< one per run or launch, null where there is no output
};

class BlurPanel : public ResultPanel<BlurShown, ImageJobPanel> {
    Q_OBJECT
public:
    explicit BlurPanel(JobBridge* bridge, QWidget* parent = nullptr);
    /// Blurs the image with the controls' values; a run in progress is replaced.
    void startRun() override;

    /// The runs table: one row per variant or launch of result().
    QTableWidget* runsTable() const { return m_runs; }
    /// What a person compares first comes first (at 1200 px the last columns are off-screen):
    /// the outcome and the speed, then how it was launched, the build options, the detail.
    enum Column {
        NameColumn,
        StatusColumn,
        MedianColumn,
        MinColumn,
        GbpsColumn,
        VerifiedColumn,
        RangeColumn,
        LocalColumn,
        OptionsColumn,
        DetailColumn,
        ColumnCount
    };
    /// The selected row, or -1.
    int selectedRow() const;
    void selectRow(int row);
    /// The full-size output of the selected row, or nullptr when it has none (refused,
    /// unsupported, failed, nothing run): what Save Result writes.
    const HostImage* selectedOutput() const;
    /// The selected launch's corners, and the selected row's timings.
    QTableWidget* cornersTable() const { return m_corners; }
    QLabel* timingsLabel() const { return m_timings; }

    QComboBox* modeCombo() const { return m_mode; }
    QComboBox* borderCombo() const { return m_border; }
    QComboBox* variantCombo() const { return m_variant; }
    QComboBox* launchCombo() const { return m_launch; }
    QSpinBox* radiusSpin() const { return m_radius; }

private:
    /// The request the controls describe (for the image set by setImage).
    BlurRequest request() const;
    void saveSettings() const override;
    QString present(const BlurShown& result) override;
    void clearResult() override;
    const HostImage* resultImage() const override { return selectedOutput(); }
    QString resultFileName() const override;
    void showModeRows();
    void fillRunsTable(const BlurShown& result);
    void showSelection();
    void fillCorners(const BlurLaunchResult* launch);

    QComboBox* m_mode;
    QComboBox* m_border;
    QComboBox* m_variant;
    QComboBox* m_launch;
    QSpinBox* m_radius;
    QTableWidget* m_runs;
    QTableWidget* m_corners;
    QLabel* m_cornersTitle;
    QLabel* m_timings;
};

} // namespace histlab::ui
