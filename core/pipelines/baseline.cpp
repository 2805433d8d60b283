#include "pipelines/baseline.h"

#include "report/text.h"

namespace histlab {

std::vector<std::string> baselineColumns() {
    return {"baseline_device", "baseline_gbps", "ratio_to_baseline"};
}

void addBaselineCells(Table& table, bool comparable, const std::string& baselineDevice,
                      double baselineGbps, double gbps) {
    if (comparable && baselineGbps > 0)
        table.add(baselineDevice).add(baselineGbps).add(gbps / baselineGbps);
    else
        table.skip().skip().skip();
}

std::string ratioText(bool comparable, double baselineGbps, double gbps) {
    if (!comparable || baselineGbps <= 0)
        return "-";
    std::string ratio = "x"; // appended, not "x" + ...: GCC 12's -O3 -Wrestrict false alarm
    ratio += fixedText(gbps / baselineGbps, 2);
    return ratio;
}

} // namespace histlab
