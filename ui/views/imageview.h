#pragma once
// Shows one image through a preview (at most JobBridge::maxPreviewSide on its longer side), as
// every ZoomView does: fit to the widget (the default, kept on resize), zoom around the cursor
// (wheel, Ctrl+= and Ctrl+-), 1:1 (Ctrl+1: one pixel of the file per screen pixel), fit again
// (Ctrl+0), and pan (drag with the middle button, or with the left button while Space is held).
// Every position the view reports is in the FULL image's pixels (imageSize()), not the
// preview's: a downscaled preview only changes what is painted.
//
// Hovering reports the pixel under the cursor and its value, as ImageJ does: the file's value
// ("value 30,124"; "value 12,200,7" for R,G,B; floats in the shortest text that reads back the
// same value) when the file's pixels are given (setSourcePixels), whatever the preview's size;
// else the preview's (a downscaled preview's smoothed value, and the text says so).
//
// Dragging with the left button selects a rectangle of whole pixels (clamped to the image),
// reported live while dragging and once more on release; a click without a drag, or Esc,
// clears it. A drag inside the rectangle moves it, a drag on its edges or corners (within
// five screen pixels) resizes it; the cursor says which. The image itself always shows whole, with
// the rectangle drawn over it.
#include "common/metatypes.h"
#include "views/zoomview.h"

#include <image/image.h>

#include <QImage>
#include <QMetaType>
#include <QPointF>
#include <QSize>
#include <QString>

#include <memory>
#include <optional>

class QAction;

namespace histlab::ui {

/// The pixels of `preview` whose `channel` ("r", "g", "b" or "gray": the luma of the RGB, as
/// the core computes it) lies in [lo, hi), a translucent red on transparent, the preview's
/// size: ImageJ's threshold overlay for a range selected on the histogram. `depth` is the
/// file's: 8 (the preview's values are the file's), 16 (the preview holds the high byte: the
/// range is matched at that precision). A float image's preview is stretched, and an alpha
/// channel is not in the preview: both give a null image.
/// The value(s) of `image`'s pixel (x, y) as the hover text shows them: "value 30,124" (gray,
/// grouped), "value 12,200,7" (R,G,B, and A where present), floats in the shortest text that
/// reads back the same float ("value -0.0993652").
QString fileValueText(const HostImage& image, int x, int y);

QImage highlightValues(const QImage& preview, int depth, const QString& channel, double lo,
                       double hi);

class ImageView : public ZoomView {
    Q_OBJECT
public:
    explicit ImageView(QWidget* parent = nullptr);

    /// Shows `preview` as an image of `imageSize` pixels (the preview's own size when empty),
    /// fitted to the widget; clears the region without signalling.
    void setImage(const QImage& preview, const QSize& imageSize = {});
    /// Swaps in a new preview of the same image, keeping zoom, pan and region.
    void setPreview(const QImage& preview);
    /// The preview as given.
    const QImage& image() const { return m_layer.image; }
    /// Pixels painted over the image in a translucent colour (a mask the preview's size, from
    /// highlightValues), inside the region only when there is one; a null image paints none.
    /// A new image clears it.
    void setHighlight(const QImage& mask);
    const QImage& highlight() const { return m_highlight; }
    /// Where the overview is drawn (widget pixels), empty while the whole image shows.
    QRect overview() const { return overviewRect(m_layer); }
    /// Bits per channel of the file (8 or 16): only changes the hover text's note.
    void setSourceDepth(int bits) { m_sourceDepth = bits; }
    /// The file's pixels (shared, not copied; imageSize() pixels, else ignored): the hover
    /// text reads its values there. Null: the preview's values.
    void setSourcePixels(std::shared_ptr<const HostImage> pixels) { m_pixels = std::move(pixels); }

    /// The full-image pixel under a widget position; nullopt outside the image.
    std::optional<QPoint> pixelAt(const QPointF& viewPos) const;
    /// The value(s) of a full-image pixel as shown in the hover text, e.g. "R 12 G 200 B 7";
    /// empty outside the image.
    QString valueText(const QPoint& pixel) const override;

    /// The selected region in full-image pixels, if any.
    std::optional<Region> region() const { return m_region; }
    /// True while the left button is dragging out a region (its end is not known yet).
    bool isSelecting() const {
        return m_drag == Drag::Select || m_drag == Drag::Move || m_drag == Drag::Resize;
    }
    /// Selects a region as a drag would (clamped to the image; emits regionChanged).
    void selectRegion(const Region& region);

    /// The view's actions (Zoom In, Zoom Out, Actual Size, Fit), with their shortcuts, for
    /// a menu; they are also added to the view itself.
    QList<QAction*> viewActions() const { return m_actions; }

    QSize sizeHint() const override { return {480, 360}; }
    QSize minimumSizeHint() const override { return {160, 120}; }

public slots:
    /// Clears the region; emits regionCleared() if there was one.
    void clearRegion();

signals:
    /// The selected region changed (while dragging and on release), in full-image pixels.
    void regionChanged(const histlab::Region& region);
    /// The region was cleared (a click without a drag, Esc, or clearRegion()).
    void regionCleared();

protected:
    std::optional<QPoint> hoveredPixel(const QPointF& viewPos) const override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;

private:
    enum class Drag { None, Select, Pan, Overview, Move, Resize };
    /// Which parts of the region a press at `viewPos` grips: edges (kLeft ... kBottom, two for
    /// a corner), the inside (kInside), or nothing (0).
    enum Grip : int { kLeft = 1, kRight = 2, kTop = 4, kBottom = 8, kInside = 16 };
    int gripAt(const QPointF& viewPos) const;
    /// The region a move or resize drag (`drag`) makes with the cursor at `viewPos`.
    Region draggedRegion(Drag drag, const QPointF& viewPos) const;

    /// The region spanned by two image positions (both clamped into the image).
    Region regionBetween(const QPointF& a, const QPointF& b) const;
    void setRegionAndNotify(const Region& region);
    void updateCursor();

    Layer m_layer;         // the preview
    QImage m_highlight;    // over the preview, its size
    int m_sourceDepth = 8; // of the file
    std::shared_ptr<const HostImage> m_pixels;
    std::optional<Region> m_region;

    Drag m_drag = Drag::None;
    bool m_dragMoved = false; // the press moved past the drag distance
    bool m_spaceHeld = false;
    QPointF m_pressPos;      // widget position of the press
    QPointF m_pressImagePos; // its image position
    Region m_pressRegion;    // the region when a move or resize began
    int m_grip = 0;          // what that drag holds
    QList<QAction*> m_actions;
};

} // namespace histlab::ui
