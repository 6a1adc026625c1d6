"""Static analysis of generated code that reads the conversation history.

``analyze_code(code, language)`` says whether a program reads the history,
which operations it applies to the records (``ALL_OPS``; the ContextView-shaped
ones are ``CONTEXTVIEW_OPS``), which record fields it reads (``ALL_FIELDS``) and
its literal bound on how far back it reads, fingerprints the history-processing
part and sketches it (a content-free MinHash for near-duplicate clusters);
``program_sketch`` replaces that static sketch with a behavioural one (the
program run on fixed probe histories in a sandbox process) when its answers
say something.
Python is analysed on its AST, Ruby on its tokens, other languages textually;
the call never raises and remembers its answers. ``baseline_analysis`` is the
original runtime's regex detector, kept for comparison; ``evaluate`` (a
submodule) scores both against the labelled corpus. See ``docs/detector.md``.
"""

from ._analyze import analyze_code, clear_cache
from ._baseline import baseline_analysis
from ._behaviour import FOOTPRINT_MIN_EDITS as SKETCH_FOOTPRINT_MIN_EDITS
from ._behaviour import program_sketch
from ._model import ALL_FIELDS, ALL_OPS, CONTEXTVIEW_OPS, CodeAnalysis
from ._sketch import FOOTPRINT_FLOOR as SKETCH_FOOTPRINT_FLOOR
from ._sketch import FOOTPRINT_SIMILARITY as SKETCH_FOOTPRINT_SIMILARITY
from ._sketch import NUM_PERM as SKETCH_WORDS
from ._sketch import similarity as sketch_similarity

__all__ = [
    "ALL_FIELDS",
    "ALL_OPS",
    "CONTEXTVIEW_OPS",
    "SKETCH_FOOTPRINT_FLOOR",
    "SKETCH_FOOTPRINT_MIN_EDITS",
    "SKETCH_FOOTPRINT_SIMILARITY",
    "SKETCH_WORDS",
    "CodeAnalysis",
    "analyze_code",
    "baseline_analysis",
    "clear_cache",
    "program_sketch",
    "sketch_similarity",
]
