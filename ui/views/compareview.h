#pragma once
// Two images of the same size, an original and a result, compared in one of two ways:
//   side by side  two panes, one zoom and one pan: whatever one pane shows of its image, the
//                 other shows of its own, so a pixel sits at the same place in both;
//   split         one pane; left of a vertical line the original, right of it the result. Drag
//                 the line (or Left/Right while the view has the focus) to move it.
// As every ZoomView (and ImageView): fit to the view (the default, kept on resize), 1:1, zoom
// around the cursor with the wheel, pan by dragging (left button away from the split line, or
// middle button). Ctrl+0, Ctrl+1, Ctrl+= and Ctrl+- act on this view while it has the focus (it
// takes them before the window's View menu, whose same keys belong to the Image tab's view).
//
// The images are shown as given (8-bit QImages, e.g. previews); imageSize is the size of the
// images they stand for, the space of every position the view reports. Each pane carries its
// label ("Original" and the result's name); while there is no result its place says why.
#include "views/zoomview.h"

#include <QImage>
#include <QList>
#include <QPointF>
#include <QRect>
#include <QSize>
#include <QString>

class QAction;
class QLabel;

namespace histlab::ui {

class CompareView : public ZoomView {
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

    /// The names drawn over each image; "Original" and "Result" until set.
    void setLabels(const QString& original, const QString& result);
    QString originalLabel() const { return m_labels[0]; }
    QString resultLabel() const { return m_labels[1]; }
    // setPlaceholder(): shown in the result's place while there is no result (e.g. "no output:
    // refused").

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

    /// The panes in widget coordinates: 0 and 1 side by side (original, result); 0 alone split.
    /// One scale and one pan for both images.
    QRect paneRect(int pane = 0) const override;
    int paneCount() const { return m_mode == Mode::SideBySide ? 2 : 1; }
    /// Which image a widget position shows: 0 the original, 1 the result, -1 neither (outside
    /// the image, or the gap between the panes).
    int sideAt(const QPointF& viewPos) const;
    /// "original R 1 G 2 B 3 · result R 4 G 5 B 6" for a pixel of the image (empty outside).
    QString valueText(const QPoint& pixel) const override;

    /// Side by Side and Split (checkable, exclusive) for a tool bar or a menu.
    QList<QAction*> modeActions() const { return {m_sideBySideAction, m_splitAction}; }
    /// Fit, Actual Size, Zoom In, Zoom Out.
    QList<QAction*> zoomActions() const { return m_zoomActions; }

    QSize sizeHint() const override { return {640, 400}; }
    QSize minimumSizeHint() const override { return {200, 120}; }

public slots:
    void setMode(histlab::ui::CompareView::Mode mode);
    void setSplitPosition(double fraction);

signals:
    void modeChanged(histlab::ui::CompareView::Mode mode);
    void splitPositionChanged(double fraction);

protected:
    int paneAt(const QPointF& viewPos) const override;
    std::optional<QPoint> hoveredPixel(const QPointF& viewPos) const override;
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    enum class Drag { None, Pan, Split };

    bool nearSplit(const QPointF& viewPos) const;
    void paintLabel(QPainter& painter, const QString& text, const QRect& pane, bool right);
    void updateCursor(const QPointF& viewPos);

    Layer m_layers[2]; // original, result
    QString m_labels[2];
    Mode m_mode = Mode::SideBySide;
    double m_split = 0.5;
    Drag m_drag = Drag::None;
    QAction* m_sideBySideAction;
    QAction* m_splitAction;
    QList<QAction*> m_zoomActions;
};

} // namespace histlab::ui
