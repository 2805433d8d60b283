// histlab-cli devices [--json]: every OpenCL device with its index, properties and the results
// of the probes that compile and run tiny kernels (non-uniform work-groups,
// work_group_scan_exclusive_add); --json writes what the Devices tab exports.
#include "cli/command.h"
#include "cli/support.h"
#include "report/json.h"

#include <iostream>

namespace histlab::cli {

namespace {

class DevicesCommand : public Command {
public:
    void setup(CLI::App& sub) override {
        sub.add_flag("--json", m_json, "the devices as JSON (properties, driver, probes)");
    }

    int run(JobRunner& runner) override {
        auto outcome = runner.runAndWait(
            [](JobContext& ctx) -> std::any { return listDevices(ctx.devices()); });
        if (auto* e = std::get_if<JobError>(&outcome))
            return report(*e);
        const auto& listing =
            std::any_cast<const std::vector<DeviceListing>&>(std::get<std::any>(outcome));
        if (m_json) {
            std::cout << devicesJson(listing);
            return Ok;
        }
        for (const DeviceListing& l : listing) {
            const DeviceInfo& d = l.info;
            std::cout << deviceLine(d) << "\n  " << d.deviceVersion << ", " << d.openclCVersion
                      << ", max work-group " << d.maxWorkGroupSize << ", max buffer "
                      << (d.maxAllocBytes >> 20) << " MiB, global memory "
                      << (d.globalMemBytes >> 20) << " MiB\n";
            if (!l.capabilities) {
                std::cout << "  probes: could not run (" << l.probeError << ")\n";
                continue;
            }
            const Capabilities& c = *l.capabilities;
            std::cout << "  non-uniform work-groups: " << (c.nonUniformWorkGroups ? "yes" : "no")
                      << " (" << c.nonUniformDetail << ")\n"
                      << "  work_group_scan_exclusive_add: " << (c.workGroupScan ? "yes" : "no")
                      << " (" << c.workGroupScanDetail << ")\n";
        }
        return Ok;
    }

private:
    bool m_json = false;
};

} // namespace

std::unique_ptr<Command> makeDevicesCommand() {
    return std::make_unique<DevicesCommand>();
}

} // namespace histlab::cli
