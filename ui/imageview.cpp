#include "imageview.h"

#include <QPainter>

namespace histlab::ui {

ImageView::ImageView(QWidget* parent)
    : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ImageView::setImage(const QImage& image) {
    m_image = image;
    m_scaled = {};
    update();
}

void ImageView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().color(QPalette::Dark));
    if (m_image.isNull())
        return;
    const QSize fitted = m_image.size().scaled(size(), Qt::KeepAspectRatio);
    if (m_scaled.size() != fitted)
        m_scaled = QPixmap::fromImage(
            m_image.scaled(fitted, Qt::IgnoreAspectRatio, Qt::SmoothTransformation));
    painter.drawPixmap((width() - fitted.width()) / 2, (height() - fitted.height()) / 2, m_scaled);
}

} // namespace histlab::ui
