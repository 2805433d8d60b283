#pragma once
// The same run's copy kernel in a plot of GB/s (Scans, Memory): a dashed gray level across the
// plot, the reference the other results are judged against. Its GB/s is known from the first
// result judged against it (its GB/s and its % of the copy), and exactly once the run ends.
#include <QString>

class QCPGraph;
class QCustomPlot;

namespace histlab::ui {

class CopyKernelLine {
public:
    /// A graph of `plot`, from x = `from` to x = `to` once known; `nameFormat` names it, %1
    /// being its GB/s ("copy kernel (%1 GB/s)").
    CopyKernelLine(QCustomPlot* plot, double from, double to, QString nameFormat, double width);

    QCPGraph* graph() const { return m_graph; }
    /// Its GB/s, 0 while unknown.
    double gbps() const { return m_gbps; }
    /// Unknown again (a new run).
    void clear();
    /// Learns the GB/s from a result judged against it, if not known yet.
    void learnFrom(double resultGbps, double percentOfCopy);
    /// The exact GB/s, from the run.
    void set(double gbps);

private:
    QCPGraph* m_graph;
    double m_from;
    double m_to;
    QString m_nameFormat;
    double m_gbps = 0;
};

} // namespace histlab::ui
