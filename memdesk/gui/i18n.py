"""The window's language: Chinese (zh_CN) or English, from QLocale by default.

Source strings are English; resources/i18n/memdesk_zh_CN.qm (compiled by
pyside6-lrelease from the .ts next to it) translates them, and Qt's own
qtbase_zh_CN.qm (from PySide6's translations folder, QLibraryInfo) translates
its standard buttons and dialogs; resources/i18n/qt_extra_zh_CN.qm supplies
the strings of those dialogs that Qt's catalogue lacks ("Look in:", ...).
English needs a catalogue too, of plurals only: memdesk_en.qm turns
tr("%n memories", "", 1) into "1 memory" (Qt's numerus forms).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from . import prefs
from .resources_path import resource

LANGUAGES = ("zh_CN", "en")
_installed: list[QTranslator] = []


def system_language() -> str:
    locale = QLocale.system()
    return "zh_CN" if locale.language() == QLocale.Language.Chinese else "en"


def chosen_language() -> str:
    return prefs.language() or system_language()


def install(language: str | None = None) -> str:
    """Install the translators for ``language`` (default: the user's choice); returns it."""
    app = QCoreApplication.instance()
    language = language or chosen_language()
    for translator in _installed:
        app.removeTranslator(translator)
    _installed.clear()
    if language == "zh_CN":
        ours = QTranslator(app)
        if ours.load(str(resource("i18n", "memdesk_zh_CN.qm"))):
            app.installTranslator(ours)
            _installed.append(ours)
        qt = QTranslator(app)
        if qt.load("qtbase_zh_CN", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
            app.installTranslator(qt)
            _installed.append(qt)
        # Installed last, so asked first: the few strings of Qt's dialogs qtbase_zh_CN lacks.
        extra = QTranslator(app)
        if extra.load(str(resource("i18n", "qt_extra_zh_CN.qm"))):
            app.installTranslator(extra)
            _installed.append(extra)
        QLocale.setDefault(QLocale(QLocale.Language.Chinese, QLocale.Country.China))
    else:
        plurals = QTranslator(app)
        if plurals.load(str(resource("i18n", "memdesk_en.qm"))):
            app.installTranslator(plurals)
            _installed.append(plurals)
        QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    return language
