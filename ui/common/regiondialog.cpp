#include "common/regiondialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace histlab::ui {

RegionDialog::RegionDialog(const QSize& imageSize, const std::optional<Region>& current,
                           QWidget* parent)
    : QDialog(parent)
    , m_imageSize(imageSize)
    , m_x(new QSpinBox)
    , m_y(new QSpinBox)
    , m_width(new QSpinBox)
    , m_height(new QSpinBox) {
    setWindowTitle(tr("Region"));
    m_x->setRange(0, std::max(0, imageSize.width() - 1));
    m_y->setRange(0, std::max(0, imageSize.height() - 1));
    m_width->setRange(1, std::max(1, imageSize.width()));
    m_height->setRange(1, std::max(1, imageSize.height()));
    for (QSpinBox* spin : {m_x, m_y, m_width, m_height}) {
        spin->setGroupSeparatorShown(true);
        spin->setSuffix(tr(" px"));
        // A corner moved keeps the size while it fits, then the size gives way.
        connect(spin, &QSpinBox::valueChanged, this, &RegionDialog::keepInside);
    }
    auto* form = new QFormLayout;
    form->addRow(tr("&X (left)"), m_x);
    form->addRow(tr("&Y (top)"), m_y);
    form->addRow(tr("&Width"), m_width);
    form->addRow(tr("&Height"), m_height);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QPushButton* whole = buttons->addButton(tr("Whole &Image"), QDialogButtonBox::ResetRole);
    whole->setToolTip(tr("No region: the histograms of the whole image"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        emit regionChosen(region());
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(whole, &QPushButton::clicked, this, [this] {
        emit wholeImageChosen();
        accept();
    });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    setRegion(current.value_or(Region{0, 0, imageSize.width(), imageSize.height()}));
}

Region RegionDialog::region() const {
    return {m_x->value(), m_y->value(), m_width->value(), m_height->value()};
}

void RegionDialog::setRegion(const Region& region) {
    m_x->setValue(region.x);
    m_y->setValue(region.y);
    m_width->setValue(region.width);
    m_height->setValue(region.height);
}

void RegionDialog::keepInside() {
    // The size's maximum is what is left right of and below the corner.
    m_width->setMaximum(std::max(1, m_imageSize.width() - m_x->value()));
    m_height->setMaximum(std::max(1, m_imageSize.height() - m_y->value()));
}

} // namespace histlab::ui
