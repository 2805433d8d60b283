#pragma once
// Core value types that travel in the window's signals (queued connections, QVariant,
// QSignalSpy), declared once for every part of ui/: a second declaration, or one after a use,
// does not compile.
#include <image/image.h>

#include <QMetaType>

Q_DECLARE_METATYPE(histlab::Region)
