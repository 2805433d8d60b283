// The window's numbers under a locale with a decimal comma: the core's C parsing and formatting
// (strtod, snprintf) and the plots' QLocale read and write a point, as the CLI and the exported
// files do (bridge/logging.h: useCNumbers).
#include "bridge/logging.h"

#include <pipelines/options.h>
#include <runtime/bytesize.h>

#include <QLocale>
#include <QtTest>

#include <clocale>
#include <cstdio>

class TestNumbers : public QObject {
    Q_OBJECT
private slots:
    void numbersKeepTheirPointUnderACommaLocale() {
        // What Qt does with LC_ALL=de_DE.UTF-8 in the environment, where that locale exists.
        bool comma = false;
        for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "de_DE"})
            if (std::setlocale(LC_ALL, name)) {
                char text[16];
                std::snprintf(text, sizeof text, "%.1f", 1.5);
                comma = QByteArray(text) == "1,5";
                qInfo("%s: snprintf writes 1.5 as %s before useCNumbers", name, text);
                break;
            }
        if (!comma)
            qInfo("no German locale installed here (locale-gen de_DE.UTF-8): only the result "
                  "of useCNumbers is checked, not the comma it undoes");
        QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));

        histlab::ui::useCNumbers();

        QCOMPARE(QByteArray(std::setlocale(LC_NUMERIC, nullptr)), QByteArray("C"));
        QCOMPARE(histlab::parseByteSize("--size", "0.5M"), std::uint64_t(524288));
        QCOMPARE(histlab::parseNonNegative("--size", "0.27"), 0.27);
        QCOMPARE(QString::fromStdString(histlab::roundedByteSize(1536)), QString("1.5 KiB"));
        QCOMPARE(QLocale().toString(1.5), QString("1.5"));
    }
};

QTEST_MAIN(TestNumbers)
#include "tst_numbers.moc"
