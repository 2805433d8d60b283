#pragma once
// A panel whose job answers with one value of type Result (a ScanBenchResult, a BlurShown, …):
// the last one is kept, result() gives it, and its presence is what enables the files the
// panel saves. `Base` is the kind of JobPanel it is (JobPanel, ImageJobPanel, BaselinePanel).
#include "panels/jobpanel.h"

#include <any>
#include <optional>

namespace histlab::ui {

template <typename Result, typename Base = JobPanel> class ResultPanel : public Base {
public:
    /// The last run that finished (or was opened); empty before the first, and while a new
    /// one runs.
    const std::optional<Result>& result() const { return m_result; }

protected:
    using Base::Base;

    /// The result arrived and is kept: show it, say so in the status line, return the summary.
    virtual QString present(const Result& result) = 0;

    bool hasResult() const override { return m_result.has_value(); }
    QString showResult(const std::any& value) final {
        m_result = std::any_cast<const Result&>(value);
        return present(*m_result);
    }

    std::optional<Result> m_result;
};

} // namespace histlab::ui
