#pragma once
// Helpers shared by the window's Qt tests.
#include "plots/histogramplot.h"

#include <QImage>
#include <QList>
#include <QSettings>
#include <QStandardPaths>
#include <QString>

namespace histlab::uitest {

/// How long a test waits for a result: PoCL builds its kernels on the first run.
constexpr int kTimeoutMs = 60'000;

/// Gives this test program settings of its own, in the folder `dir`, empty at the start: never
/// the user's, and never another test's (CTest runs the window's tests in parallel, and a device
/// or layout one test remembers would change what another sees). Call it before any QSettings
/// exists, i.e. first thing in initTestCase().
inline void isolateSettings(const QString& dir) {
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir);
    QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab")).clear();
}

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
