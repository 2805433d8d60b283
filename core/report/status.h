#pragma once
// The one vocabulary for how a row, a point or a result went: every pipeline, writer and panel
// says it with these words (CSV and JSON write the names below, and read them back).
#include <exception>
#include <ostream>
#include <string>

namespace histlab {

/// What became of one measured row or point:
///   verified        ran, and its output equals the CPU reference (bit-exact for integers)
///   timed           ran, and there is nothing to verify (a ceiling kernel, a partial stage)
///   mismatch        ran, and its output differs from the CPU reference (the detail says where)
///   unsupported     the device cannot run it (the detail says why); never replaced silently
///   not applicable  not made for these parameters (e.g. a variant built for small radii)
///   failed          an OpenCL call or the run failed (the detail names the call and the code)
///   cancelled       stopped before it finished
/// Only verified, timed and mismatch carry timings.
enum class Status { Verified, Timed, Mismatch, Unsupported, NotApplicable, Failed, Cancelled };

/// "verified", "timed", "mismatch", "unsupported", "not applicable", "failed", "cancelled".
const char* statusName(Status status);

/// "name" or "name: detail", as a text report's status column says it.
std::string statusText(Status status, const std::string& detail);

/// The name, for messages and test output.
std::ostream& operator<<(std::ostream& out, Status status);

/// The status of a name statusName() gives; throws InputError for any other (names are read
/// from saved files).
Status parseStatus(const std::string& name);

/// Verified, timed or mismatch: the row ran and its timings are real.
bool statusRan(Status status);

/// Verified or timed: the row ran and nothing is wrong with it.
bool statusOk(Status status);

/// A row's status and detail from the error that stopped it, so that one failed variant is a
/// failed row and never a failed run. Cancellation is not a row: CancelledError is rethrown.
///   UnsupportedError, and OpenCL errors that mean "too much for this device"
///   (CL_INVALID_WORK_GROUP_SIZE, CL_OUT_OF_RESOURCES, CL_MEM_OBJECT_ALLOCATION_FAILURE,
///   CL_INVALID_BUFFER_SIZE, CL_OUT_OF_HOST_MEMORY)          -> unsupported
///   UsageError (parameters the variant is not made for)    -> not applicable
///   anything else                                           -> failed
struct RowError {
    Status status = Status::Failed;
    std::string detail;
};
RowError rowErrorOf(std::exception_ptr error);

} // namespace histlab
