#pragma once
// An image's histograms, one graph per channel in its colour (R, G, B, A, and gray in dark
// gray), named after the channel: the 256-bin ones of an 8-bit image, or the large-bin ones at
// full resolution (65,536 exact bins of a 16-bit image, a float image's bins over its range),
// each bin drawn at its lower edge. A new histogram shows the values present (a 12-bit image's
// first 4,096 of 65,536 bins). Drag and the wheel pan and zoom the value axis; the count axis
// follows the highest visible bin in view. Reset zoom shows the values present again, Whole
// range every bin. What a person can change, from the right-click menu or by clicking a legend
// entry: which channels show, lines or bars, a linear or logarithmic count axis, a cumulative
// overlay (percent of the pixels, on the right axis), and spike clipping (ImageJ's rule: when a
// bin holds more than twice the second-highest, the axis stops at 1.5 times that one, and a
// note names the bin cut). The legend is translucent and can be dragged. The options outlive
// the data (a new image keeps them) and, with a settings key, the session. Hovering marks the
// bin with a line and shows its value and every visible count beside the cursor, for as long
// as the cursor stays. Shift + drag selects a range of values (GIMP's histogram dock does it with
// a plain drag; here a plain drag pans): the plot shades it and says how many pixels of each
// visible channel fall in it and their share; Esc or Clear Selection ends it. A reference (the
// histograms of another region or image, pinned) is drawn dashed under the current ones, scaled
// to their pixels, with OpenCV's compareHist distances per channel. Replots are queued
// (rpQueuedReplot), so several updates in one event-loop turn cost one.
#include <pipelines/histogram256/histogram256.h>
#include <pipelines/histogram256/histogramdistance.h>

#include <qcustomplot.h>

#include <QSet>

#include <optional>
#include <vector>

class QMenu;

namespace histlab::ui {

class HistogramPlot : public QCustomPlot {
    Q_OBJECT
public:
    enum class Style { Lines, Bars };

    explicit HistogramPlot(QWidget* parent = nullptr);

    /// One channel's histogram: `counts.size()` uniform bins over [lo, hi].
    struct Series {
        std::string name; ///< "r", "g", "b", "a" or "gray"
        double lo = 0, hi = 256;
        std::vector<std::uint64_t> counts;
        double binWidth() const { return counts.empty() ? 1 : (hi - lo) / double(counts.size()); }
    };

    /// Replaces the data with these histograms (names "r", "g", "b", "a", "gray").
    void setHistograms(const std::vector<ChannelHistogram>& histograms);
    void setHistograms(std::vector<Series> histograms);
    const std::vector<Series>& histograms() const { return m_histograms; }
    /// The x range of the occupied bins (every bin when `whole`; byte bins: always 0 ... 255),
    /// all the counts in view.
    void showRange(bool whole);
    void showAll(); ///< showRange(false): what a new histogram and Reset zoom show
    void clearHistograms();

    /// The graph that shows this channel's counts, or nullptr.
    QCPGraph* channelGraph(const QString& channel) const;
    /// The graph of this channel's cumulative overlay, or nullptr (overlay off or hidden).
    QCPGraph* cumulativeGraph(const QString& channel) const;

    void setStyle(Style style);
    Style style() const { return m_style; }
    void setLogScale(bool on);
    bool logScale() const { return m_log; }
    void setCumulative(bool on);
    bool cumulative() const { return m_cumulative; }
    void setChannelVisible(const QString& channel, bool visible);
    bool channelVisible(const QString& channel) const { return !m_hidden.contains(channel); }
    void setClipSpikes(bool on);
    bool clipSpikes() const { return m_clipSpikes; }
    /// What the clip note says ("clipped: R at 0 (28,000)"), empty when nothing is clipped.
    QString clipNote() const;
    /// Remembers the options (and where the legend was dragged) in QSettings under this key,
    /// and takes those saved there now. Empty: nothing is remembered.
    void setSettingsKey(const QString& key);

    /// The count axis fitted to the highest visible bin in the value range shown (clipped).
    void fitCountAxis();
    /// The readout beside the cursor while it hovers a bin (empty when none shows), and the
    /// value the marker line stands at.
    QString hoverText() const;
    std::optional<double> markerValue() const;
    /// Shows the readout and marker for the cursor at `pos` (widget pixels); what a mouse
    /// move over the plot does.
    void hoverAt(const QPoint& pos);
    void hideHover();

    /// The tooltip text for bin `bin`: its value (whole-number bins of width 1) or its range,
    /// and each visible channel's count (and cumulative percent when the overlay is on); empty
    /// outside the bins or without data.
    QString toolTipText(int bin) const;
    /// What the tooltip says at x (a value on the axis): toolTipText of the bin there, or for
    /// channels binned over ranges of their own, each one's bin and count.
    QString toolTipAt(double x) const;
    /// The bin under x (a value on the axis), or -1.
    int binAt(double x) const;

    /// Selects the values from `lo` to `hi` (either order; widened to the whole bins they touch)
    /// and says so (valueRangeChanged). What a Shift + drag does.
    void selectValues(double lo, double hi);
    void clearSelection();
    /// The values selected: the lower edge of the first bin and the upper edge of the last.
    std::optional<std::pair<double, double>> selectedValues() const { return m_selection; }
    /// How many of a channel's samples fall in the selection (0 without one).
    std::uint64_t selectedCount(const QString& channel) const;
    /// What the shaded range's note says: the values, and each visible channel's count and
    /// share ("values 64 … 127", "R: 12,345 (9.1 %)"); empty without a selection.
    QString selectionText() const;

    /// Histograms to compare the shown ones with (another region or image), named `label`:
    /// drawn dashed, scaled to the shown channel's pixels; the distances in a note.
    void setReference(std::vector<Series> reference, const QString& label);
    void clearReference();
    bool hasReference() const { return !m_reference.empty(); }
    const QString& referenceLabel() const { return m_referenceLabel; }
    /// The distances from the reference's channel to the shown one (nothing without both, or
    /// when their bins differ).
    std::optional<HistogramDistances> distanceTo(const QString& channel) const;
    /// The comparison note: the reference's name and each visible channel's distances (or why
    /// they cannot be compared); empty without a reference.
    QString comparisonText() const;

    /// The options as a menu (what the right-click shows); the actions act on this plot.
    QMenu* createOptionsMenu(QWidget* parent);

    /// The colour a channel is drawn in.
    static QColor channelColor(const QString& channel);

signals:
    /// Emitted after any option changed (style, log scale, cumulative, visibility).
    void optionsChanged();
    /// The selected values changed (selectedValues(); empty when cleared), or their counts did
    /// (new histograms, a channel shown or hidden).
    void valueRangeChanged();

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void onLegendClick(QCPLegend* legend, QCPAbstractLegendItem* item, QMouseEvent* event);
    /// The highest count the axis must show over [lo, hi] (visible channels; clipped when on),
    /// and the note naming what the clipping cut.
    std::uint64_t peakIn(double lo, double hi, QString* note) const;
    /// Whether every channel has the same bins (range and count): then one bin is read at x.
    bool sharesBins() const;
    void saveSettings() const;
    /// The selection's shading and note, after the selection or the data changed.
    void showSelection();
    /// The reference's series for a shown one: same channel, same bins over the same range.
    const Series* matchingReference(const Series& shown) const;
    /// The edges of the bin holding x in the first channel's bins (x itself without data).
    std::pair<double, double> binEdgesAt(double x) const;

    std::vector<Series> m_histograms;
    Style m_style = Style::Lines;
    bool m_log = false;
    bool m_cumulative = false;
    bool m_clipSpikes = false;
    QSet<QString> m_hidden;
    QString m_settingsKey;
    QCPItemStraightLine* m_marker = nullptr;
    QCPItemText* m_readout = nullptr;
    QCPItemText* m_clipText = nullptr;
    std::optional<std::pair<double, double>> m_selection;
    std::optional<double> m_selectingFrom; // while a Shift + drag goes on: where it started
    QCPItemRect* m_selectionRect = nullptr;
    QCPItemText* m_selectionNote = nullptr;
    std::vector<Series> m_reference;
    QString m_referenceLabel;
    QCPItemText* m_comparisonNote = nullptr;
    bool m_fitting = false; // fitCountAxis() is changing ranges itself
};

} // namespace histlab::ui
