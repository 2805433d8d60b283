#include "plots/plotstyle.h"

#include <qcustomplot.h>

#include <array>

namespace histlab::ui {

QColor seriesColor(int k) {
    static const std::array<QColor, 5> palette = {QColor(31, 119, 180), QColor(255, 127, 14),
                                                  QColor(44, 160, 44), QColor(214, 39, 40),
                                                  QColor(148, 103, 189)};
    return k >= 0 && k < int(palette.size()) ? palette[std::size_t(k)] : QColor(127, 127, 127);
}

QCPTextElement* addPlotTitle(QCustomPlot* plot, const QString& text, int pointSize) {
    plot->plotLayout()->insertRow(0);
    auto* title =
        new QCPTextElement(plot, text, QFont(plot->font().family(), pointSize, QFont::Bold));
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

void showSmallLegend(QCustomPlot* plot) {
    plot->legend->setVisible(true);
    plot->legend->setFont(QFont(plot->font().family(), 8));
}

void fitFromZero(QCPAxis* axis, double top) {
    axis->setRange(0, top > 0 ? top * 1.15 : 1);
}

void setLevel(QCPGraph* graph, double value, double from, double to) {
    graph->setData(QVector<double>{from, to}, QVector<double>{value, value}, true);
}

} // namespace histlab::ui
