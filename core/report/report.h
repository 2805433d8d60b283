#pragma once
// Everything about results as files, in one include: statuses, tables (CSV), JSON
// (nlohmann-json), atomic file writes, byte sizes, text figures.
#include "report/files.h"
#include "report/json.h"
#include "report/status.h"
#include "report/table.h"
#include "report/text.h"
#include "runtime/bytesize.h"
