// Nothing writes the process environment from a thread other than the GUI thread.
//
// glibc's setenv() may reallocate and free the environment array while another thread is inside
// getenv(); Qt calls getenv() on the GUI thread all the time (layouts, styles). PoCL's first
// device query calls setenv("HWLOC_PLUGINS_PATH"), and when that first query ran on the worker
// the window's tests crashed in CI inside getenv(). This test wraps setenv/unsetenv/putenv,
// drives a JobBridge through a device listing and an analysis, and fails on any environment
// write made off the GUI thread.
#include "bridge/jobbridge.h"
#include "panels/imagepanel.h"
#include "uitestsupport.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <dlfcn.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

std::thread::id g_mainThread = std::this_thread::get_id();
std::mutex g_mutex;
std::vector<std::string> g_offMainWrites; // "setenv NAME", ...

void recordWrite(const char* function, const char* name) {
    if (std::this_thread::get_id() == g_mainThread)
        return;
    std::lock_guard lock(g_mutex);
    g_offMainWrites.push_back(std::string(function) + " " + (name ? name : "(null)"));
}

template <typename Fn> Fn next(const char* symbol) {
    return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, symbol));
}

std::vector<std::string> offMainWrites() {
    std::lock_guard lock(g_mutex);
    return g_offMainWrites;
}

} // namespace

using namespace histlab;

// These definitions take the place of glibc's for every library of the process (the target is
// linked with ENABLE_EXPORTS), PoCL's included; each forwards to the real function.
extern "C" int setenv(const char* name, const char* value, int overwrite) noexcept {
    recordWrite("setenv", name);
    static const auto real = next<int (*)(const char*, const char*, int)>("setenv");
    return real(name, value, overwrite);
}

extern "C" int unsetenv(const char* name) noexcept {
    recordWrite("unsetenv", name);
    static const auto real = next<int (*)(const char*)>("unsetenv");
    return real(name);
}

extern "C" int putenv(char* assignment) noexcept {
    recordWrite("putenv", assignment);
    static const auto real = next<int (*)(char*)>("putenv");
    return real(assignment);
}

class TestEnvironment : public QObject {
    Q_OBJECT
private slots:
    void wrapperSeesWorkerWrites();
    void noEnvironmentWriteOffTheGuiThread();
};

// The wrapper itself works: a write from another thread is seen (else the next test proves
// nothing).
void TestEnvironment::wrapperSeesWorkerWrites() {
    std::thread([] { setenv("HISTLAB_TEST_ENV_PROBE", "1", 1); }).join();
    const auto writes = offMainWrites();
    QCOMPARE(writes.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(writes.front()),
             QStringLiteral("setenv HISTLAB_TEST_ENV_PROBE"));
    std::lock_guard lock(g_mutex);
    g_offMainWrites.clear();
}

void TestEnvironment::noEnvironmentWriteOffTheGuiThread() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("small.png"));
    QVERIFY(uitest::makeImage(64, 48, QImage::Format_RGB888).save(path));

    ui::JobBridge bridge;
    QSignalSpy listed(&bridge, &ui::JobBridge::devicesListed);
    bridge.listDevices();
    QVERIFY(listed.wait(uitest::kTimeoutMs));

    ui::AnalysisRequest request;
    request.source = path;
    request.device = QStringLiteral("cpu");
    request.repeats = 1;
    ui::JobWatcher* job = ui::submitAnalysis(bridge, request);
    QSignalSpy finished(job, &ui::JobWatcher::finished);
    QSignalSpy failed(job, &ui::JobWatcher::failed);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 0, uitest::kTimeoutMs);
    QCOMPARE(failed.count(), 0);

    const auto writes = offMainWrites();
    for (const auto& w : writes)
        qWarning("environment written off the GUI thread: %s", w.c_str());
    QVERIFY(writes.empty());
}

QTEST_MAIN(TestEnvironment)
#include "tst_environment.moc"
