<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<!-- Strings of Qt's own dialogs that Qt's qtbase_zh_CN.qm lacks (Qt 6 renamed them).
     Hand-kept: lupdate does not touch this file. Compile with
     .venv/bin/pyside6-lrelease resources/i18n/qt_extra_zh_CN.ts -qm resources/i18n/qt_extra_zh_CN.qm -->
<context>
    <name>QFileDialog</name>
    <message>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
</TS>
