"""Goal switches by a trained model over sentence-embedding and lexical features.

:class:`~.goal_embed.EmbeddingDetector` decides with hand-set rules over two
scores; :class:`LearnedDetector` lets a multinomial logistic regression
weigh 17 features of the turn against the current goal and against the
closest earlier goal (:data:`FEATURES`): embedding similarities to the
goal's turns and answers and to the latest answer, lexical coverage, how
long the turn is, cue words, how many goals there are and how long ago the
closest earlier one was current. It says ``same_task``, ``new_goal`` or
``return`` (to that closest earlier goal).

The weights ship with the code (``goal_model.json``) and are applied with
numpy alone; ``tools/train_goal_model.py`` re-fits them with scikit-learn
from the labelled conversations named in the file, and a test checks the
shipped file is what that script writes. The held-out figures are in
``docs/goals.md``.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from .goal_detect import (
    _FOLLOW_UP,
    _REFERENCE,
    _RETURN_CUE,
    Switch,
    _text,
    goal_exchanges,
    terms,
)
from .goal_embed import _NEW_CUE, EMBEDDING_WEIGHT, Embedder, EmbeddingDetector

__all__ = ["CLASSES", "FEATURES", "GoalModel", "LearnedDetector", "turn_features"]

CLASSES: Final = ("same_task", "new_goal", "return")

FEATURES: Final = (
    "current_best_cosine",  # best cosine with the current goal's turns and answers
    "latest_message_cosine",  # cosine with the message just before the turn (its answer)
    "current_user_cosine",  # best cosine with the current goal's user turns
    "current_coverage",  # lexical coverage of the turn by the current goal
    "earlier_best_cosine",  # the same three for the closest earlier goal
    "earlier_user_cosine",
    "earlier_coverage",
    "earlier_minus_current",  # blended score (0.8 cosine + 0.2 coverage) difference
    "content_words",  # distinct content words, capped at 12, / 12
    "log_characters",  # log(1 + characters) / 6
    "follow_up_cue",  # "and ...", "also ...", "what about ..."
    "return_cue",  # "back to ...", "you mentioned ..."
    "new_topic_cue",  # "totally different", "by the way"
    "reference",  # a pronoun or "that one"
    "question_opening",  # "how do I ...", "can you ...", "recommend ..."
    "goals_so_far",  # capped at 8, / 8
    "closest_earlier_recency",  # user turns since that goal was current, capped at 6, / 6
)

_QUESTION: Final = re.compile(
    r"^\s*(?:what|how|why|when|where|which|who|can you|could you|is there|are there|do you|"
    r"should i|i need|i want|help me|give me|recommend|suggest|explain)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class GoalModel:
    """A fitted multinomial logistic regression: standardize, then softmax of ``coef @ x``."""

    mean: npt.NDArray[np.float64]
    scale: npt.NDArray[np.float64]
    coef: npt.NDArray[np.float64]
    intercept: npt.NDArray[np.float64]
    trained_on: Mapping[str, Any]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GoalModel:
        if tuple(data["features"]) != FEATURES or tuple(data["classes"]) != CLASSES:
            raise ValueError("the goal model's features or classes are not this code's")
        return cls(
            mean=np.asarray(data["mean"], dtype=np.float64),
            scale=np.asarray(data["scale"], dtype=np.float64),
            coef=np.asarray(data["coef"], dtype=np.float64),
            intercept=np.asarray(data["intercept"], dtype=np.float64),
            trained_on=dict(data.get("trained_on", {})),
        )

    @classmethod
    def shipped(cls) -> GoalModel:
        """The weights in ``goal_model.json`` beside this module."""
        text = resources.files(__package__).joinpath("goal_model.json").read_text("utf-8")
        return cls.from_json(json.loads(text))

    def probabilities(self, features: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        logits = self.coef @ ((features - self.mean) / self.scale) + self.intercept
        weights = np.exp(logits - logits.max())
        return np.asarray(weights / weights.sum(), dtype=np.float64)


def turn_features(
    messages: Sequence[Mapping[str, Any]],
    turn: int,
    earlier: Sequence[Switch],
    vectors: EmbeddingDetector,
) -> tuple[npt.NDArray[np.float64], int, int | None]:
    """:data:`FEATURES` of user turn ``turn``, the current goal, and the closest earlier goal.

    ``earlier`` is not empty. ``vectors`` embeds texts (its cache is reused).
    """
    text = _text(messages[turn])
    current = earlier[-1].goal_start
    query, similarities = vectors.similarities(messages, turn, earlier, text)
    user_texts: defaultdict[int, list[str]] = defaultdict(list)
    for goal, index, _ in goal_exchanges(messages, turn, earlier):
        user_texts[goal].append(_text(messages[index]))
    scores = {
        goal: (cosine, float(np.max(vectors._vector_of(user_texts[goal]) @ query)), coverage)
        for goal, (cosine, coverage) in similarities.items()
    }
    latest = _text(messages[turn - 1]) if turn > 0 else ""
    latest_cosine = float(vectors._vector_of([latest])[0] @ query) if latest else 0.0

    def blended(goal: int) -> float:
        cosine, _, coverage = scores[goal]
        return EMBEDDING_WEIGHT * cosine + (1 - EMBEDDING_WEIGHT) * coverage

    others = [goal for goal in scores if goal != current]
    best = max(others, key=lambda g: (blended(g), g), default=None)
    if best is None:
        closest, recency, difference = (0.0, 0.0, 0.0), 0, -blended(current)
    else:
        closest = scores[best]
        starts = [switch.goal_start for switch in earlier]
        recency = len(starts) - 1 - max(i for i, g in enumerate(starts) if g == best)
        difference = blended(best) - blended(current)
    words = len(set(terms(text)))
    values = [
        *(scores[current][0], latest_cosine, scores[current][1], scores[current][2]),
        *closest,
        difference,
        min(words, 12) / 12,
        math.log1p(len(text)) / 6,
        float(bool(_FOLLOW_UP.search(text))),
        float(bool(_RETURN_CUE.search(text))),
        float(bool(_NEW_CUE.search(text))),
        float(bool(_REFERENCE.search(text))),
        float(bool(_QUESTION.search(text))),
        min(len(scores), 8) / 8,
        min(recency, 6) / 6,
    ]
    return np.asarray(values, dtype=np.float64), current, best


class LearnedDetector:
    """Goal switches from the shipped logistic model over :data:`FEATURES`.

    ``embed`` as for :class:`~.goal_embed.EmbeddingDetector` (default: the
    bundled all-MiniLM-L6-v2, loaded on first use); ``model`` defaults to the
    shipped weights.
    """

    def __init__(self, embed: Embedder | None = None, model: GoalModel | None = None) -> None:
        self._vectors = EmbeddingDetector(embed)
        self.model = model or GoalModel.shipped()

    def classify(
        self, messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
    ) -> Switch:
        if not earlier:
            return Switch("first_need", turn)
        values, current, best = turn_features(messages, turn, earlier, self._vectors)
        reason = CLASSES[int(np.argmax(self.model.probabilities(values)))]
        if reason == "return" and best is not None:
            return Switch("return", best, returns_to=best)
        if reason == "new_goal":
            return Switch("new_goal", turn)
        return Switch("same_task", current)
