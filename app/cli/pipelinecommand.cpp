// One histlab-cli command for any pipeline of the core's registry: its options become CLI11
// options (help generated from them), then the pipeline's own prepare, plan, run and report do
// the work, so the command decides nothing the window would decide differently. Order of
// failures, each with its exit code: a bad option (2), a bad file or output path (3) before
// any work, then the job (2 for an option the device cannot take, 4 for the device), then the
// files the run writes (3), then the verdict (1 for a mismatch, 4 when nothing could run).
#include "cli/pipelinecommand.h"

#include "cli/support.h"
#include "pipelines/options.h"
#include "report/text.h"
#include "runtime/log.h"

#include <deque>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <new>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace histlab::cli {

namespace {

class PipelineCommand : public Command {
public:
    explicit PipelineCommand(const Pipeline& pipeline)
        : m_p(pipeline) {}

    void setup(CLI::App& sub) override;
    int run(JobRunner& runner) override;

private:
    struct Given {
        const PipelineOption* option = nullptr; // null for the command's own (--device ...)
        CLI::Option* cli = nullptr;
        std::vector<std::string> values;
    };
    CLI::Option* addValue(CLI::App& sub, Given& given, const std::string& name,
                          const std::string& valueName, const std::string& help);
    std::optional<std::string> last(const Given& given) const;
    /// The finished run's report, its files and its verdict as the exit code.
    int finish(const std::any& result,
               const std::vector<std::pair<std::string, std::string>>& outputs);
    /// The pipeline's options in the order they were given; UsageError for a bad one.
    void apply(std::any& params);
    /// UsageError when an output would replace a file the run reads (an input option's file, a
    /// file of a folder it lists, or a new file such a listing would take), when two outputs
    /// share a file (only the last would stay), or when two go to stdout (one stream of both).
    void checkNoOverwrite(const std::vector<std::pair<std::string, std::string>>& outputs,
                          const std::vector<PipelineInput>& inputs) const;

    const Pipeline& m_p;
    CLI::App* m_sub = nullptr;
    std::deque<Given> m_given; // stable addresses: CLI11 writes into each one's values
    Given* m_device = nullptr;
    Given* m_csv = nullptr;
    Given* m_json = nullptr;
    Given* m_page = nullptr; // where the pipeline reads image files
    std::map<std::string, Given*> m_outputs;
    bool m_quiet = false;
};

CLI::Option* PipelineCommand::addValue(CLI::App& sub, Given& given, const std::string& name,
                                       const std::string& valueName, const std::string& help) {
    CLI::Option* o = sub.add_option(name, given.values, help);
    o->type_name(valueName);
    if (name[0] == '-')
        o->expected(1)->take_all()->allow_extra_args(false);
    else
        o->expected(-1); // positionals: every one given reaches the pipeline (which may refuse it)
    given.cli = o;
    return o;
}

std::optional<std::string> PipelineCommand::last(const Given& given) const {
    if (given.values.empty())
        return std::nullopt;
    return given.values.back();
}

void PipelineCommand::setup(CLI::App& sub) {
    m_sub = &sub;
    for (const PipelineOption& option : m_p.options) {
        Given& g = m_given.emplace_back();
        g.option = &option;
        if (option.kind == PipelineOption::Kind::Flag)
            g.cli = sub.add_flag(option.name, option.help);
        else
            addValue(sub, g, option.name, option.valueName, option.help);
        if (option.positional())
            g.cli->group("Arguments");
    }
    m_device = &m_given.emplace_back();
    if (m_p.devices != Pipeline::Devices::None)
        addValue(sub, *m_device, "--device",
                 m_p.devices == Pipeline::Devices::Many ? "SEL[,SEL...]|all" : "SEL",
                 m_p.devices == Pipeline::Devices::Many
                     ? "devices: an index, gpu, cpu, part of a device or platform name, a comma "
                       "list, or all; repeatable (default: the first GPU, else the CPU)"
                     : "an index, gpu, cpu, or part of a device or platform name (default: the "
                       "first GPU, else the CPU)");
    if (!m_p.csvHelp.empty()) {
        m_csv = &m_given.emplace_back();
        addValue(sub, *m_csv, "--csv", "FILE", m_p.csvHelp + "; \"-\" for stdout");
    }
    if (!m_p.jsonHelp.empty()) {
        m_json = &m_given.emplace_back();
        addValue(sub, *m_json, "--json", "FILE", m_p.jsonHelp + "; \"-\" for stdout");
    }
    for (const PipelineOutput& out : m_p.outputs) {
        Given* g = &m_given.emplace_back();
        addValue(sub, *g, out.name, "FILE", out.help);
        m_outputs[out.name] = g;
    }
    const bool readsImages =
        std::any_of(m_p.options.begin(), m_p.options.end(),
                    [](const PipelineOption& o) { return o.kind == PipelineOption::Kind::Image; });
    if (readsImages) {
        const bool stacks =
            std::any_of(m_p.options.begin(), m_p.options.end(),
                        [](const PipelineOption& o) { return static_cast<bool>(o.setPages); });
        m_page = &m_given.emplace_back();
        addValue(sub, *m_page, "--page", stacks ? "N|all|A-B" : "N",
                 stacks ? "the page of a multi-page TIFF to read, from 1 (default 1; the report "
                          "names the page and how many there are); all or A-B (both included): "
                          "the stack's histogram, the sum of its pages', and each page's "
                          "statistics, the pages read one at a time"
                        : "the page of a multi-page TIFF to read, from 1 (default 1; the report "
                          "names the page and how many there are)");
    }
    sub.add_flag("--quiet", m_quiet,
                 m_p.describeItem ? "no report on stdout (files only; the lines of each result "
                                    "as it arrives still go to stderr)"
                                  : "no report on stdout (files only)");
}

void PipelineCommand::apply(std::any& params) {
    std::map<const CLI::Option*, std::size_t> used; // values taken so far, per option
    for (const CLI::Option* o : m_sub->parse_order())
        for (Given& g : m_given) {
            if (g.cli != o || !g.option)
                continue;
            if (g.option->kind == PipelineOption::Kind::Flag)
                g.option->set(params, std::string());
            else
                g.option->set(params, g.values.at(used[o]++));
        }
}

void PipelineCommand::checkNoOverwrite(
    const std::vector<std::pair<std::string, std::string>>& outputs,
    const std::vector<PipelineInput>& inputs) const {
    const std::string* toStdout = nullptr; // the option whose output goes to stdout
    for (std::size_t i = 0; i < outputs.size(); ++i) {
        const auto& [name, path] = outputs[i];
        if (outputTarget(path).kind == OutputTarget::Kind::Stdout) {
            if (toStdout)
                throw UsageError(name, path + " is also the stdout of " + *toStdout +
                                           " (only one output may go to stdout)");
            toStdout = &name;
        }
        for (const Given& g : m_given)
            if (g.option && g.option->readsFile)
                for (const std::string& input : g.values)
                    if (sameFile(path, input))
                        throw UsageError(name, path + " is the input " + g.option->name +
                                                   " (an output never replaces an input)");
        for (std::size_t j = 0; j < i; ++j)
            if (sameFile(path, outputs[j].second))
                throw UsageError(name, path + " is also the file of " + outputs[j].first +
                                           " (only one of them would be kept)");
    }
    if (inputs.empty())
        return;
    namespace fs = std::filesystem;
    // The files the folders' listings read, by device and inode (a link or a hard link to one
    // of them is the file itself), and where each output would land.
    struct Output {
        const std::string* name;
        const std::string* path;
        std::string location;
        struct stat st {};
        bool exists = false;
    };
    std::vector<Output> files;
    for (const auto& [name, path] : outputs) {
        Output o{&name, &path, outputLocation(path)};
        if (o.location.empty()) // stdout, a device, a FIFO: no file is replaced
            continue;
        o.exists = ::stat(o.location.c_str(), &o.st) == 0;
        files.push_back(o);
    }
    for (const PipelineInput& in : inputs) {
        std::error_code ec;
        const std::string folder = fs::weakly_canonical(fs::absolute(in.folder), ec).string();
        for (const std::string& file : in.files) {
            struct stat st {};
            if (::stat((in.folder + "/" + file).c_str(), &st) != 0)
                continue;
            for (const Output& o : files)
                if (o.exists && o.st.st_dev == st.st_dev && o.st.st_ino == st.st_ino)
                    throw UsageError(*o.name, *o.path + " is " + file + " of the input " +
                                                  in.option + " " + in.folder +
                                                  " (an output never replaces an input)");
        }
        // A new file where the listing looks, of a name it takes, would be read by the next
        // run (or by another shard's): refused too. Other files in the folder are never read.
        for (const Output& o : files) {
            const fs::path at(o.location);
            const std::string parent = at.parent_path().string();
            const bool listedThere =
                parent == folder || (in.recursive && pathWithin(folder, parent));
            if (!ec && listedThere && in.listed && in.listed(at.filename().string()))
                throw UsageError(*o.name, *o.path + " is in the input " + in.option + " " +
                                              in.folder +
                                              ", whose listing would read it as an input (an "
                                              "output never goes among the inputs)");
        }
    }
}

int PipelineCommand::run(JobRunner& runner) {
    std::any params = m_p.defaults();
    std::vector<std::pair<std::string, std::string>> outputs; // option, path
    auto addOutput = [&](const Given* g, const std::string& name) {
        if (g && last(*g))
            outputs.emplace_back(name, *last(*g));
    };
    addOutput(m_csv, "--csv");
    addOutput(m_json, "--json");
    for (const auto& [name, g] : m_outputs)
        addOutput(g, name);
    try {
        apply(params);
        for (const std::string& v : m_device->values)
            if (splitList(v).empty()) // not the default device: a selector left out by mistake
                throw UsageError("--device", "the selector is empty (an index, gpu, cpu, part of "
                                             "a device or platform name, or all)");
        if (m_p.prepare)
            m_p.prepare(params);
        // Output paths before any work, so that a bad one costs nothing; then the inputs.
        for (const auto& [name, path] : outputs)
            checkOutput(name.c_str(), path);
        checkNoOverwrite(outputs, m_p.inputs ? m_p.inputs(params) : std::vector<PipelineInput>{});
        const std::string pageText = m_page && last(*m_page) ? *last(*m_page) : "1";
        if (isPageRange(pageText)) {
            // A stack: its pages are read by the run, one at a time, not loaded here.
            const PageRange pages = parsePageRange(pageText);
            for (const Given& g : m_given)
                if (g.option && g.option->kind == PipelineOption::Kind::Image &&
                    !g.values.empty()) {
                    if (!g.option->setPages)
                        throw UsageError("--page", "'" + pageText + "': " + m_p.name +
                                                       " reads one page (--page N); histogram, "
                                                       "largebin and joint count a stack");
                    g.option->setPages(params, pages);
                }
        } else {
            const int page = parsePage(pageText);
            for (const Given& g : m_given)
                if (g.option && g.option->kind == PipelineOption::Kind::Image)
                    for (const std::string& path : g.values)
                        g.option->setImage(params,
                                           loadImageFile(path, g.option->firstPageOnly ? 1 : page));
        }
    } catch (const UsageError& e) {
        return fail(e.what(), Usage);
    } catch (const InputError& e) {
        return fail(e.what(), Input);
    } catch (const std::bad_alloc&) {
        return fail(notEnoughMemoryMessage("reading the inputs"), Input);
    } catch (const std::length_error&) {
        return fail(notEnoughMemoryMessage("reading the inputs"), Input);
    }

    std::vector<std::string> selectors;
    for (const std::string& v : m_device->values)
        for (const std::string& s : splitList(v))
            selectors.push_back(s);
    if (m_p.devices == Pipeline::Devices::One && selectors.size() > 1)
        selectors = {selectors.back()};
    const bool showProgress = ::isatty(STDERR_FILENO) && !m_quiet;
    std::size_t items = 0;
    auto outcome = runner.runAndWait(
        [&](JobContext& ctx) -> std::any {
            // Host work (or parameters that need no device, dashboard --list): none is
            // opened, so a machine without OpenCL still answers.
            if (m_p.devices == Pipeline::Devices::None || (m_p.hostOnly && m_p.hostOnly(params)))
                return m_p.run(ctx, {}, m_p.plan({}, params), {});
            const std::vector<DeviceInfo>& all = ctx.devices().infos();
            const std::vector<int> indices = selectDevices(selectors, all);
            std::vector<DeviceInfo> chosen;
            for (int i : indices) {
                chosen.push_back(all.at(std::size_t(i)));
                logInfo("device", "selected " + deviceLine(chosen.back()));
            }
            const std::any plan = m_p.plan(chosen, params);
            return m_p.run(ctx, indices, plan, [&](const std::any& item) {
                if (m_p.describeItem)
                    std::cerr << (showProgress ? "\r\033[K[" : "[") << ++items << "] "
                              << printableText(m_p.describeItem(item)) << '\n';
            });
        },
        [showProgress](const Progress& p) {
            if (showProgress)
                std::cerr << "\r" << std::setw(3) << int(p.fraction * 100) << "% " << std::left
                          << std::setw(30) << p.stage << std::right << std::flush;
        });
    if (showProgress)
        std::cerr << "\r" << std::string(36, ' ') << "\r" << std::flush;
    if (auto* e = std::get_if<JobError>(&outcome))
        return report(*e);
    try {
        return finish(std::get<std::any>(outcome), outputs);
    } catch (const std::bad_alloc&) {
        return fail(notEnoughMemoryMessage("the report and its files"), Input);
    } catch (const std::length_error&) {
        return fail(notEnoughMemoryMessage("the report and its files"), Input);
    }
}

int PipelineCommand::finish(const std::any& result,
                            const std::vector<std::pair<std::string, std::string>>& outputs) {
    const Report r = m_p.report(result);

    // Written on a mismatch too: the exit code says a result differs, the files show what the
    // device produced. Images first, and only when every image asked for exists: an image is
    // the likeliest output to fail (its encoder, its size), and a run that fails there leaves
    // none of its text files beside the image it could not write.
    for (const auto& [name, path] : outputs)
        if (const auto image = r.images.find(name); image != r.images.end() && !image->second.image)
            return fail(name + ": " + image->second.whyNone + ", nothing written", DeviceFailure);
    bool toStdout = false;
    for (const auto& [name, path] : outputs) {
        toStdout = toStdout || outputTarget(path).kind == OutputTarget::Kind::Stdout;
        if (const auto image = r.images.find(name); image != r.images.end())
            if (!writeImageOutput(*image->second.image, path))
                return Input;
    }
    try {
        for (const auto& [name, path] : outputs) {
            if (name == "--csv")
                writeFileAtomically(path, r.csv());
            else if (name == "--json")
                writeFileAtomically(path, r.json());
            else if (const auto text = r.files.find(name); text != r.files.end())
                writeFileAtomically(path, text->second(path));
            else if (const auto s = r.streamedFiles.find(name); s != r.streamedFiles.end()) {
                const std::string& target = path; // clang 14 cannot capture a structured binding
                writeFileStreamed(target, [&](std::ostream& out) { s->second(out, target); });
            }
        }
    } catch (const UsageError& e) { // an output of a size it refuses
        std::cerr << "histlab-cli: " << e.what() << '\n';
        return Usage;
    } catch (const InputError& e) {
        return fail(e.what(), Input);
    }
    if (!m_quiet && !toStdout)
        std::cout << r.text << std::flush;
    switch (r.verdict.kind) {
    case Verdict::Kind::Ok:
        return Ok;
    case Verdict::Kind::Mismatch:
        return fail(r.verdict.message, Mismatch);
    case Verdict::Kind::NothingRan:
        return fail(r.verdict.message, DeviceFailure);
    case Verdict::Kind::NotWritten:
    case Verdict::Kind::NoInput:
        return fail(r.verdict.message, Input);
    }
    return Ok;
}

} // namespace

std::unique_ptr<Command> makePipelineCommand(const Pipeline& pipeline) {
    return std::make_unique<PipelineCommand>(pipeline);
}

} // namespace histlab::cli
