#include "common/helpdialogs.h"

#include "views/tablecopy.h"

#include <io/versions.h>
#include <runtime/version.h>

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QImage>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSplitter>
#include <QStringList>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTimer>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <tuple>
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
    // Enter in a field of the dialog (the guide's find) is that field's, never Close.
    buttons->button(QDialogButtonBox::Close)->setAutoDefault(false);
    buttons->button(QDialogButtonBox::Close)->setDefault(false);
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

namespace {
/// Where `action` works: the title of the tab it belongs to (the nearest page of a QTabWidget
/// among the widgets that hold it), else "Window".
QString actionScope(const QAction* action) {
    for (const QObject* o = action->parent(); o; o = o->parent()) {
        const auto* widget = qobject_cast<const QWidget*>(o);
        const QWidget* stack = widget ? widget->parentWidget() : nullptr;
        if (const auto* tabs =
                qobject_cast<const QTabWidget*>(stack ? stack->parentWidget() : nullptr))
            for (int i = 0; i < tabs->count(); ++i)
                if (tabs->widget(i) == widget)
                    return QObject::tr("%1 tab").arg(tabs->tabText(i).remove(QLatin1Char('&')));
    }
    return QObject::tr("Window");
}
} // namespace

QDialog* shortcutsDialog(QWidget* window) {
    struct Row {
        QString scope, name, keys, what;
        auto tie() const { return std::tie(scope, name, keys, what); }
        bool operator<(const Row& o) const { return tie() < o.tie(); }
        bool operator==(const Row& o) const { return tie() == o.tie(); }
    };
    std::vector<Row> rows;
    const QString everywhere = QObject::tr("Window");
    for (const QAction* action : window->findChildren<QAction*>()) {
        if (action->shortcuts().isEmpty() || action->text().isEmpty())
            continue;
        QStringList keys;
        for (const QKeySequence& key : action->shortcuts())
            keys << key.toString(QKeySequence::NativeText);
        rows.push_back({actionScope(action), action->text().remove(QLatin1Char('&')),
                        keys.join(QStringLiteral(", ")), action->statusTip()});
    }
    // The window's own first, then each tab's, each by name.
    std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
        const bool aw = a.scope == everywhere, bw = b.scope == everywhere;
        return aw != bw ? aw : a < b;
    });
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end()); // copies of one action
    auto* table = new QTableWidget(int(rows.size()), 4);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setHorizontalHeaderLabels({QObject::tr("Action"), QObject::tr("Keys"),
                                      QObject::tr("Where"), QObject::tr("What it does")});
    table->verticalHeader()->setVisible(false);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setWordWrap(true);
    for (int r = 0; r < int(rows.size()); ++r) {
        const Row& row = rows[std::size_t(r)];
        int c = 0;
        for (const QString& text : {row.name, row.keys, row.scope, row.what}) {
            auto* item = new QTableWidgetItem(text);
            item->setToolTip(text);
            table->setItem(r, c++, item);
        }
    }
    for (int c = 0; c < 3; ++c)
        table->resizeColumnToContents(c);
    table->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
    table->resizeRowsToContents();
    enableTableCopy(table);
    QDialog* dialog = closableDialog(window, QObject::tr("Keyboard Shortcuts"), table);
    dialog->resize(1000, 600);
    return dialog;
}

void addHelpMenu(QMainWindow* window, const std::function<void()>& about,
                 const std::function<std::pair<QString, QString>()>& where) {
    QMenu* help = window->menuBar()->addMenu(QObject::tr("&Help"));
    QAction* guide = help->addAction(QObject::tr("HistLab &Guide"), window, [window, where] {
        const auto [page, section] = where ? where() : std::pair<QString, QString>();
        guideDialog(window, page.isEmpty() ? QStringLiteral("window.md") : page, section)->show();
    });
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setStatusTip(QObject::tr("How to use the window, opened at the tab shown; what each "
                                    "pipeline computes, the image files, the command line"));
    QAction* keys = help->addAction(QObject::tr("&Keyboard Shortcuts"), window,
                                    [window] { shortcutsDialog(window)->show(); });
    keys->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
    keys->setStatusTip(
        QObject::tr("Every shortcut of the window and its tabs, and where it works"));
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

const std::vector<GuidePage>& guidePages() {
    static const std::vector<GuidePage> pages = {
        {QStringLiteral("window.md"), QObject::tr("The window")},
        {QStringLiteral("images.md"), QObject::tr("Image files")},
        {QStringLiteral("histogram.md"), QObject::tr("256-bin histograms")},
        {QStringLiteral("largebin.md"), QObject::tr("Large-bin and joint histograms")},
        {QStringLiteral("blur.md"), QObject::tr("Box blur")},
        {QStringLiteral("equalize.md"), QObject::tr("Equalization")},
        {QStringLiteral("bow.md"), QObject::tr("Bag of visual words")},
        {QStringLiteral("scan.md"), QObject::tr("Scans")},
        {QStringLiteral("experiments.md"), QObject::tr("Experiments")},
        {QStringLiteral("memory.md"), QObject::tr("Memory lab")},
        {QStringLiteral("devices.md"), QObject::tr("Devices and the dashboard")},
        {QStringLiteral("batch.md"), QObject::tr("Folders and every device")},
        {QStringLiteral("performance.md"), QObject::tr("How speed is measured")},
        {QStringLiteral("cli-usage.md"), QObject::tr("The command line")},
        {QStringLiteral("cli.md"), QObject::tr("Command reference")},
        {QStringLiteral("install.md"), QObject::tr("Installing")},
    };
    return pages;
}

namespace {

QString guideResource(const QString& file) {
    return QStringLiteral(":/histlab/docs/") + file;
}

/// A heading's anchor as GitHub makes it, which the pages' links use: lower case, spaces to
/// hyphens, punctuation dropped.
QString headingSlug(const QString& heading) {
    QString slug;
    for (const QChar c : heading.toLower())
        if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_'))
            slug += c;
        else if (c == QLatin1Char(' '))
            slug += QLatin1Char('-');
    return slug;
}

/// The "## " and "### " headings of a page's Markdown (not those inside code blocks): its
/// sections, each with its level (2 or 3).
std::vector<std::pair<int, QString>> pageSections(const QString& markdown) {
    std::vector<std::pair<int, QString>> sections;
    bool code = false;
    for (const QString& line : markdown.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("```")))
            code = !code;
        else if (!code && line.startsWith(QLatin1String("## ")))
            sections.emplace_back(2, line.mid(3).trimmed());
        else if (!code && line.startsWith(QLatin1String("### ")))
            sections.emplace_back(3, line.mid(4).trimmed());
    }
    return sections;
}

QString pageText(const QString& file) {
    QFile f(guideResource(file));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

/// The guide's browser and what it shows.
class Guide : public QObject {
public:
    Guide(QTextBrowser* browser, QTreeWidget* contents, QLabel* note)
        : QObject(browser)
        , m_browser(browser)
        , m_contents(contents)
        , m_note(note) {}

    void show(const QString& file, const QString& section) {
        m_note->clear();
        if (file != m_file) {
            const QString text = pageText(file);
            if (text.isEmpty()) {
                m_note->setText(QObject::tr("%1 is not in this build of the guide.").arg(file));
                return;
            }
            m_file = file;
            m_browser->setMarkdown(text);
            fitPictures();
        }
        scrollTo(section);
        markInContents(section);
        // Again once the dialog has its size: the page's layout, and so where the section
        // starts, depends on the browser's width.
        QTimer::singleShot(0, m_browser, [this, section] { scrollTo(section); });
    }

    /// A link: another page (and section) of the guide, another site, or a file of the
    /// source tree, which the program does not hold.
    void follow(const QUrl& url) {
        if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https"))
            return void(QDesktopServices::openUrl(url));
        const QString path = url.path();
        if (path.isEmpty())
            return show(m_file, url.fragment());
        for (const GuidePage& page : guidePages())
            if (path == page.file)
                return show(page.file, url.fragment());
        m_note->setText(QObject::tr("%1 is a file of HistLab's source tree, not part of this "
                                    "guide: see the project's repository.")
                            .arg(path));
    }

    /// Finds `text` in the page from the cursor on, then from its top.
    void find(const QString& text) {
        m_note->clear();
        if (text.isEmpty())
            return;
        if (m_browser->find(text))
            return;
        m_browser->moveCursor(QTextCursor::Start);
        if (!m_browser->find(text))
            m_note->setText(QObject::tr("\"%1\" is not on this page.").arg(text));
    }

private:
    /// Pictures as wide as the text at most (the screenshots are 1,200 pixels and more).
    void fitPictures() {
        constexpr int kWidest = 720;
        QTextDocument* document = m_browser->document();
        for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QTextFragment fragment = it.fragment();
                if (!fragment.charFormat().isImageFormat())
                    continue;
                QTextImageFormat image = fragment.charFormat().toImageFormat();
                const QImage picture(guideResource(image.name()));
                if (picture.isNull() || picture.width() <= kWidest)
                    continue;
                image.setWidth(kWidest);
                image.setHeight(double(picture.height()) * kWidest / picture.width());
                QTextCursor cursor(document);
                cursor.setPosition(fragment.position());
                cursor.setPosition(fragment.position() + fragment.length(),
                                   QTextCursor::KeepAnchor);
                cursor.setCharFormat(image);
            }
    }

    /// The heading `section` names (its text, or its anchor), else the first that holds it as
    /// a word, at the top of the view; the page's top when none does.
    void scrollTo(const QString& section) {
        QTextDocument* document = m_browser->document();
        QTextBlock found;
        if (!section.isEmpty()) {
            const QRegularExpression word(
                QStringLiteral("\\b%1\\b").arg(QRegularExpression::escape(section)));
            QTextBlock byWord;
            for (QTextBlock b = document->begin(); b.isValid() && !found.isValid(); b = b.next()) {
                if (b.blockFormat().headingLevel() == 0)
                    continue;
                if (b.text() == section || headingSlug(b.text()) == section)
                    found = b;
                else if (!byWord.isValid() && word.match(b.text()).hasMatch())
                    byWord = b;
            }
            if (!found.isValid())
                found = byWord;
        }
        QTextCursor cursor(found.isValid() ? found : document->begin());
        m_browser->setTextCursor(cursor);
        QScrollBar* bar = m_browser->verticalScrollBar();
        bar->setValue(
            found.isValid() ? int(document->documentLayout()->blockBoundingRect(found).top()) : 0);
    }

    void markInContents(const QString& section) {
        for (int i = 0; i < m_contents->topLevelItemCount(); ++i) {
            QTreeWidgetItem* page = m_contents->topLevelItem(i);
            if (page->data(0, Qt::UserRole).toString() != m_file)
                continue;
            QTreeWidgetItem* current = page;
            for (QTreeWidgetItemIterator it(page); *it && (*it == page || (*it)->parent()); ++it) {
                if (!section.isEmpty() &&
                    ((*it)->text(0) == section || headingSlug((*it)->text(0)) == section)) {
                    current = *it;
                    break;
                }
            }
            const QSignalBlocker quiet(m_contents); // marking is not choosing
            for (QTreeWidgetItem* up = current; up; up = up->parent())
                up->setExpanded(true);
            m_contents->setCurrentItem(current);
            m_contents->scrollToItem(current);
        }
    }

    QTextBrowser* m_browser;
    QTreeWidget* m_contents;
    QLabel* m_note;
    QString m_file;
};

} // namespace

QDialog* guideDialog(QWidget* parent, const QString& page, const QString& section) {
    auto* contents = new QTreeWidget;
    contents->setObjectName(QStringLiteral("guideContents"));
    contents->setHeaderHidden(true);
    for (const GuidePage& p : guidePages()) {
        auto* item = new QTreeWidgetItem(contents, {p.title});
        item->setData(0, Qt::UserRole, p.file);
        QTreeWidgetItem* section = item;
        for (const auto& [level, heading] : pageSections(pageText(p.file))) {
            auto* child = new QTreeWidgetItem(level == 2 ? item : section, {heading});
            child->setData(0, Qt::UserRole, p.file);
            if (level == 2)
                section = child;
        }
    }
    auto* browser = new QTextBrowser;
    browser->setObjectName(QStringLiteral("guideBrowser"));
    browser->setOpenLinks(false); // Guide::follow decides
    browser->setSearchPaths({QStringLiteral(":/histlab/docs")});
    auto* find = new QLineEdit;
    find->setObjectName(QStringLiteral("guideFind"));
    find->setPlaceholderText(QObject::tr("Find in this page (Enter: the next one)"));
    find->setClearButtonEnabled(true);
    auto* note = new QLabel;
    note->setObjectName(QStringLiteral("guideNote"));
    auto* guide = new Guide(browser, contents, note);

    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(find);
    rightLayout->addWidget(browser, 1);
    rightLayout->addWidget(note);
    auto* split = new QSplitter;
    split->addWidget(contents);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    split->setSizes({260, 740});

    QObject::connect(browser, &QTextBrowser::anchorClicked, guide,
                     [guide](const QUrl& url) { guide->follow(url); });
    QObject::connect(contents, &QTreeWidget::itemClicked, guide, [guide](QTreeWidgetItem* item) {
        guide->show(item->data(0, Qt::UserRole).toString(),
                    item->parent() ? item->text(0) : QString());
    });
    QObject::connect(find, &QLineEdit::returnPressed, guide,
                     [guide, find] { guide->find(find->text()); });
    QDialog* dialog = closableDialog(parent, QObject::tr("HistLab Guide"), split);
    auto* findKey = new QAction(dialog);
    findKey->setShortcut(QKeySequence::Find);
    QObject::connect(findKey, &QAction::triggered, find, [find] {
        find->setFocus();
        find->selectAll();
    });
    dialog->addAction(findKey);
    dialog->resize(1000, 720);
    guide->show(page, section);
    return dialog;
}

} // namespace histlab::ui
