#pragma once
// What every part of the window spells the same way: where settings are kept, and how a
// status line shows a failure.
#include <QSettings>
#include <QString>

namespace histlab::ui {

/// QSettings("HistLab", "HistLab"), where every part of the window keeps its settings (named
/// here so that a test, whose application has another name, reads the same store).
QSettings histlabSettings();

/// The colour of a failure in text and rich text ("#c00000", dark red).
QString errorColor();
/// The style sheet of a label that reports a failure: bold, in errorColor().
QString errorStyle();

} // namespace histlab::ui
