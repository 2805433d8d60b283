#pragma once
// The run controls: which OpenCL device, which histogram variant and its parameters (the 256-bin
// pipeline of 8-bit images), the bins and method of the exact large-bin histograms (16-bit and
// float images, or any image once a bin count or method is chosen), how many timed repeats, and
// "Run again" (F5) / "Cancel" (Esc). The panel only describes a request; the window submits it
// through its JobBridge. The device list comes from the worker (JobBridge:: listDevices): the panel
// never calls OpenCL. The chosen device is remembered by name in QSettings("HistLab", "HistLab")
// under "device".
#include "bridge/jobbridge.h"

#include <pipelines/histogram256/histogram256.h>
#include <pipelines/largebin/largebin.h>

#include <QString>
#include <QWidget>

#include <map>
#include <vector>

class QAction;
class QComboBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QSpinBox;
class QToolBar;

namespace histlab::ui {

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(QWidget* parent = nullptr);

    /// The core device selector for the next run: "auto", a device index once the list has
    /// arrived and a device is chosen, else what setDeviceSelector() or the settings gave.
    QString deviceSelector() const;
    /// Sets the selector (e.g. from --device); shown in the combo once the list has arrived.
    /// It is not remembered: only a device chosen in the combo is.
    void setDeviceSelector(const QString& selector);
    /// The device remembered in the settings ("auto" when none).
    static QString rememberedDevice();

    /// Fills the device combo from the worker's list (with a tooltip per device).
    void setDevices(const std::vector<DeviceListing>& devices);
    /// The list could not be made (no OpenCL platform, ...): the combo says so.
    void setDeviceListError(const QString& message);
    const std::vector<DeviceListing>& devices() const { return m_devices; }
    /// Why the list could not be made (empty once it has arrived).
    const QString& deviceListError() const { return m_deviceListError; }
    /// Fills the combo from `bridge`'s device listings (setDevices, setDeviceListError).
    void followDeviceList(JobBridge* bridge);

    /// The variant and its parameters as chosen (0 / "choose" leaves them to the core).
    HistogramRequest histogramRequest() const;
    int repeats() const;
    /// The large-bin histograms' bins (0: auto, the image type's exact default) and method.
    int bins() const;
    LargeBinMethod largeBinMethod() const;

    /// The device combo and its label: not in the panel's form, but where the window puts
    /// them (a tool bar that every tab shares); hidden until then.
    QComboBox* deviceCombo() const { return m_device; }
    QLabel* deviceLabel() const { return m_deviceLabel; }
    /// Puts the device's label and combo, with a hint, on `bar`: fixed above the tabs, wide
    /// enough for the device's whole name, and not to be hidden.
    void fillDeviceBar(QToolBar* bar);
    QComboBox* variantCombo() const { return m_variant; }
    QSpinBox* banksSpin() const { return m_banks; }
    QSpinBox* groupsPerCuSpin() const { return m_groupsPerCu; }
    QSpinBox* workGroupSizeSpin() const { return m_workGroupSize; }
    QComboBox* readCombo() const { return m_read; }
    QComboBox* loadCombo() const { return m_load; }
    QComboBox* mergeCombo() const { return m_merge; }
    QSpinBox* repeatsSpin() const { return m_repeats; }
    QSpinBox* binsSpin() const { return m_bins; }
    QComboBox* methodCombo() const { return m_method; }
    /// "Run Again" (F5) and "Cancel" (Esc); the window puts them in its Run menu.
    QAction* runAgainAction() const { return m_runAgain; }
    QAction* cancelAction() const { return m_cancel; }

    /// What the last run used where a field leaves the choice to the core: "choose (16)",
    /// "auto (cpu)", "choose (serial)"; nullptr (a large-bin run, or none yet) says "choose"
    /// again. The values asked for stay what they were.
    void showChosen(const HistogramConfig* config);

    /// Shows below the controls why the core refused the request (a usage error naming the
    /// parameter at fault, e.g. "--read"), with that control's label in bold; an empty message
    /// clears it.
    void showProblem(const QString& parameter, const QString& message);
    /// A usage error's message with the parameter named as this dock's field ("--banks: ..."
    /// -> "Banks: ..."); the message as it is for a parameter the dock has no field for.
    QString inFieldWords(const QString& parameter, const QString& message) const;
    QString problem() const;

    /// Why the field of `parameter` ("--banks") has no say now, or empty: the variant chosen
    /// does not use it, or a bin count or a method runs the large-bin methods instead of the
    /// 256-bin variants. Such a field is greyed out, says why in its tooltip, and is left out
    /// of histogramRequest().
    QString whyUnused(const char* parameter) const;

signals:
    /// The person changed the device, the variant or a parameter: the image should run again.
    void requestChanged();

private:
    /// Each field's CLI parameter and its widget, and its label.
    std::vector<std::pair<const char*, QWidget*>> parameterFields() const;
    std::vector<std::pair<const char*, QLabel*>> parameterLabels() const;
    /// Greys out the fields that have no say (whyUnused), with the reason as their tooltip.
    void updateFieldsInUse();
    void chooseDeviceFromSelector();
    void deviceChosen();
    void showDeviceToolTip();

    QComboBox* m_device;
    QLabel* m_deviceLabel;
    QComboBox* m_variant;
    QSpinBox* m_banks;
    QSpinBox* m_groupsPerCu;
    QSpinBox* m_workGroupSize;
    QComboBox* m_read;
    QComboBox* m_load;
    QComboBox* m_merge;
    QSpinBox* m_repeats;
    QSpinBox* m_bins;
    QComboBox* m_method;
    QPushButton* m_runButton;
    QLabel* m_problem;
    QFormLayout* m_form = nullptr;
    QAction* m_runAgain;
    QAction* m_cancel;
    QString m_selector; // until the list arrives, and for "auto"
    std::vector<DeviceListing> m_devices;
    std::map<QWidget*, QString> m_toolTips; // each field's own, shown while it has a say
    QString m_deviceListError;
    bool m_listed = false; // the worker's list has arrived
};

/// A device's properties and probe results, one per line: the device combo's tooltip.
QString describeDevice(const DeviceListing& device);

} // namespace histlab::ui
