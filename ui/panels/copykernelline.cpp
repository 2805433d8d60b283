#include "panels/copykernelline.h"

#include "panels/resulttable.h"
#include "plots/plotstyle.h"

#include <qcustomplot.h>

namespace histlab::ui {

CopyKernelLine::CopyKernelLine(QCustomPlot* plot, double from, double to, QString nameFormat,
                               double width)
    : m_graph(plot->addGraph())
    , m_from(from)
    , m_to(to)
    , m_nameFormat(std::move(nameFormat)) {
    m_graph->setPen(QPen(QColor(90, 90, 90), width, Qt::DashLine));
    clear();
}

void CopyKernelLine::clear() {
    m_gbps = 0;
    m_graph->data()->clear();
    m_graph->setName(QObject::tr("copy kernel"));
}

void CopyKernelLine::learnFrom(double resultGbps, double percentOfCopy) {
    // The copy kernel runs first: the first judged result carries its GB/s in its ratio.
    if (m_gbps <= 0 && percentOfCopy > 0 && resultGbps > 0)
        set(resultGbps * 100.0 / percentOfCopy);
}

void CopyKernelLine::set(double gbps) {
    m_gbps = gbps;
    setLevel(m_graph, gbps, m_from, m_to);
    m_graph->setName(m_nameFormat.arg(gbpsText(gbps)));
}

} // namespace histlab::ui
