#include "panels/runpanel.h"
#include "common/settings.h"

#include "panels/jobpanel.h"

#include "bridge/analysis.h"
#include "bridge/logging.h"

#include <runtime/device.h>
#include <runtime/errors.h>

#include <QAction>
#include <QComboBox>
#include <QFont>
#include <QFormLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <exception>

#include <string>
#include <string_view>
#include <utility>

namespace histlab::ui {

namespace {

const QString kAuto = QStringLiteral("auto");

/// 0 ("choose") and the powers of two: the arrows double and halve.
class PowerOfTwoSpinBox : public QSpinBox {
public:
    explicit PowerOfTwoSpinBox(int maximum) {
        setRange(0, maximum);
        setSpecialValueText(tr("choose"));
        setKeyboardTracking(false);
    }
    void stepBy(int steps) override {
        int v = value();
        for (; steps > 0; --steps)
            v = v == 0 ? 1 : std::min(maximum(), v * 2);
        for (; steps < 0; ++steps)
            v = v <= 1 ? 0 : v / 2;
        setValue(v);
    }
};

QSpinBox* chooseSpin(int maximum) {
    auto* spin = new QSpinBox;
    spin->setRange(0, maximum);
    spin->setSpecialValueText(QObject::tr("choose"));
    spin->setKeyboardTracking(false); // run once the number is typed, not per digit
    return spin;
}

/// "choose" (no value) followed by the given names.
QComboBox* chooseCombo(const QStringList& names) {
    auto* combo = new QComboBox;
    combo->addItem(QObject::tr("choose"), QString());
    for (const QString& name : names)
        combo->addItem(name, name);
    return combo;
}

QString bytesText(std::uint64_t bytes) {
    // Powers of 1,024, so named as such: KiB, MiB, GiB.
    return QLocale::c().formattedDataSize(qint64(bytes), 1, QLocale::DataSizeIecFormat);
}

QString yesNo(bool yes, const std::string& detail) {
    QString text = yes ? QStringLiteral("yes") : QStringLiteral("no");
    if (!detail.empty()) {
        text += QStringLiteral(" (");
        text += QString::fromStdString(detail);
        text += QLatin1Char(')');
    }
    return text;
}

} // namespace

QString describeDevice(const DeviceListing& device) {
    const DeviceInfo& d = device.info;
    QStringList lines;
    lines << QStringLiteral("%1: %2").arg(d.index).arg(QString::fromStdString(d.name));
    lines << QStringLiteral("type: %1").arg(QString::fromLatin1(deviceTypeName(d.type)));
    lines << QStringLiteral("platform: %1 (%2)")
                 .arg(QString::fromStdString(d.platformName),
                      QString::fromStdString(d.platformVersion));
    lines << QStringLiteral("vendor: %1").arg(QString::fromStdString(d.vendor));
    lines << QStringLiteral("driver: %1, %2")
                 .arg(QString::fromStdString(d.driverVersion),
                      QString::fromStdString(d.deviceVersion));
    lines << QStringLiteral("compute units: %1 at %2 MHz").arg(d.computeUnits).arg(d.maxClockMHz);
    lines << QStringLiteral("local memory: %1").arg(bytesText(d.localMemBytes));
    lines << QStringLiteral("global memory: %1").arg(bytesText(d.globalMemBytes));
    lines << QStringLiteral("max buffer: %1").arg(bytesText(d.maxAllocBytes));
    lines << QStringLiteral("max work-group: %1").arg(d.maxWorkGroupSize);
    if (device.capabilities) {
        lines << QStringLiteral("non-uniform work-groups: %1")
                     .arg(yesNo(device.capabilities->nonUniformWorkGroups,
                                device.capabilities->nonUniformDetail));
        lines << QStringLiteral("work_group_scan: %1")
                     .arg(yesNo(device.capabilities->workGroupScan,
                                device.capabilities->workGroupScanDetail));
        if (device.probes == ProbeState::Remembered)
            lines << QStringLiteral("(probed on an earlier run, same driver)");
    } else if (device.probes == ProbeState::Pending) {
        lines << QStringLiteral("probes: not run yet");
    } else {
        lines << QStringLiteral("probes failed: %1").arg(QString::fromStdString(device.probeError));
    }
    return lines.join(QLatin1Char('\n'));
}

RunPanel::RunPanel(QWidget* parent)
    : QWidget(parent)
    , m_device(new QComboBox)
    , m_deviceLabel(new QLabel(tr("&Device")))
    , m_variant(new QComboBox)
    , m_banks(new PowerOfTwoSpinBox(256))
    , m_groupsPerCu(chooseSpin(1024))
    , m_workGroupSize(new PowerOfTwoSpinBox(4096))
    , m_read(chooseCombo({QStringLiteral("coalesced"), QStringLiteral("serial")}))
    , m_load(chooseCombo({QStringLiteral("scalar"), QStringLiteral("uint4")}))
    , m_merge(chooseCombo({QStringLiteral("kernel"), QStringLiteral("atomic")}))
    , m_repeats(new QSpinBox)
    , m_bins(new PowerOfTwoSpinBox(kMaxBins))
    , m_method(new QComboBox)
    , m_runButton(new QPushButton(tr("Run Again")))
    , m_problem(new QLabel)
    , m_runAgain(new QAction(tr("&Run Again"), this))
    , m_cancel(new QAction(tr("&Cancel"), this))
    , m_selector(rememberedDevice()) {
    // The device serves every tab: the window shows the combo and its label in a tool bar of
    // their own, wide enough for the device's whole name. Until then they are hidden children.
    m_device->setParent(this);
    m_device->setVisible(false);
    m_device->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_device->addItem(tr("listing devices…"));
    m_device->setEnabled(false);
    m_device->setToolTip(tr("The OpenCL device that every tab runs on"));
    m_deviceLabel->setParent(this);
    m_deviceLabel->setVisible(false);
    m_deviceLabel->setBuddy(m_device);

    // Wide enough for what the core's choice adds ("choose (coalesced)"), so that the dock
    // neither cuts it nor changes width when the choice is shown.
    for (QComboBox* combo : {m_variant, m_read, m_load, m_merge, m_method}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(17);
    }
    for (const char* name : {"auto", "naive", "local", "banked", "cpu"})
        m_variant->addItem(QString::fromLatin1(name), QString::fromLatin1(name));
    m_variant->setToolTip(tr("auto: the cpu variant on CPU devices, else an autotuned banked "
                             "one; naive: global atomics; local: one local histogram per "
                             "work-group; banked: several local copies; cpu: private copies"));
    m_banks->setToolTip(tr("Sub-histogram copies (powers of two; choose: for the device)"));
    m_groupsPerCu->setToolTip(tr("Work-groups per compute unit (choose: for the device)"));
    m_workGroupSize->setToolTip(tr("Work-items per group (choose: for the device)"));
    m_read->setToolTip(tr("coalesced: neighbouring work-items read neighbouring words; "
                          "serial: each work-item reads one contiguous run"));
    m_load->setToolTip(tr("Bytes per load: scalar (4) or uint4 (16)"));
    m_merge->setToolTip(tr("How the work-groups' histograms combine: a merge kernel or global "
                           "atomics"));
    m_repeats->setRange(1, 1000);
    m_repeats->setValue(AnalysisRequest().repeats);
    m_repeats->setKeyboardTracking(false);
    m_repeats->setToolTip(tr("Timed runs after the warm-up (the median is shown)"));
    m_bins->setSpecialValueText(tr("auto (exact)"));
    m_bins->setToolTip(
        tr("Bins of the exact histograms, 1 to 65,536 (type any; the arrows double and halve). "
           "auto: every value its own bin for 8- and 16-bit images (8-bit ones run the tuned "
           "256-bin pipeline above), 256 bins over a float image's range. A count runs the "
           "large-bin methods for any image: NumPy's uniform bins, the last one closed."));
    m_method->addItem(kAuto, kAuto);
    for (LargeBinMethod m : allLargeBinMethods())
        m_method->addItem(QString::fromLatin1(largeBinMethodName(m)),
                          QString::fromLatin1(largeBinMethodName(m)));
    m_method->setToolTip(
        tr("The large-bin method: auto (the core's pick for the device and bins); global "
           "atomics; local copies; multipass slices of local memory; local16 (16-bit local "
           "counters, hot ones spilled after each round); runs16 (local16 adding each run of "
           "equal bins at once: skewed data); private (a "
           "sub-histogram per work-item); tagged (software atomics, "
           "mismatches reported)"));

    m_runAgain->setShortcut(QKeySequence(Qt::Key_F5));
    m_runAgain->setStatusTip(tr("Analyse the current image again with these settings"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancel->setStatusTip(tr("Stop the running analysis; what is shown stays"));
    m_cancel->setEnabled(false); // the window enables it while a job runs
    m_runButton->setToolTip(tr("Analyse the current image again (F5)"));
    connect(m_runButton, &QPushButton::clicked, m_runAgain, &QAction::trigger);

    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problem->setVisible(false);

    auto* form = new QFormLayout;
    m_form = form;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("&Variant"), m_variant);
    form->addRow(tr("&Banks"), m_banks);
    form->addRow(tr("&Groups/CU"), m_groupsPerCu);
    form->addRow(tr("&Work-group"), m_workGroupSize);
    form->addRow(tr("R&ead"), m_read);
    form->addRow(tr("&Load"), m_load);
    form->addRow(tr("&Merge"), m_merge);
    form->addRow(tr("Bi&ns"), m_bins);
    form->addRow(tr("Me&thod"), m_method);
    form->addRow(tr("Re&peats"), m_repeats);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_runButton);
    layout->addWidget(m_problem);
    layout->addStretch(1);

    connect(m_device, &QComboBox::currentIndexChanged, this, &RunPanel::deviceChosen);
    for (QComboBox* combo : {m_variant, m_read, m_load, m_merge, m_method})
        connect(combo, &QComboBox::currentIndexChanged, this, &RunPanel::requestChanged);
    for (QSpinBox* spin : {m_banks, m_groupsPerCu, m_workGroupSize, m_repeats, m_bins})
        connect(spin, &QSpinBox::valueChanged, this, &RunPanel::requestChanged);
    // The fields with a say follow the variant, the bins and the method.
    for (QComboBox* combo : {m_variant, m_method})
        connect(combo, &QComboBox::currentIndexChanged, this, &RunPanel::updateFieldsInUse);
    connect(m_bins, &QSpinBox::valueChanged, this, &RunPanel::updateFieldsInUse);
    updateFieldsInUse();
}

QString RunPanel::rememberedDevice() {
    return histlabSettings().value(QStringLiteral("device"), kAuto).toString();
}

QString RunPanel::deviceSelector() const {
    if (m_listed && m_device->isEnabled() && m_device->currentIndex() >= 0)
        return m_device->currentData().toString();
    return m_selector;
}

void RunPanel::setDeviceSelector(const QString& selector) {
    m_selector = selector.isEmpty() ? kAuto : selector;
    chooseDeviceFromSelector();
}

void RunPanel::setDevices(const std::vector<DeviceListing>& devices) {
    m_devices = devices;
    m_listed = true;
    const QSignalBlocker blocker(m_device);
    m_device->clear();
    std::vector<DeviceInfo> infos;
    for (const DeviceListing& entry : devices)
        infos.push_back(entry.info);
    QString autoText = tr("auto");
    try {
        const int chosen = selectDevice("auto", infos);
        autoText = tr("auto (%1)").arg(QString::fromStdString(infos[std::size_t(chosen)].name));
    } catch (const std::exception&) {
        // no device at all: the list below is empty and runs report why
    }
    m_device->addItem(autoText, kAuto);
    m_device->setItemData(0, tr("The first GPU, else the first CPU device"), Qt::ToolTipRole);
    for (const DeviceListing& entry : devices) {
        m_device->addItem(QStringLiteral("%1: %2")
                              .arg(entry.info.index)
                              .arg(QString::fromStdString(entry.info.name)),
                          QString::number(entry.info.index));
        m_device->setItemData(m_device->count() - 1, describeDevice(entry), Qt::ToolTipRole);
    }
    chooseDeviceFromSelector();
    qCInfo(lcUi) << devices.size() << "OpenCL devices listed";
}

void RunPanel::setDeviceListError(const QString& message) {
    const QSignalBlocker blocker(m_device);
    m_device->clear();
    m_device->addItem(tr("no OpenCL device"));
    m_device->setToolTip(message);
    m_device->setEnabled(false);
}

// The combo shows the device the selector names: an exact name first (what the settings
// hold), else the core's own rules (an index, "gpu"/"cpu", part of a name). A selector that
// names nothing gets an entry of its own, so the run reports the core's usage error and the
// person can pick another device.
void RunPanel::chooseDeviceFromSelector() {
    if (!m_listed)
        return; // the list has not arrived yet
    const QSignalBlocker blocker(m_device);
    int item = -1;
    if (m_selector.compare(kAuto, Qt::CaseInsensitive) == 0) {
        item = 0;
    } else {
        for (const DeviceListing& entry : m_devices)
            if (QString::fromStdString(entry.info.name) == m_selector)
                item = m_device->findData(QString::number(entry.info.index));
        if (item < 0) {
            std::vector<DeviceInfo> infos;
            for (const DeviceListing& entry : m_devices)
                infos.push_back(entry.info);
            try {
                item = m_device->findData(
                    QString::number(selectDevice(m_selector.toStdString(), infos)));
            } catch (const std::exception&) {
                qCWarning(lcUi).noquote() << "no OpenCL device matches" << m_selector;
            }
        }
    }
    if (item < 0) { // kept, so that the run reports the core's usage error
        m_device->addItem(tr("%1 (no such device)").arg(m_selector), m_selector);
        item = m_device->count() - 1;
    }
    m_device->setEnabled(true);
    m_device->setCurrentIndex(item);
    showDeviceToolTip();
}

// The closed combo explains the chosen device as its list does.
void RunPanel::showDeviceToolTip() {
    m_device->setToolTip(m_device->currentData(Qt::ToolTipRole).toString());
    // The work-group size goes no higher than the chosen device's largest (a larger one is
    // refused at launch anyway); "auto" resolves to its device here as it will in the core.
    std::vector<DeviceInfo> infos;
    for (const DeviceListing& entry : m_devices)
        infos.push_back(entry.info);
    int limit = 4096;
    try {
        const QString data = m_device->currentData().toString();
        const int index = selectDevice(data.toStdString(), infos);
        const std::size_t largest = infos[std::size_t(index)].maxWorkGroupSize;
        limit = 1;
        while (std::size_t(limit) * 2 <= largest && limit < (1 << 20))
            limit *= 2;
    } catch (const std::exception&) {
        // no device, or a selector that names none: the run reports it
    }
    const QSignalBlocker blocker(m_workGroupSize); // clamping is not a request of its own
    m_workGroupSize->setMaximum(limit);
    m_workGroupSize->setToolTip(
        tr("Work-items per work-group: a power of two, at most %1 on this device; choose: "
           "the configuration decides")
            .arg(limit));
}

void RunPanel::deviceChosen() {
    const QString data = m_device->currentData().toString();
    QString name = data; // "auto", or a selector that named no device
    for (const DeviceListing& entry : m_devices)
        if (QString::number(entry.info.index) == data)
            name = QString::fromStdString(entry.info.name);
    m_selector = name;
    showDeviceToolTip();
    histlabSettings().setValue(QStringLiteral("device"), name);
    qCInfo(lcUi).noquote() << "device chosen:" << name;
    emit requestChanged();
}

int RunPanel::bins() const {
    return m_bins->value();
}

LargeBinMethod RunPanel::largeBinMethod() const {
    return parseLargeBinMethod(m_method->currentData().toString().toStdString());
}

void RunPanel::showChosen(const HistogramConfig* config) {
    const auto chosen = [config](const QString& what) {
        return config ? tr("choose (%1)").arg(what) : tr("choose");
    };
    m_variant->setItemText(
        0, config ? tr("auto (%1)").arg(QString::fromLatin1(variantName(config->variant)))
                  : QStringLiteral("auto"));
    m_banks->setSpecialValueText(chosen(config ? QString::number(config->banks) : QString()));
    m_groupsPerCu->setSpecialValueText(
        chosen(config ? QString::number(config->groupsPerCu) : QString()));
    m_workGroupSize->setSpecialValueText(
        chosen(config ? QString::number(config->workGroupSize) : QString()));
    m_read->setItemText(
        0, chosen(config ? QString::fromLatin1(readPatternName(config->read)) : QString()));
    m_load->setItemText(
        0, chosen(config ? QString::fromLatin1(loadWidthName(config->load)) : QString()));
    m_merge->setItemText(
        0, chosen(config ? QString::fromLatin1(mergeModeName(config->merge)) : QString()));
    const QString by =
        config ? tr("Chosen by: %1").arg(QString::fromStdString(config->chosenBy)) : QString();
    for (QWidget* field : std::initializer_list<QWidget*>{m_variant, m_banks, m_groupsPerCu,
                                                          m_workGroupSize, m_read, m_load, m_merge})
        field->setStatusTip(by);
}

HistogramRequest RunPanel::histogramRequest() const {
    // A field without a say asks nothing (its value stays for when it has one again).
    const auto used = [this](const char* parameter) { return whyUnused(parameter).isEmpty(); };
    HistogramRequest request;
    request.variant = parseVariant(m_variant->currentData().toString().toStdString());
    request.banks = used("--banks") ? m_banks->value() : 0;
    request.groupsPerCu = m_groupsPerCu->value();
    request.workGroupSize = m_workGroupSize->value();
    const QString read = m_read->currentData().toString();
    if (!read.isEmpty() && used("--read"))
        request.read = parseReadPattern(read.toStdString());
    const QString load = m_load->currentData().toString();
    if (!load.isEmpty())
        request.load = parseLoadWidth(load.toStdString());
    const QString merge = m_merge->currentData().toString();
    if (!merge.isEmpty())
        request.merge = parseMergeMode(merge.toStdString());
    return request;
}

int RunPanel::repeats() const {
    return m_repeats->value();
}

std::vector<std::pair<const char*, QWidget*>> RunPanel::parameterFields() const {
    return {{"--device", m_device},    {"--variant", m_variant},
            {"--banks", m_banks},      {"--groups-per-cu", m_groupsPerCu},
            {"--wg", m_workGroupSize}, {"--read", m_read},
            {"--load", m_load},        {"--merge", m_merge},
            {"--bins", m_bins},        {"--method", m_method},
            {"--repeat", m_repeats}};
}

namespace {

/// The fields of the 256-bin pipeline: the variant and its parameters.
bool isVariantField(std::string_view parameter) {
    for (std::string_view name :
         {"--variant", "--banks", "--groups-per-cu", "--wg", "--read", "--load", "--merge"})
        if (parameter == name)
            return true;
    return false;
}

} // namespace

QString RunPanel::whyUnused(const char* parameter) const {
    if (!isVariantField(parameter))
        return {};
    AnalysisRequest asked;
    asked.bins = m_bins->value();
    asked.method = largeBinMethod();
    if (asked.asksLargeBins())
        return tr("a bin count or a method runs the large-bin methods, which the 256-bin "
                  "variant and its parameters do not tune");
    const HistogramVariant variant =
        parseVariant(m_variant->currentData().toString().toStdString());
    return QString::fromStdString(histogramParameterUnused(variant, parameter));
}

void RunPanel::updateFieldsInUse() {
    for (const auto& [name, widget] : parameterFields()) {
        if (!isVariantField(name))
            continue;
        if (!m_toolTips.count(widget))
            m_toolTips[widget] = widget->toolTip();
        const QString why = whyUnused(name);
        widget->setEnabled(why.isEmpty());
        widget->setToolTip(why.isEmpty() ? m_toolTips[widget] : tr("Not used: %1").arg(why));
    }
}

std::vector<std::pair<const char*, QLabel*>> RunPanel::parameterLabels() const {
    std::vector<std::pair<const char*, QLabel*>> labels;
    for (const auto& [name, widget] : parameterFields())
        if (auto* label = widget == m_device ? m_deviceLabel
                                             : qobject_cast<QLabel*>(m_form->labelForField(widget)))
            labels.emplace_back(name, label);
    return labels;
}

QString RunPanel::inFieldWords(const QString& parameter, const QString& message) const {
    for (const auto& [name, label] : parameterLabels())
        if (parameter == QLatin1String(name))
            return usageInFieldWords(message, parameter, label->text());
    return message;
}

void RunPanel::showProblem(const QString& parameter, const QString& message) {
    for (const auto& [name, label] : parameterLabels()) {
        QFont font = label->font();
        font.setBold(!message.isEmpty() && parameter == QLatin1String(name));
        label->setFont(font);
    }
    m_problem->setText(inFieldWords(parameter, message));
    m_problem->setVisible(!message.isEmpty());
}

QString RunPanel::problem() const {
    return m_problem->text();
}

void RunPanel::fillDeviceBar(QToolBar* bar) {
    bar->setObjectName(QStringLiteral("deviceToolBar"));
    bar->setMovable(false);
    bar->setFloatable(false);
    bar->toggleViewAction()->setEnabled(false);
    bar->toggleViewAction()->setVisible(false);
    m_deviceLabel->setContentsMargins(6, 0, 6, 0);
    bar->addWidget(m_deviceLabel)->setVisible(true);
    bar->addWidget(m_device)->setVisible(true);
    auto* note = new QLabel(tr("  used by every tab; the Devices tab says what each can do"));
    note->setEnabled(false); // a hint, in the disabled text colour
    bar->addWidget(note);
}

void RunPanel::followDeviceList(JobBridge* bridge) {
    connect(bridge, &JobBridge::devicesListed, this,
            [this](quint64, const std::vector<DeviceListing>& devices) {
                setDevices(devices);
                m_deviceListError.clear();
            });
    connect(bridge, &JobBridge::devicesFailed, this, [this](quint64, const JobError& error) {
        m_deviceListError = QString::fromStdString(error.message);
        setDeviceListError(m_deviceListError);
        qCWarning(lcUi).noquote() << "no device list:" << m_deviceListError;
    });
}

} // namespace histlab::ui
