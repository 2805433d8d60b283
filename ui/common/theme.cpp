#include "common/theme.h"
#include "common/settings.h"

#include <qcustomplot.h>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QMenu>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

#include <algorithm>
#include <cmath>
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

/// The colours a palette is made from; QPalette derives the 3-D shades from the window's.
struct Scheme {
    QColor window, base, alternateBase, text, toolTipBase, placeholder, highlight, link, disabled;
};

QPalette paletteOf(const Scheme& c) {
    QPalette p(c.window);
    p.setColor(QPalette::Window, c.window);
    p.setColor(QPalette::Button, c.window);
    p.setColor(QPalette::Base, c.base);
    p.setColor(QPalette::AlternateBase, c.alternateBase);
    for (QPalette::ColorRole role :
         {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::ToolTipText})
        p.setColor(role, c.text);
    p.setColor(QPalette::ToolTipBase, c.toolTipBase);
    p.setColor(QPalette::PlaceholderText, c.placeholder);
    p.setColor(QPalette::Highlight, c.highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, c.link);
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, c.disabled);
    return p;
}

/// Fusion's light colours, spelled out (from Qt 6.5 its standard palette follows a dark
/// desktop, which Light must not).
QPalette lightPalette() {
    return paletteOf({QColor(239, 239, 239), Qt::white, QColor(247, 247, 247), Qt::black,
                      QColor(255, 255, 220), QColor(0, 0, 0, 128), QColor(48, 140, 198),
                      QColor(0, 0, 255), QColor(120, 120, 120)});
}

QPalette darkPalette() {
    return paletteOf({QColor(45, 45, 48), QColor(30, 30, 32), QColor(45, 45, 48),
                      QColor(225, 225, 225), QColor(60, 60, 64), QColor(150, 150, 150),
                      QColor(42, 130, 218), QColor(100, 170, 255), QColor(120, 120, 120)});
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
    return themeFromName(histlabSettings().value("theme").toString());
}

void saveTheme(Theme theme) {
    histlabSettings().setValue(QStringLiteral("theme"), themeName(theme));
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
    QApplication::setPalette(theme == Theme::Dark ? darkPalette() : lightPalette());
}

bool isDark(const QPalette& palette) {
    return palette.color(QPalette::Window).lightness() < 128;
}

PlotColors plotColors() {
    const QPalette palette = QApplication::palette();
    if (!isDark(palette)) // QCustomPlot's own colours: black on white, light grey dotted grid
        return {Qt::white, Qt::black, QColor(200, 200, 200), QColor(60, 60, 60)};
    return {palette.color(QPalette::Base), palette.color(QPalette::Text), QColor(90, 90, 96),
            QColor(200, 200, 205)};
}

double contrastRatio(const QColor& a, const QColor& b) {
    const auto luminance = [](const QColor& c) {
        const auto linear = [](double v) {
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

void applyPlotPalette(QCustomPlot* plot) {
    const PlotColors colors = plotColors();
    const QColor base = colors.background;
    const QColor text = colors.text;
    const QColor grid = colors.grid;
    plot->setBackground(base);
    const auto colorAxis = [&](QCPAxis* axis) {
        axis->setBasePen(QPen(text, 0));
        axis->setTickPen(QPen(text, 0));
        axis->setSubTickPen(QPen(text, 0));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
    };
    for (QCPAxisRect* rect : plot->axisRects()) {
        rect->setBackground(base);
        for (QCPAxis* axis : rect->axes())
            colorAxis(axis);
    }
    // A colour bar's axis lives in its own axis rect, which axisRects() does not list.
    for (QCPLayoutElement* element : plot->plotLayout()->elements(true))
        if (auto* scale = qobject_cast<QCPColorScale*>(element); scale && scale->axis())
            colorAxis(scale->axis());
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

void addThemeMenu(QMenu* view) {
    QMenu* themes = view->addMenu(QObject::tr("&Theme"));
    auto* group = new QActionGroup(themes);
    const Theme current = savedTheme();
    for (Theme theme : {Theme::System, Theme::Light, Theme::Dark}) {
        QAction* a = themes->addAction(theme == Theme::System  ? QObject::tr("&System")
                                       : theme == Theme::Light ? QObject::tr("&Light")
                                                               : QObject::tr("&Dark"));
        a->setCheckable(true);
        a->setChecked(theme == current);
        a->setData(themeName(theme));
        group->addAction(a);
        QObject::connect(a, &QAction::triggered, themes, [theme] {
            applyTheme(theme);
            saveTheme(theme);
        });
    }
}

} // namespace histlab::ui
