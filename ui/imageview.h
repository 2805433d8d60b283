#pragma once
// Shows one image scaled to fit (aspect kept, centred); the scaled pixmap is cached per size.
#include <QImage>
#include <QPixmap>
#include <QWidget>

namespace histlab::ui {

class ImageView : public QWidget {
    Q_OBJECT
public:
    explicit ImageView(QWidget* parent = nullptr);

    void setImage(const QImage& image);
    const QImage& image() const { return m_image; }

    QSize sizeHint() const override { return {480, 360}; }
    QSize minimumSizeHint() const override { return {160, 120}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QImage m_image;
    QPixmap m_scaled; // m_image fitted into the current size
};

} // namespace histlab::ui
