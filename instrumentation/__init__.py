"""recurscope.instrumentation: record conversation-history evidence as OpenTelemetry spans.

The light part an agent runtime installs (``pip install recurscope``): it
depends on the OpenTelemetry API and tiktoken only. Without
:func:`configure` (or the host's own SDK setup) every recording call is a
cheap no-op. See ``docs/instrumentation.md``.
"""

from __future__ import annotations

from . import semconv
from .analysis import CodeAnalysis, analyze_code
from .config import Telemetry, configure
from .errors import MissingExtraError, RecurscopeError
from .goals import BoundaryShift, NeedTracker
from .history import (
    SPEAKERS,
    UNSERIALIZABLE_MARKER,
    FrozenRecord,
    History,
    HistoryRecord,
    Retention,
    role_for_speaker,
    speaker_for_role,
)
from .recorder import DELEGATION_KINDS, CallHandle, Recorder, SessionHandle, current_call
from .tokens import TokenCounter
from .trim import TrimPlan, plan_trim
from .view import AccessSummary, HistoryView

__all__ = [
    "DELEGATION_KINDS",
    "SPEAKERS",
    "UNSERIALIZABLE_MARKER",
    "AccessSummary",
    "BoundaryShift",
    "CallHandle",
    "CodeAnalysis",
    "FrozenRecord",
    "History",
    "HistoryRecord",
    "HistoryView",
    "MissingExtraError",
    "NeedTracker",
    "Recorder",
    "RecurscopeError",
    "Retention",
    "SessionHandle",
    "Telemetry",
    "TokenCounter",
    "TrimPlan",
    "analyze_code",
    "configure",
    "current_call",
    "plan_trim",
    "role_for_speaker",
    "semconv",
    "speaker_for_role",
]
