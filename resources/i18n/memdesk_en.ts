<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ImportPreviewDialog</name>
    <message numerus="yes">
        <source>Import %n memories</source>
        <translation>
            <numerusform>Import %n memory</numerusform>
            <numerusform>Import %n memories</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>Exported %n memories to {file}</source>
        <translation>
            <numerusform>Exported %n memory to {file}</numerusform>
            <numerusform>Exported %n memories to {file}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Maintenance done: %n merge proposals to review</source>
        <translation>
            <numerusform>Maintenance done: %n merge proposal to review</numerusform>
            <numerusform>Maintenance done: %n merge proposals to review</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memories</source>
        <translation>
            <numerusform>%n memory</numerusform>
            <numerusform>%n memories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n in the trash</source>
        <translation>
            <numerusform>%n in the trash</numerusform>
            <numerusform>%n in the trash</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n found</source>
        <translation>
            <numerusform>%n found</numerusform>
            <numerusform>%n found</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MemoryActions</name>
    <message numerus="yes">
        <source>Delete %n memories</source>
        <translation>
            <numerusform>Delete %n memory</numerusform>
            <numerusform>Delete %n memories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restore %n memories</source>
        <translation>
            <numerusform>Restore %n memory</numerusform>
            <numerusform>Restore %n memories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n memories from the trash for good?</source>
        <translation>
            <numerusform>Delete %n memory from the trash for good?</numerusform>
            <numerusform>Delete %n memories from the trash for good?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n memories for good</source>
        <translation>
            <numerusform>Delete %n memory for good</numerusform>
            <numerusform>Delete %n memories for good</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete all %n memories in the trash for good?</source>
        <translation>
            <numerusform>Delete the %n memory in the trash for good?</numerusform>
            <numerusform>Delete all %n memories in the trash for good?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Move %n memories to “{group}”</source>
        <translation>
            <numerusform>Move %n memory to “{group}”</numerusform>
            <numerusform>Move %n memories to “{group}”</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Tag %n memories “{tag}”</source>
        <translation>
            <numerusform>Tag %n memory “{tag}”</numerusform>
            <numerusform>Tag %n memories “{tag}”</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Remove tag “{tag}” from %n memories</source>
        <translation>
            <numerusform>Remove tag “{tag}” from %n memory</numerusform>
            <numerusform>Remove tag “{tag}” from %n memories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Set type of %n memories to {type}</source>
        <translation>
            <numerusform>Set type of %n memory to {type}</numerusform>
            <numerusform>Set type of %n memories to {type}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Set importance of %n memories to {value}</source>
        <translation>
            <numerusform>Set importance of %n memory to {value}</numerusform>
            <numerusform>Set importance of %n memories to {value}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Move %n memories to {persona}</source>
        <translation>
            <numerusform>Move %n memory to {persona}</numerusform>
            <numerusform>Move %n memories to {persona}</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PersonaMapping</name>
    <message numerus="yes">
        <source>Persona {n} of the file ({id}…), %n records</source>
        <translation>
            <numerusform>Persona {n} of the file ({id}…), %n record</numerusform>
            <numerusform>Persona {n} of the file ({id}…), %n records</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PersonasDialog</name>
    <message numerus="yes">
        <source>Delete the persona “{name}”? It has %n memories. What should happen to them?</source>
        <translation>
            <numerusform>Delete the persona “{name}”? It has %n memory. What should happen to it?</numerusform>
            <numerusform>Delete the persona “{name}”? It has %n memories. What should happen to them?</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReportWords</name>
    <message numerus="yes">
        <source>%n expired short-term memories moved to the trash</source>
        <translation>
            <numerusform>%n expired short-term memory moved to the trash</numerusform>
            <numerusform>%n expired short-term memories moved to the trash</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memories deleted for good after their days in the trash</source>
        <translation>
            <numerusform>%n memory deleted for good after its days in the trash</numerusform>
            <numerusform>%n memories deleted for good after their days in the trash</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n groups of memories with the same text</source>
        <translation>
            <numerusform>%n group of memories with the same text</numerusform>
            <numerusform>%n groups of memories with the same text</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n merge proposals to review</source>
        <translation>
            <numerusform>%n merge proposal to review</numerusform>
            <numerusform>%n merge proposals to review</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Heat recomputed for %n memories</source>
        <translation>
            <numerusform>Heat recomputed for %n memory</numerusform>
            <numerusform>Heat recomputed for %n memories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n moved to another tier</source>
        <translation>
            <numerusform>%n moved to another tier</numerusform>
            <numerusform>%n moved to another tier</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Importance estimated again for %n memories</source>
        <translation>
            <numerusform>Importance estimated again for %n memory</numerusform>
            <numerusform>Importance estimated again for %n memories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n changed</source>
        <translation>
            <numerusform>%n changed</numerusform>
            <numerusform>%n changed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Vectors computed for %n memories</source>
        <translation>
            <numerusform>Vectors computed for %n memory</numerusform>
            <numerusform>Vectors computed for %n memories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memories brought up to date in the index</source>
        <translation>
            <numerusform>%n memory brought up to date in the index</numerusform>
            <numerusform>%n memories brought up to date in the index</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n old entries removed</source>
        <translation>
            <numerusform>%n old entry removed</numerusform>
            <numerusform>%n old entries removed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{when}: %n of {total} tasks done</source>
        <translation>
            <numerusform>{when}: %n of {total} tasks done</numerusform>
            <numerusform>{when}: %n of {total} tasks done</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReviewInboxDialog</name>
    <message numerus="yes">
        <source>%n proposals to review</source>
        <translation>
            <numerusform>%n proposal to review</numerusform>
            <numerusform>%n proposals to review</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Merge %n memories</source>
        <translation>
            <numerusform>Merge %n memory</numerusform>
            <numerusform>Merge %n memories</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SearchNotice</name>
    <message numerus="yes">
        <source>%n not yet searchable by meaning</source>
        <translation>
            <numerusform>%n not yet searchable by meaning</numerusform>
            <numerusform>%n not yet searchable by meaning</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n memories are still being prepared for semantic search; until then only their words find them.</source>
        <translation>
            <numerusform>%n memory is still being prepared for semantic search; until then only its words find it.</numerusform>
            <numerusform>%n memories are still being prepared for semantic search; until then only their words find them.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TablePane</name>
    <message numerus="yes">
        <source>{place} · %n memories</source>
        <translation>
            <numerusform>{place} · %n memory</numerusform>
            <numerusform>{place} · %n memories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n found, {shown} shown (more as you scroll) · Esc clears the search</source>
        <translation>
            <numerusform>%n found, {shown} shown (more as you scroll) · Esc clears the search</numerusform>
            <numerusform>%n found, {shown} shown (more as you scroll) · Esc clears the search</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n found · Esc clears the search</source>
        <translation>
            <numerusform>%n found · Esc clears the search</numerusform>
            <numerusform>%n found · Esc clears the search</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ToolLogDialog</name>
    <message numerus="yes">
        <source>%n recent calls</source>
        <translation>
            <numerusform>%n recent call</numerusform>
            <numerusform>%n recent calls</numerusform>
        </translation>
    </message>
</context>
</TS>
