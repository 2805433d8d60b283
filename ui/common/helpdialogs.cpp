#include "common/helpdialogs.h"

#include "views/tablecopy.h"

#include <io/versions.h>
#include <runtime/version.h>

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStringList>
#include <QTableWidget>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace histlab::ui {

namespace {

/// A dialog holding `content` over a Close button.
QDialog* closableDialog(QWidget* parent, const QString& title, QWidget* content) {
    auto* dialog = new QDialog(parent);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(title);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(content, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    return dialog;
}

} // namespace

QString histlabVersion() {
    return QString::fromStdString(versionLine());
}

QString aboutText(const std::vector<DeviceListing>& devices, const QString& listError) {
    QString html = QObject::tr("<h3>HistLab %1</h3>"
                               "<p>A laboratory for memory-bound GPU image kernels: OpenCL "
                               "histograms on every device, verified bit-exactly against a CPU "
                               "reference and judged against the device's own bandwidth.</p>")
                       .arg(histlabVersion());
    html += QObject::tr("<p><b>Qt</b> %1 (built with %2)<br><b>Image files</b> %3</p>")
                .arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR),
                     QString::fromStdString(imageLibraryVersions()).toHtmlEscaped());
    html += QObject::tr("<p><b>OpenCL devices</b>");
    if (!listError.isEmpty())
        html += QStringLiteral("<br>") + listError.toHtmlEscaped();
    else if (devices.empty())
        html += QObject::tr("<br>not listed yet");
    for (const DeviceListing& entry : devices) {
        const DeviceInfo& d = entry.info;
        html += QStringLiteral("<br>%1: %2 — %3 (%4), %5, driver %6")
                    .arg(d.index)
                    .arg(QString::fromStdString(d.name).toHtmlEscaped(),
                         QString::fromStdString(d.platformName).toHtmlEscaped(),
                         QString::fromStdString(d.platformVersion).toHtmlEscaped(),
                         QString::fromStdString(d.deviceVersion).toHtmlEscaped(),
                         QString::fromStdString(d.driverVersion).toHtmlEscaped());
    }
    return html + QStringLiteral("</p>");
}

QDialog* shortcutsDialog(QWidget* window) {
    std::vector<std::pair<QString, QString>> rows;
    for (const QAction* action : window->findChildren<QAction*>()) {
        if (action->shortcuts().isEmpty() || action->text().isEmpty())
            continue;
        QString what = action->text().remove(QLatin1Char('&'));
        if (!action->statusTip().isEmpty())
            what += QStringLiteral(" — ") + action->statusTip();
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts())
            keys << key.toString(QKeySequence::NativeText);
        rows.emplace_back(what, keys.join(QStringLiteral(", ")));
    }
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end()); // a tab's copies
    auto* table = new QTableWidget(int(rows.size()), 2);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({QObject::tr("Action"), QObject::tr("Keys")});
    table->verticalHeader()->setVisible(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setWordWrap(false);
    for (int r = 0; r < int(rows.size()); ++r) {
        table->setItem(r, 0, new QTableWidgetItem(rows[std::size_t(r)].first));
        table->setItem(r, 1, new QTableWidgetItem(rows[std::size_t(r)].second));
    }
    table->resizeColumnToContents(1);
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    enableTableCopy(table);
    QDialog* dialog = closableDialog(window, QObject::tr("Keyboard Shortcuts"), table);
    dialog->resize(720, 520);
    return dialog;
}

QString guideMarkdown(const QString& readme) {
    // The README's pictures are files of the source tree, not built into the program: each
    // becomes a line naming it, where a broken-image icon would otherwise stand.
    static const QRegularExpression picture(QStringLiteral(R"(!\[([^\]]*)\]\(([^)\s]+)\))"));
    QString text = readme;
    text.replace(picture, QObject::tr("*(picture in the source tree: \\1, `\\2`)*"));
    return text;
}

void addHelpMenu(QMainWindow* window, const std::function<void()>& about) {
    QMenu* help = window->menuBar()->addMenu(QObject::tr("&Help"));
    QAction* guide = help->addAction(QObject::tr("HistLab &Guide"), window,
                                     [window] { guideDialog(window)->show(); });
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setStatusTip(
        QObject::tr("This build's README: what HistLab computes, how it measures, the "
                    "command line, the figures"));
    QAction* keys = help->addAction(QObject::tr("&Keyboard Shortcuts"), window,
                                    [window] { shortcutsDialog(window)->show(); });
    keys->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    keys->setStatusTip(QObject::tr("Every shortcut of the window and its tabs"));
    help->addSeparator();
    help->addAction(QObject::tr("&About HistLab"), window, about)
        ->setStatusTip(QObject::tr("The version, the libraries and the OpenCL devices"));
    help->addAction(QObject::tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void openAboutBox(QWidget* parent, const std::vector<DeviceListing>& devices,
                  const QString& listError) {
    auto* box = new QMessageBox(QMessageBox::Information, QObject::tr("About HistLab"),
                                aboutText(devices, listError), QMessageBox::Close, parent);
    box->setObjectName(QStringLiteral("aboutBox"));
    box->setTextFormat(Qt::RichText);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open(); // window-modal, no nested event loop
}

void showWarningBox(QWidget* parent, const QString& message, const QString& details) {
    auto* box = new QMessageBox(QMessageBox::Warning, QObject::tr("HistLab"), message,
                                QMessageBox::Ok, parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    if (!details.isEmpty())
        box->setDetailedText(details);
    box->open();
}

QDialog* guideDialog(QWidget* parent) {
    auto* browser = new QTextBrowser;
    browser->setObjectName(QStringLiteral("guideBrowser"));
    // Links to other sites open in the system's browser, links within the guide scroll to
    // their heading; the README's links to files of the source tree lead nowhere here.
    browser->setOpenLinks(false);
    QObject::connect(browser, &QTextBrowser::anchorClicked, browser, [browser](const QUrl& url) {
        if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https"))
            QDesktopServices::openUrl(url);
        else if (url.hasFragment() && url.path().isEmpty())
            browser->scrollToAnchor(url.fragment());
    });
    QFile readme(QStringLiteral(":/histlab/README.md"));
    browser->setMarkdown(readme.open(QIODevice::ReadOnly)
                             ? guideMarkdown(QString::fromUtf8(readme.readAll()))
                             : QObject::tr("The guide is missing from this build."));
    QDialog* dialog = closableDialog(parent, QObject::tr("HistLab Guide"), browser);
    dialog->resize(900, 700);
    return dialog;
}

} // namespace histlab::ui
