#pragma once
// Helpers shared by the window's Qt tests.
#include "histogramplot.h"

#include <QImage>
#include <QList>

namespace histlab::uitest {

/// How long a test waits for a result: PoCL builds its kernels on the first run.
constexpr int kTimeoutMs = 60'000;

/// A deterministic image with well-spread values in every channel.
inline QImage makeImage(int width, int height, QImage::Format format) {
    QImage image(width, height, format);
    for (int y = 0; y < height; ++y) {
        uchar* row = image.scanLine(y);
        for (int i = 0; i < image.bytesPerLine(); ++i)
            row[i] = uchar((i * 7 + y * 13 + (i * y) % 31) & 0xFF);
    }
    return image;
}

/// Every graph's points, to compare what is shown before and after.
inline QList<QList<double>> plottedValues(const ui::HistogramPlot& plot) {
    QList<QList<double>> all;
    for (int i = 0; i < plot.graphCount(); ++i) {
        QList<double> values;
        for (auto it = plot.graph(i)->data()->constBegin(); it != plot.graph(i)->data()->constEnd();
             ++it)
            values << it->value;
        all << values;
    }
    return all;
}

} // namespace histlab::uitest
