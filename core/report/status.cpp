#include "report/status.h"

#include "report/text.h"
#include "runtime/cancel.h"
#include "runtime/errors.h"
#include "runtime/opencl.h"
#include "runtime/runner.h"

#include <array>
#include <utility>

namespace histlab {

namespace {

constexpr std::array<std::pair<Status, const char*>, 7> kNames{{
    {Status::Verified, "verified"},
    {Status::Timed, "timed"},
    {Status::Mismatch, "mismatch"},
    {Status::Unsupported, "unsupported"},
    {Status::NotApplicable, "not applicable"},
    {Status::Failed, "failed"},
    {Status::Cancelled, "cancelled"},
}};

bool tooMuchForDevice(int code) {
    return groupSizeRefused(code) || code == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
           code == CL_INVALID_BUFFER_SIZE || code == CL_OUT_OF_HOST_MEMORY;
}

} // namespace

std::string statusText(Status status, const std::string& detail) {
    std::string text = statusName(status);
    if (!detail.empty()) {
        text += ": ";
        text += detail;
    }
    return text;
}

const char* statusName(Status status) {
    for (const auto& [s, name] : kNames)
        if (s == status)
            return name;
    return "failed";
}

std::ostream& operator<<(std::ostream& out, Status status) {
    return out << statusName(status);
}

Status parseStatus(const std::string& name) {
    for (const auto& [s, n] : kNames)
        if (name == n)
            return s;
    throw InputError("unknown status '" + cappedText(name) +
                     "' (verified, timed, mismatch, unsupported, not applicable, failed, "
                     "cancelled)");
}

bool statusRan(Status status) {
    return status == Status::Verified || status == Status::Timed || status == Status::Mismatch;
}

bool statusOk(Status status) {
    return status == Status::Verified || status == Status::Timed;
}

RowError rowErrorOf(std::exception_ptr error) {
    try {
        std::rethrow_exception(error);
    } catch (const CancelledError&) {
        throw;
    } catch (const UnsupportedError& e) {
        return {Status::Unsupported, e.what()};
    } catch (const UsageError& e) {
        return {Status::NotApplicable, e.what()};
    } catch (const BuildError&) {
        return {Status::Failed, toJobError(std::current_exception()).message};
    } catch (const DeviceError& e) {
        return {tooMuchForDevice(e.code()) ? Status::Unsupported : Status::Failed, e.what()};
    } catch (const cl::Error& e) {
        return {tooMuchForDevice(e.err()) ? Status::Unsupported : Status::Failed,
                describeClError(e.what(), e.err())};
    } catch (...) {
        return {Status::Failed, toJobError(std::current_exception()).message};
    }
}

} // namespace histlab
