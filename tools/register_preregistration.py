"""Record the pre-registration's hash as registered: ``data/preregistration.toml.sha256``.

Run once per (amended) version, right after setting ``[registration]
registered_at``::

    python tools/register_preregistration.py

The report then dates the file from ``registered_at`` whenever its content
still has this hash, whatever the file's modification time (a wheel install
or a fresh clone sets it to *now*). ``tests/test_verdict.py`` fails when the
file changes without being registered again.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

FILE = Path(__file__).resolve().parent.parent / "data" / "preregistration.toml"


def main() -> int:
    digest = hashlib.sha256(FILE.read_bytes()).hexdigest()
    FILE.with_name(FILE.name + ".sha256").write_text(f"{digest}  {FILE.name}\n", encoding="utf-8")
    print(f"registered {FILE.name}: {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
