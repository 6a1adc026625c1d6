"""The default compaction of ``recurscope replay``: a deterministic extractive summary.

A replay has no model to write summaries with, so compaction needs a
stand-in that behaves like one where it matters to the planner: it is short,
bounded, never blank, and the same input always gives the same text.
:func:`extractive_summary` keeps the first sentence of each removed message
(role-prefixed, each capped), joined in order, and stops at a total cap with
a count of what it left out. ``--summarizer module:function`` replaces it
with any callable of the planner's ``Summarizer`` signature (see
``docs/replay.md``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

__all__ = ["MAX_CHARS", "MAX_SENTENCE_CHARS", "extractive_summary"]

MAX_SENTENCE_CHARS: Final = 120
"""Most characters kept of one message's first sentence (an ellipsis marks a cut)."""

MAX_CHARS: Final = 480
"""Most characters of the whole summary, about 120 tokens of English."""

# The end of a first sentence: terminal punctuation followed by white space,
# or a line break (lists, code and headings have no full stops).
_SENTENCE_END: Final = re.compile(r"(?<=[.!?])\s|\n")
_SPACE: Final = re.compile(r"\s+")
# Control characters (NUL included) say nothing to a reader and upset terminals.
_CONTROL: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def _text(message: Mapping[str, Any]) -> str:
    """The message's text: its string content, or the text of its parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list | tuple):
        pieces = []
        for part in content:
            if isinstance(part, str):
                pieces.append(part)
            elif isinstance(part, Mapping):
                text = part.get("text", part.get("content"))
                if isinstance(text, str):
                    pieces.append(text)
        return " ".join(pieces)
    return ""


def _first_sentence(text: str) -> str:
    # Look at a bounded head only: a huge message costs no more than a short one.
    head = _CONTROL.sub(" ", text[: MAX_SENTENCE_CHARS * 4]).strip()
    match = _SENTENCE_END.search(head)
    sentence = head[: match.start()] if match else head
    sentence = _SPACE.sub(" ", sentence).strip()
    if len(sentence) > MAX_SENTENCE_CHARS:
        sentence = sentence[: MAX_SENTENCE_CHARS - 1].rstrip() + "…"
    return sentence


def extractive_summary(messages: Sequence[Mapping[str, Any]]) -> str:
    """Summarize removed messages as their first sentences; deterministic, never blank.

    Each message contributes ``role: first sentence`` (at most
    :data:`MAX_SENTENCE_CHARS` characters); messages without text (tool
    calls only) contribute nothing. Lines stop before the summary would pass
    :data:`MAX_CHARS`, and a last line counts the messages left out.
    """
    lines = ["Summary of earlier messages:"]
    used = len(lines[0])
    left_out = 0
    for position, message in enumerate(messages):
        sentence = _first_sentence(_text(message))
        if not sentence:
            left_out += 1
            continue
        role = message.get("role")
        name = role if isinstance(role, str) and role.isidentifier() else "message"
        line = f"- {name}: {sentence}"
        if used + 1 + len(line) > MAX_CHARS:
            # Full: the rest is only counted (the summary keeps the order of what
            # it says, never skipping ahead to a shorter line), so a long removal
            # costs no more than a short one.
            left_out += len(messages) - position
            break
        lines.append(line)
        used += 1 + len(line)
    if left_out:
        lines.append(f"(and {left_out} more message{'s' if left_out != 1 else ''})")
    return "\n".join(lines)
