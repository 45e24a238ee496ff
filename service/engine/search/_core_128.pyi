# A wide build of the core (build_core.py, two words to a set of cells): cdata, typed through native.py.
from typing import Any

ffi: Any
lib: Any
