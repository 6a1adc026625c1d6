"""Goal switches by a trained model over sentence-embedding and lexical features.

:class:`~.goal_embed.EmbeddingDetector` decides with hand-set rules over two
scores; :class:`LearnedDetector` lets a multinomial logistic regression
weigh features of the turn against the current goal and against an earlier
goal. :data:`FEATURES` (17, versions 1-2): embedding similarities to the
goal's turns and answers and to the latest answer, lexical coverage, how
long the turn is, cue words, how many goals there are and how long ago the
closest earlier one was current. Version 3, the shipped model, adds
:data:`ANSWER_FEATURES` (19): a :class:`Ranker` (a second logistic
regression over :data:`RANK_FEATURES`) picks the earlier goal a return
would meet, and the features compare the turn *and the answer it got*
(:func:`answer_of`) with that goal and with the current one. It says
``same_task``, ``new_goal`` or ``return`` (to the ranked earlier goal).

The weights ship with the code (``goal_model.json``, version 3;
``goal_model_v2.json``, answer-blind) and are applied with numpy alone;
``tools/train_goal_model.py`` re-fits them with scikit-learn from the
labelled conversations named in the file, and a test checks the shipped
files are what that script writes. The held-out figures are in
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

__all__ = [
    "ANSWER_FEATURES",
    "CLASSES",
    "FEATURES",
    "RANK_FEATURES",
    "GoalModel",
    "LearnedDetector",
    "Ranker",
    "answer_features",
    "answer_of",
    "rank_rows",
    "turn_features",
]

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

ANSWER_FEATURES: Final = (
    "ranked_best_cosine",  # the ranked earlier goal (below): best cosine with its turns and answers
    "ranked_user_cosine",  # ... with its user turns
    "ranked_first_cosine",  # ... with its first user turn
    "ranked_last_cosine",  # ... with its latest exchange (user turn and first answer)
    "ranked_coverage",  # lexical coverage of the turn by its exchanges
    "ranked_recency",  # user turns since it was current, capped at 6, / 6
    "ranked_minus_current",  # best cosine, ranked earlier goal minus current goal
    "ranked_last_minus_current_last",  # latest-exchange cosine, the same difference
    "ranked_margin",  # the ranker's score, top candidate minus the second, capped at 5, / 5
    "current_first_cosine",  # cosine with the current goal's first user turn
    "current_last_cosine",  # cosine with the current goal's latest exchange
    "current_turns",  # the current goal's user turns, capped at 6, / 6
    "current_is_one_turn",  # the current goal is a single user turn
    "novel_weight",  # share of the turn's IDF weight in words no earlier message has
    "answer_current_cosine",  # the turn's answer: best cosine with the current goal's units
    "answer_current_last_cosine",  # ... with the current goal's latest exchange
    "answer_ranked_cosine",  # ... with the ranked earlier goal's units
    "answer_ranked_last_cosine",  # ... with its latest exchange
    "answer_ranked_minus_current",  # the first minus the third
)
"""Version 3's features on top of :data:`FEATURES`: the ranked earlier goal, and the answer
the turn got (the assistant message right after it, when the transcript has one)."""

RANK_FEATURES: Final = (
    *(
        f"{name}{suffix}"
        for name in ("best", "user", "first", "last", "coverage", "answer", "answer_last")
        for suffix in ("", "_below_top")
    ),
    "recency",
    "turns",
)
"""The ranker's features of one candidate earlier goal: each of seven similarities with the
turn (the last two: with its answer), and how far it lies below the best candidate's."""

_QUESTION: Final = re.compile(
    r"^\s*(?:what|how|why|when|where|which|who|can you|could you|is there|are there|do you|"
    r"should i|i need|i want|help me|give me|recommend|suggest|explain)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Ranker:
    """A binary logistic regression over :data:`RANK_FEATURES`: which earlier goal a return meets."""

    mean: npt.NDArray[np.float64]
    scale: npt.NDArray[np.float64]
    coef: npt.NDArray[np.float64]
    intercept: float

    def scores(self, rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return np.asarray(((rows - self.mean) / self.scale) @ self.coef + self.intercept)


@dataclass(frozen=True, slots=True)
class GoalModel:
    """A fitted multinomial logistic regression: standardize, then softmax of ``coef @ x``.

    Version 3 models (``features`` = :data:`FEATURES` + :data:`ANSWER_FEATURES`) carry a
    :class:`Ranker` and read the answer each turn got; version 1-2 models (:data:`FEATURES`
    alone) read the turn and what came before it only.
    """

    mean: npt.NDArray[np.float64]
    scale: npt.NDArray[np.float64]
    coef: npt.NDArray[np.float64]
    intercept: npt.NDArray[np.float64]
    trained_on: Mapping[str, Any]
    ranker: Ranker | None = None

    @property
    def reads_answer(self) -> bool:
        return self.ranker is not None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GoalModel:
        features = tuple(data["features"])
        if features not in (FEATURES, FEATURES + ANSWER_FEATURES) or (
            tuple(data["classes"]) != CLASSES
        ):
            raise ValueError("the goal model's features or classes are not this code's")
        ranker = None
        if features != FEATURES:
            rank = data.get("ranker")
            if not isinstance(rank, Mapping) or tuple(rank.get("features", ())) != RANK_FEATURES:
                raise ValueError("a version 3 goal model needs a ranker over this code's features")
            ranker = Ranker(
                mean=np.asarray(rank["mean"], dtype=np.float64),
                scale=np.asarray(rank["scale"], dtype=np.float64),
                coef=np.asarray(rank["coef"], dtype=np.float64).reshape(-1),
                intercept=float(np.asarray(rank["intercept"], dtype=np.float64).reshape(-1)[0]),
            )
        return cls(
            mean=np.asarray(data["mean"], dtype=np.float64),
            scale=np.asarray(data["scale"], dtype=np.float64),
            coef=np.asarray(data["coef"], dtype=np.float64),
            intercept=np.asarray(data["intercept"], dtype=np.float64),
            trained_on=dict(data.get("trained_on", {})),
            ranker=ranker,
        )

    @classmethod
    def shipped(cls) -> GoalModel:
        """The weights in ``goal_model.json`` beside this module (version 3, reads answers)."""
        return cls._packaged("goal_model.json")

    @classmethod
    def answer_blind(cls) -> GoalModel:
        """Version 2 (``goal_model_v2.json``): decides before the turn is answered."""
        return cls._packaged("goal_model_v2.json")

    @classmethod
    def _packaged(cls, name: str) -> GoalModel:
        text = resources.files(__package__).joinpath(name).read_text("utf-8")
        return cls.from_json(json.loads(text))

    def probabilities(self, features: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        logits = self.coef @ ((features - self.mean) / self.scale) + self.intercept
        weights = np.exp(logits - logits.max())
        return np.asarray(weights / weights.sum(), dtype=np.float64)


@dataclass(frozen=True, slots=True)
class _Profile:
    """One goal's similarities with a turn (and with the answer the turn got)."""

    best: float
    user: float
    first: float
    last: float
    coverage: float
    answer: float
    answer_last: float
    recency: int
    turns: int


def answer_of(messages: Sequence[Mapping[str, Any]], turn: int) -> str:
    """The answer user turn ``turn`` got: the first assistant text after it, before the next
    user turn ("" when there is none: the transcript ends, or a user speaks first).

    Tool calls with no text and tool results are passed over: the answer is what the
    assistant said.
    """
    for message in messages[turn + 1 :]:
        role = message.get("role")
        if role == "user":
            break
        if role == "assistant" and (text := _text(message)).strip():
            return text
    return ""


def _profiles(
    messages: Sequence[Mapping[str, Any]],
    turn: int,
    earlier: Sequence[Switch],
    vectors: EmbeddingDetector,
    *,
    full: bool = True,
) -> tuple[dict[int, _Profile], float]:
    """Each goal's :class:`_Profile`, and the share of the turn's IDF weight no message had.

    The one pass over the goals that every feature reads. Without ``full`` only what
    :data:`FEATURES` reads is computed (best and user cosines, coverage, recency, turns);
    the rest is 0.
    """
    text = _text(messages[turn])
    lexical = vectors._lexical
    documents = lexical._goal_documents(messages, turn, earlier)
    weights = lexical._vector(terms(text), lexical._idf(messages, turn))
    units: defaultdict[int, list[str]] = defaultdict(list)
    users: defaultdict[int, list[str]] = defaultdict(list)
    last: dict[int, list[str]] = {}
    for goal, index, answers in goal_exchanges(messages, turn, earlier):
        user = _text(messages[index])
        exchange = [user, _text(messages[answers[0]])] if answers else [user]
        users[goal].append(user)
        units[goal].extend(exchange)
        last[goal] = exchange
    query = vectors._vector_of([text])[0]
    answer = answer_of(messages, turn) if full else ""
    answer_vector = vectors._vector_of([answer])[0] if answer else None
    starts = [switch.goal_start for switch in earlier]
    total = sum(weights.values())
    profiles = {}
    for goal, texts in units.items():
        unit_vectors = vectors._vector_of(texts)
        user_vectors = vectors._vector_of(users[goal])
        covered = sum(w for term, w in weights.items() if term in documents.get(goal, ()))
        first = last_cosine = answer_cosine = answer_last = 0.0
        if full:
            last_vectors = vectors._vector_of(last[goal])
            first = float(user_vectors[0] @ query)
            last_cosine = float(np.max(last_vectors @ query))
            if answer_vector is not None:
                answer_cosine = float(np.max(unit_vectors @ answer_vector))
                answer_last = float(np.max(last_vectors @ answer_vector))
        profiles[goal] = _Profile(
            best=float(np.max(unit_vectors @ query)),
            user=float(np.max(user_vectors @ query)),
            first=first,
            last=last_cosine,
            coverage=covered / total if total else 0.0,
            answer=answer_cosine,
            answer_last=answer_last,
            recency=len(starts) - 1 - max(i for i, g in enumerate(starts) if g == goal),
            turns=len(users[goal]),
        )
    novel = 0.0
    if full and total:
        seen = set().union(*documents.values()) if documents else set()
        novel = sum(w for term, w in weights.items() if term not in seen) / total
    return profiles, novel


def turn_features(
    messages: Sequence[Mapping[str, Any]],
    turn: int,
    earlier: Sequence[Switch],
    vectors: EmbeddingDetector,
    profiles: Mapping[int, _Profile] | None = None,
) -> tuple[npt.NDArray[np.float64], int, int | None]:
    """:data:`FEATURES` of user turn ``turn``, the current goal, and the closest earlier goal.

    ``earlier`` is not empty. ``vectors`` embeds texts (its cache is reused);
    ``profiles`` are the goals' :func:`_profiles` when the caller has them.
    """
    text = _text(messages[turn])
    current = earlier[-1].goal_start
    if profiles is None:
        profiles, _ = _profiles(messages, turn, earlier, vectors, full=False)
    query = vectors._vector_of([text])[0]
    scores = {goal: (p.best, p.user, p.coverage) for goal, p in profiles.items()}
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


_RANKED: Final = ("best", "user", "first", "last", "coverage", "answer", "answer_last")


def _rank_row(
    profiles: Mapping[int, _Profile], goal: int, candidates: Sequence[int]
) -> list[float]:
    row: list[float] = []
    for name in _RANKED:
        value = getattr(profiles[goal], name)
        row += [value, value - max(getattr(profiles[c], name) for c in candidates)]
    return [*row, min(profiles[goal].recency, 6) / 6, min(profiles[goal].turns, 6) / 6]


def rank_rows(
    messages: Sequence[Mapping[str, Any]],
    turn: int,
    earlier: Sequence[Switch],
    vectors: EmbeddingDetector,
) -> tuple[list[int], npt.NDArray[np.float64]]:
    """The earlier goals a return could meet (all but the current) and their ranker rows."""
    profiles, _ = _profiles(messages, turn, earlier, vectors)
    current = earlier[-1].goal_start
    candidates = [goal for goal in profiles if goal != current]
    rows = [_rank_row(profiles, goal, candidates) for goal in candidates]
    return candidates, np.asarray(rows, dtype=np.float64).reshape(len(candidates), -1)


def answer_features(
    messages: Sequence[Mapping[str, Any]],
    turn: int,
    earlier: Sequence[Switch],
    vectors: EmbeddingDetector,
    ranker: Ranker,
    profiled: tuple[Mapping[int, _Profile], float] | None = None,
) -> tuple[npt.NDArray[np.float64], int | None]:
    """:data:`ANSWER_FEATURES` of user turn ``turn``, and the earlier goal ``ranker`` ranks first.

    ``earlier`` is not empty. The turn's answer is :func:`answer_of`; without one the
    answer features are 0. ``profiled`` is :func:`_profiles`' answer when the caller has it.
    """
    profiles, novel = profiled or _profiles(messages, turn, earlier, vectors)
    current = profiles[earlier[-1].goal_start]
    candidates = [goal for goal in profiles if goal != earlier[-1].goal_start]
    best: int | None = None
    margin = 0.0
    if candidates:
        scores = ranker.scores(
            np.asarray([_rank_row(profiles, g, candidates) for g in candidates], dtype=np.float64)
        )
        order = np.argsort(-scores, kind="stable")
        best = candidates[int(order[0])]
        margin = float(scores[order[0]] - scores[order[1]]) if len(candidates) > 1 else 5.0
    ranked = profiles[best] if best is not None else _Profile(0, 0, 0, 0, 0, 0, 0, 0, 0)
    values = [
        *(ranked.best, ranked.user, ranked.first, ranked.last, ranked.coverage),
        min(ranked.recency, 6) / 6 if best is not None else 0.0,
        ranked.best - current.best,
        ranked.last - current.last,
        min(margin, 5.0) / 5,
        current.first,
        current.last,
        min(current.turns, 6) / 6,
        float(current.turns == 1),
        novel,
        current.answer,
        current.answer_last,
        ranked.answer,
        ranked.answer_last,
        ranked.answer - current.answer,
    ]
    return np.asarray(values, dtype=np.float64), best


class LearnedDetector:
    """Goal switches from the shipped logistic model over :data:`FEATURES` (+ :data:`ANSWER_FEATURES`).

    ``embed`` as for :class:`~.goal_embed.EmbeddingDetector` (default: the
    bundled all-MiniLM-L6-v2, loaded on first use); ``model`` defaults to the
    shipped weights (version 3: it reads the answer each turn got, when
    ``messages`` holds it; :meth:`GoalModel.answer_blind` does not).
    """

    def __init__(self, embed: Embedder | None = None, model: GoalModel | None = None) -> None:
        self._vectors = EmbeddingDetector(embed)
        self.model = model or GoalModel.shipped()

    def classify(
        self, messages: Sequence[Mapping[str, Any]], turn: int, earlier: Sequence[Switch]
    ) -> Switch:
        if not earlier:
            return Switch("first_need", turn)
        ranker = self.model.ranker
        if ranker is None:
            values, current, best = turn_features(messages, turn, earlier, self._vectors)
        else:
            profiled = _profiles(messages, turn, earlier, self._vectors)
            values, current, _ = turn_features(messages, turn, earlier, self._vectors, profiled[0])
            extra, best = answer_features(messages, turn, earlier, self._vectors, ranker, profiled)
            values = np.concatenate([values, extra])
        reason = CLASSES[int(np.argmax(self.model.probabilities(values)))]
        if reason == "return" and best is not None:
            return Switch("return", best, returns_to=best)
        if reason == "new_goal":
            return Switch("new_goal", turn)
        return Switch("same_task", current)
