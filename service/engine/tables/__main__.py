"""`python -m service.engine.tables --dir DIR`: the background builder (see `builder`)."""

import sys

from .builder import main

sys.exit(main())
