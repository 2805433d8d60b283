#pragma once
// Two images of the same size, an original and a result, compared in one of two ways:
//   side by side  two panes, one zoom and one pan: whatever one pane shows of its image, the
//                 other shows of its own, so a pixel sits at the same place in both;
//   split         one pane; left of a vertical line the original, right of it the result. Drag
//                 the line (or Left/Right while the view has the focus) to move it.
// As ImageView does: fit to the view (the default, kept on resize), 1:1, zoom around the
// cursor with the wheel, pan by dragging (left button away from the split line, or middle
// button). Ctrl+0, Ctrl+1, Ctrl+= and Ctrl+- act on this view while it has the focus (it takes
// them before the window's View menu, whose same keys belong to the Image tab's view).
//
// The images are shown as given (8-bit QImages, e.g. previews); imageSize is the size of the
// images they stand for, the space of every position the view reports. Each pane carries its
// label ("Original" and the result's name); while there is no result its place says why.
#include <QImage>
#include <QList>
#include <QPixmap>
#include <QPointF>
#include <QRect>
#include <QSize>
#include <QString>
#include <QWidget>

class QAction;

class QLabel;

namespace histlab::ui {

class CompareView : public QWidget {
    Q_OBJECT
public:
    enum class Mode { SideBySide, Split };
    Q_ENUM(Mode)

    explicit CompareView(QWidget* parent = nullptr);

    /// Shows both images as images of `imageSize` pixels (the original's own size when empty),
    /// fitted to the view. Either may be null: its place then shows the placeholder.
    void setImages(const QImage& original, const QImage& result, const QSize& imageSize = {});
    /// Replaces the result only, keeping zoom and pan (it stands for the same image size).
    void setResult(const QImage& result);
    const QImage& original() const { return m_layers[0].image; }
    const QImage& result() const { return m_layers[1].image; }
    QSize imageSize() const { return m_imageSize; }

    /// The names drawn over each image; "Original" and "Result" until set.
    void setLabels(const QString& original, const QString& result);
    QString originalLabel() const { return m_labels[0]; }
    QString resultLabel() const { return m_labels[1]; }
    /// Shown in the result's place while there is no result (e.g. "no output: refused").
    void setPlaceholder(const QString& text);
    QString placeholder() const { return m_placeholder; }

    Mode mode() const { return m_mode; }
    /// Restores the mode from QSettings("HistLab", "HistLab") `key` ("split" or "sideBySide")
    /// and stores it there whenever it changes.
    void rememberModeIn(const QString& key);
    /// Shows "x X, y Y: values" of the pixel under the cursor in `label`, cleared on leaving.
    void showHoverIn(QLabel* label);
    /// Where the split line is, as a fraction of the view's width (0 left edge, 1 right edge).
    double splitPosition() const { return m_split; }
    /// The split line's x in widget coordinates.
    int splitX() const;

    /// Screen pixels per image pixel (one scale for both images).
    double scale() const { return m_scale; }
    /// True while the images follow the view's size (after setImages and fitToWindow).
    bool isFitted() const { return m_fitted; }

    /// The panes in widget coordinates: 0 and 1 side by side (original, result); 0 alone split.
    QRect paneRect(int pane) const;
    int paneCount() const { return m_mode == Mode::SideBySide ? 2 : 1; }
    /// Widget position -> image position, in the pane under it (pane 0 for the gap).
    QPointF mapToImage(const QPointF& viewPos) const;
    /// Image position -> widget position in `pane`.
    QPointF mapFromImage(const QPointF& imagePos, int pane = 0) const;
    /// Which image a widget position shows: 0 the original, 1 the result, -1 neither (outside
    /// the image, or the gap between the panes).
    int sideAt(const QPointF& viewPos) const;
    /// "original R 1 G 2 B 3 · result R 4 G 5 B 6" for a pixel of the image (empty outside).
    QString valueText(const QPoint& pixel) const;

    /// Side by Side and Split (checkable, exclusive) for a tool bar or a menu.
    QList<QAction*> modeActions() const { return {m_sideBySideAction, m_splitAction}; }
    /// Fit, Actual Size, Zoom In, Zoom Out.
    QList<QAction*> zoomActions() const { return m_zoomActions; }

    QSize sizeHint() const override { return {640, 400}; }
    QSize minimumSizeHint() const override { return {200, 120}; }

public slots:
    void setMode(histlab::ui::CompareView::Mode mode);
    void setSplitPosition(double fraction);
    void fitToWindow();
    /// 1:1: one image pixel per screen pixel, around the pane's centre.
    void actualSize();
    void zoomIn();
    void zoomOut();
    /// Multiplies the scale by `factor`, keeping the image point under `viewPos` in place.
    void zoomBy(double factor, const QPointF& viewPos);

signals:
    void modeChanged(histlab::ui::CompareView::Mode mode);
    void splitPositionChanged(double fraction);
    void scaleChanged(double scale);
    /// The cursor is over `pixel` (image coordinates); `text` as valueText().
    void hovered(QPoint pixel, const QString& text);
    void hoverLeft();

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    enum class Drag { None, Pan, Split };
    /// One image and its pixmaps (full, and smoothly shrunk to the current scale), both made
    /// when first needed.
    struct Layer {
        QImage image;
        QPixmap pixmap;
        QPixmap scaled;
        void set(const QImage& newImage);
    };

    QSize paneSize() const;
    int paneAt(const QPointF& viewPos) const;
    double fitScale() const;
    void setScale(double scale, const QPointF& viewPos);
    void clampOffset();
    bool nearSplit(const QPointF& viewPos) const;
    void paintLayer(QPainter& painter, Layer& layer, const QRect& pane, const QRect& clip);
    void paintPlaceholder(QPainter& painter, const QRect& area);
    void paintLabel(QPainter& painter, const QString& text, const QRect& pane, bool right);
    void reportHover(const QPointF& viewPos);
    void updateCursor(const QPointF& viewPos);

    Layer m_layers[2]; // original, result
    QString m_labels[2];
    QString m_placeholder;
    QSize m_imageSize;
    Mode m_mode = Mode::SideBySide;
    double m_split = 0.5;
    double m_scale = 1;
    QPointF m_offset; // the image's top-left corner relative to its pane's top-left
    bool m_fitted = true;
    Drag m_drag = Drag::None;
    QPointF m_pressPos;
    QPointF m_pressOffset;
    bool m_hovering = false;
    QAction* m_sideBySideAction;
    QAction* m_splitAction;
    QList<QAction*> m_zoomActions;
};

} // namespace histlab::ui
