#pragma once
// A region typed in (View › Region…): its corner and size in the image's pixels, bounded by the
// image, prefilled with the region selected (or the whole image). OK selects it on the image
// as a drag would; Whole Image clears it.
#include "common/metatypes.h"

#include <image/image.h>

#include <QDialog>
#include <QSize>

#include <optional>

class QSpinBox;

namespace histlab::ui {

class RegionDialog : public QDialog {
    Q_OBJECT
public:
    RegionDialog(const QSize& imageSize, const std::optional<Region>& current,
                 QWidget* parent = nullptr);

    /// The region the fields describe (always inside the image).
    Region region() const;
    void setRegion(const Region& region);

signals:
    /// OK: select this region. Whole Image: clear it.
    void regionChosen(const histlab::Region& region);
    void wholeImageChosen();

private:
    void keepInside();

    QSize m_imageSize;
    QSpinBox* m_x;
    QSpinBox* m_y;
    QSpinBox* m_width;
    QSpinBox* m_height;
};

} // namespace histlab::ui
