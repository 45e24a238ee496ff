"""The cffi builder of the search core (API mode): run by setuptools at install time through setup.py's
`cffi_modules`, never at run time. It compiles core/*.c into the extension `service.engine.search._core`.

cffi runs this file with no `__file__`, from the project's root, so paths are relative to that root.
After changing the C, `pip install -e .` builds the extension again beside this file.
"""

from __future__ import annotations

from pathlib import Path

from cffi import FFI  # type: ignore[import-untyped,unused-ignore]  # no stubs in the test extra

CORE = Path("service/engine/search/core")
HEADER = CORE / "sanmoku_search.h"
# -O3 and the host's popcount matter most; no -march=native: a wheel must run on other machines.
COMPILE_ARGS = ["-O3", "-std=c11", "-Wall", "-Wextra", "-Werror=implicit-function-declaration"]


def declarations(header: Path) -> str:
    """The header without its preprocessor lines: what cffi's parser reads."""
    return "\n".join(line for line in header.read_text().splitlines() if not line.lstrip().startswith("#"))


ffibuilder = FFI()
ffibuilder.cdef(declarations(HEADER))
ffibuilder.set_source(
    "service.engine.search._core",
    f'#include "{HEADER.name}"',
    sources=[str(path) for path in sorted(CORE.glob("*.c"))],
    include_dirs=[str(CORE)],
    extra_compile_args=COMPILE_ARGS,
)
