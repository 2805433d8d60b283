#include "window/theme.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

#include <optional>

namespace histlab::ui {

namespace {

/// What the platform gave, kept at the first change so that System can put it back.
struct SystemLook {
    QString style;
    QPalette palette;
};

const SystemLook& systemLook() {
    static const SystemLook look{QApplication::style()->name(), QApplication::palette()};
    return look;
}

QPalette darkPalette() {
    QPalette p;
    const QColor window(45, 45, 48), base(30, 30, 32), text(225, 225, 225);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, QColor(60, 60, 64));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(255, 90, 90));
    p.setColor(QPalette::Light, QColor(70, 70, 74));
    p.setColor(QPalette::Midlight, QColor(58, 58, 62));
    p.setColor(QPalette::Mid, QColor(40, 40, 42));
    p.setColor(QPalette::Dark, QColor(22, 22, 24));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(42, 130, 218));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(100, 170, 255));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(120, 120, 120));
    return p;
}

} // namespace

QString themeName(Theme theme) {
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

Theme themeFromName(const QString& name) {
    return name == QLatin1String("light")  ? Theme::Light
           : name == QLatin1String("dark") ? Theme::Dark
                                           : Theme::System;
}

Theme savedTheme() {
    return themeFromName(
        QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab")).value("theme").toString());
}

void saveTheme(Theme theme) {
    QSettings(QStringLiteral("HistLab"), QStringLiteral("HistLab"))
        .setValue(QStringLiteral("theme"), themeName(theme));
}

void applyTheme(Theme theme) {
    const SystemLook& system = systemLook();
    if (theme == Theme::System) {
        if (QApplication::style()->name() != system.style)
            QApplication::setStyle(QStyleFactory::create(system.style));
        QApplication::setPalette(system.palette);
        return;
    }
    if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive))
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(theme == Theme::Dark ? darkPalette()
                                                  : QApplication::style()->standardPalette());
}

bool isDark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

void applyPlotPalette(QCustomPlot* plot) {
    const QPalette palette = QApplication::palette();
    const bool dark = isDark(palette);
    // Light: QCustomPlot's own colours (black on white, light grey dotted grid).
    const QColor base = dark ? palette.color(QPalette::Base) : QColor(Qt::white);
    const QColor text = dark ? palette.color(QPalette::Text) : QColor(Qt::black);
    const QColor grid = dark ? QColor(90, 90, 96) : QColor(200, 200, 200);
    plot->setBackground(base);
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(base);
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(text, 0));
            axis->setTickPen(QPen(text, 0));
            axis->setSubTickPen(QPen(text, 0));
            axis->setTickLabelColor(text);
            axis->setLabelColor(text);
            axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
        }
    }
    if (QCPLegend* legend = plot->legend) {
        QColor behind = base;
        behind.setAlpha(170); // the curves show through
        legend->setBrush(behind);
        legend->setTextColor(text);
        QColor border = text;
        border.setAlpha(90);
        legend->setBorderPen(QPen(border));
    }
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true))
        if (auto* title = qobject_cast<QCPTextElement*>(element))
            title->setTextColor(text);
}

} // namespace histlab::ui
