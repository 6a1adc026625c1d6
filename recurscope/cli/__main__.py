"""``python -m recurscope.cli``: the ``recurscope`` command."""

import sys

from recurscope.cli import main

sys.exit(main())
