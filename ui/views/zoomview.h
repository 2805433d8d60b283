#pragma once
// What ImageView and CompareView share: an image of imageSize() pixels shown through a preview
// (a QImage that may be smaller), in one or more panes with one scale and one offset. Fit to the
// pane (the default, kept on resize), 1:1, zoom in and out around the pane's centre or, with the
// wheel, around the cursor (four notches double the scale), and pan. Positions the view reports
// are in the image's pixels, not the preview's: a downscaled preview only changes what is
// painted. Hovering reports the pixel under the cursor and its value (valueText()).
#include <QImage>
#include <QPixmap>
#include <QPointF>
#include <QRect>
#include <QSize>
#include <QString>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QPainter;
class QThreadPool;

namespace histlab::ui {

class ZoomView : public QWidget {
    Q_OBJECT
public:
    /// The size of the image the previews stand for: the space of every position reported.
    QSize imageSize() const { return m_imageSize; }
    /// Screen pixels per image pixel.
    double scale() const { return m_scale; }
    /// True while the image follows the pane's size (after a new image and fitToWindow()).
    bool isFitted() const { return m_fitted; }

    /// The panes in widget coordinates (the whole widget unless a view splits it).
    virtual QRect paneRect(int pane = 0) const;
    /// Widget position -> image position, in the pane under it (image pixel (x, y) covers
    /// [x, x+1) x [y, y+1)).
    QPointF mapToImage(const QPointF& viewPos) const;
    /// Image position -> widget position in `pane`.
    QPointF mapFromImage(const QPointF& imagePos, int pane = 0) const;
    /// The value(s) of an image pixel as the hover text shows them; empty outside the image.
    virtual QString valueText(const QPoint& pixel) const = 0;
    /// What the view says, centred, where it has no image to show ("Open an image…").
    void setPlaceholder(const QString& text);
    QString placeholder() const { return m_placeholder; }
    /// Waits for the smooth copies being made and takes them, then repaints: what a screenshot
    /// grabs afterwards is the final picture.
    void finishSmoothCopies();
    /// The pool (one thread) the smooth copies are made on; tests hold it busy.
    QThreadPool* smoothCopyPool() const { return m_scaler.get(); }

    ~ZoomView() override;

public slots:
    void zoomIn();
    void zoomOut();
    /// 1:1: one image pixel per screen pixel, around the pane's centre.
    void actualSize();
    void fitToWindow();
    /// Multiplies the scale by `factor`, keeping the image point under `viewPos` in place.
    void zoomBy(double factor, const QPointF& viewPos);

signals:
    /// The scale changed (zoom, 1:1, fit, resize while fitted).
    void scaleChanged(double scale);
    /// The cursor is over `pixel` (image coordinates); `valueText` as valueText().
    void hovered(QPoint pixel, const QString& valueText);
    /// The cursor left the image.
    void hoverLeft();

protected:
    /// One preview and its pixmaps (full, and smoothly shrunk to the current scale), made when
    /// first painted: a hidden view converts nothing. The smooth copy is made off the GUI
    /// thread (an area average of a 2048-pixel preview takes the GUI thread 10-30 ms, more while
    /// a job keeps the cores busy); until it comes, the full pixmap is drawn bilinearly.
    struct Layer {
        QImage image;
        QPixmap pixmap;
        QPixmap scaled;
        QSize pending;          // the size of the smooth copy being made
        quint64 generation = 0; // which image: a copy of an earlier one is dropped
        quint64 requests = 0;   // smooth copies asked for so far
        // The one the layer still wants (0: none), read by the scaling thread so that a
        // copy asked for before the latest is skipped rather than made.
        std::shared_ptr<std::atomic<quint64>> wanted = std::make_shared<std::atomic<quint64>>(0);
        void set(const QImage& newImage);
    };

    explicit ZoomView(QWidget* parent = nullptr);

    /// A new image size; the view fits it (and says so through scaleChanged()).
    void setImageSize(const QSize& size);
    /// The pane a widget position is in.
    virtual int paneAt(const QPointF& viewPos) const;
    /// The image pixel a hover at `viewPos` reports, or nothing (outside the image).
    virtual std::optional<QPoint> hoveredPixel(const QPointF& viewPos) const = 0;
    /// Emits hovered() or, once, hoverLeft() for the cursor at `viewPos`.
    void reportHover(const QPointF& viewPos);
    /// Runs `change` (which resizes the panes) keeping the image point at the centre of pane 0
    /// there, or fitted when it was.
    void changePanes(const std::function<void()>& change);
    /// Panning: a drag from `viewPos`, then the image follows the cursor.
    void startPan(const QPointF& viewPos);
    void panTo(const QPointF& viewPos);
    /// Paints `layer` as the image in `pane`, only inside `clip`: shrunk, a smooth copy made once
    /// per scale (off the GUI thread; bilinear until it comes); magnified, only the visible
    /// preview pixels, each a sharp square.
    void paintLayer(QPainter& painter, Layer& layer, const QRect& pane, const QRect& clip);
    /// "gray 12" or "R 1 G 2 B 3" (and " A 4") of the preview pixel that holds the centre of
    /// image pixel `pixel`; empty for a null preview.
    static QString pixelValue(const QImage& preview, const QSize& imageSize, const QPoint& pixel);
    /// The placeholder's text, word-wrapped and centred in `area`.
    void paintPlaceholder(QPainter& painter, const QRect& area);

    /// The overview (a navigator, as GIMP's and Photoshop's) while the image is larger than
    /// the pane: a thumbnail of `layer` in the pane's bottom right corner with the part in
    /// view outlined. Its rectangle in widget pixels, empty while the whole image shows.
    QRect overviewRect(const Layer& layer, int pane = 0) const;
    void paintOverview(QPainter& painter, const Layer& layer, int pane = 0);
    /// The image position a widget position in the overview stands for.
    QPointF overviewToImage(const Layer& layer, const QPointF& viewPos, int pane = 0) const;
    /// Pans so that image position `imagePos` is at the centre of the pane (as near as the
    /// image's edges allow).
    void centreOn(const QPointF& imagePos);

    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    double fitScale() const;
    void setScale(double scale, const QPointF& viewPos);
    /// Keeps the image in view: centred along an axis where it is smaller than the pane,
    /// otherwise without a gap at either edge.
    void clampOffset();
    /// Starts making `layer`'s smooth copy of `size` device pixels, unless it is on its way.
    void requestSmoothCopy(Layer& layer, const QSize& size);

    QString m_placeholder;
    QSize m_imageSize;
    double m_scale = 1; // screen pixels per image pixel
    QPointF m_offset;   // the image's top-left corner relative to its pane's top-left
    bool m_fitted = true;
    bool m_hovering = false;               // the last hover report was over the image
    QPointF m_panFrom;                     // widget position where the pan started
    QPointF m_panOffset;                   // m_offset then
    std::unique_ptr<QThreadPool> m_scaler; // one thread, in order; stale copies are skipped
    QPixmap m_overview;                    // the overview's thumbnail, of ...
    quint64 m_overviewGeneration = 0;      // ... this image
};

} // namespace histlab::ui
