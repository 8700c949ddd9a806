"""Why the core refused or flagged something, in the user's language.

The core words its reasons in English for the assistant and the command line
(an assistant reads "memory_save: 'content' is required" and corrects its call;
an import plan says "differs in content, tags"). The window shows the same
reasons to a person: the known shapes are matched here and said again in the
user's words. An unknown shape is shown as it is, never dropped.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication, QLocale

translate = QCoreApplication.translate  # the name pyside6-lupdate looks for


def _tool_patterns():
    """What the tools say to an assistant (memdesk.core.tools): its arguments, and refusals."""
    return (
        (r"'(?P<name>\w+)' is required", translate("Reasons", "the argument {name} is missing")),
        (
            r"unknown argument\(s\) (?P<names>[^;]+); accepted: (?P<accepted>.+)",
            translate("Reasons", "arguments it does not take: {names} (it takes {accepted})"),
        ),
        (r"'(?P<name>\w+)' must be a string", translate("Reasons", "{name} must be text")),
        (
            r"'(?P<name>\w+)' must be one of (?P<choices>.+); got (?P<value>.+)",
            translate("Reasons", "{name} must be one of {choices}, not {value}"),
        ),
        (r"'(?P<name>\w+)' must be a whole number", translate("Reasons", "{name} must be a whole number")),
        (
            r"'(?P<name>\w+)' must be between (?P<low>\S+) and (?P<high>\S+); got (?P<value>.+)",
            translate("Reasons", "{name} must be from {low} to {high}, not {value}"),
        ),
        (r"'(?P<name>\w+)' must be a number", translate("Reasons", "{name} must be a number")),
        (r"'(?P<name>\w+)' must be true or false", translate("Reasons", "{name} must be true or false")),
        (r"arguments must be (a JSON object|an object.*)", translate("Reasons", "the arguments could not be read")),
        (r"unknown tool '(?P<tool>[^']+)'.*", translate("Reasons", "there is no tool named {tool}")),
        (
            r"memory is switched off for this persona.*",
            translate("Reasons", "memory is switched off for this persona; nothing was done"),
        ),
        (
            r"(?P<n>\d+) memories contain '(?P<query>.*)'; that is too many.*",
            translate("Reasons", "{n} memories contain “{query}”: too many to delete at once; nothing was deleted"),
        ),
        (
            r"memory (?P<id>\S+) belongs to another persona",
            translate("Reasons", "memory {id} belongs to another persona"),
        ),
        (
            r"give an id, or at least one filter.*",
            translate("Reasons", "it named no memory and no filter; nothing was forgotten"),
        ),
        (r"no memory with id '(?P<id>[^']+)'", translate("Reasons", "there is no memory {id}")),
        (
            r"persona: there is no persona named '(?P<name>[^']+)'",
            translate("Reasons", "there is no persona named {name}"),
        ),
    )


def _record_patterns():
    """What validation and an import plan say about a memory's fields or a file's record."""
    return (
        (r"(?P<field>\w+): must not be blank", translate("Reasons", "{field} is empty")),
        (
            r"(?P<field>\w+): is (?P<n>[\d,]+) characters long; the limit is (?P<limit>[\d,]+)",
            translate("Reasons", "{field} is {n} characters long; at most {limit} are kept"),
        ),
        (r"id: appears more than once in this file", translate("Reasons", "its id appears more than once in the file")),
        (
            r"dedup_key: '(?P<key>[^']+)' appears more than once in this file",
            translate("Reasons", "the dedup key {key} appears more than once in the file"),
        ),
        (
            r"dedup_key: '(?P<key>[^']+)' is already used by memory (?P<id>\S+)",
            translate("Reasons", "the dedup key {key} is already used by memory {id}"),
        ),
        (
            r"duplicate: same text as memory (?P<id>[0-9a-f-]+)(?P<where> \(.*\))?",
            translate("Reasons", "the same text as memory {id}, already here"),
        ),
        (
            r"duplicate: same text as record (?P<n>\d+) in this file",
            translate("Reasons", "the same text as record {n} of the file"),
        ),
        (r"differs in (?P<names>[\w, ]+)", translate("Reasons", "differs in: {names}")),
        (
            r"changed here after the file's copy was written \(differs in (?P<names>[\w, ]+)\)",
            translate("Reasons", "changed here after the file's copy was written (differs in: {names})"),
        ),
        (
            r"dedup_key: another memory of this persona already uses '(?P<key>[^']+)'",
            translate("Reasons", "another memory of this persona already has the key {key}"),
        ),
    )


def _patterns():
    return _tool_patterns() + _record_patterns()


def _argument_names() -> dict[str, str]:
    from . import labels

    names = dict(labels.fields())
    names.update(
        {
            "persona": names["persona_id"],
            "query": translate("Reasons", "search words"),
            "id": translate("Reasons", "memory id"),
            "ids": translate("Reasons", "memory ids"),
            "limit": translate("Reasons", "number of results"),
            "top_k": translate("Reasons", "number of results"),
        }
    )
    return names


def _named(key: str, value: str) -> str:
    """Argument names in the user's words ("content" → 内容); values stay as the assistant sent them."""
    if key not in ("name", "names", "accepted", "field") or QLocale().language() == QLocale.Language.English:
        return value  # in English the argument's own name is the word
    names = _argument_names()
    return translate("Reasons", ", ").join(names.get(n.strip(), n.strip()) for n in value.split(","))


_PERSONA_CONFLICT = re.compile(  # memdesk.core.io.plan: an import never moves a memory to another persona silently
    r"persona: the file (?:puts it in persona “(?P<new>[^”]*)”|makes it global); "
    r"here it (?:belongs to persona “(?P<cur>[^”]*)”|is global)(?: \(also differs in (?P<others>.+)\))?"
)


def _persona_conflict(new, cur, others) -> str:
    there = (
        translate("Reasons", "in the file it belongs to “{name}”").format(name=new)
        if new
        else translate("Reasons", "in the file it is global")
    )
    here = (
        translate("Reasons", "here it belongs to “{name}”").format(name=cur)
        if cur
        else translate("Reasons", "here it is global")
    )
    text = translate("Reasons", "{there}; {here}").format(there=there, here=here)
    if others:
        text += translate("Reasons", " (also differs in: {names})").format(names=_named("names", others))
    return text


def reason_text(message: str) -> str:
    """``message`` as the core wrote it ("memory_save: 'content' is required") → the user's words."""
    text = (message or "").strip()
    text = re.sub(r"^memory_\w+: ", "", text)  # the tool is in its own column
    moved = _PERSONA_CONFLICT.fullmatch(text)
    if moved:
        return _persona_conflict(**moved.groupdict())
    for pattern, words in _patterns():
        match = re.fullmatch(pattern, text)
        if match:
            return words.format(**{k: _named(k, v) for k, v in match.groupdict().items()})
    return text
