# The extension cffi builds from core/ (build_core.py): its objects are cdata, typed through native.py.
from typing import Any

ffi: Any
lib: Any
