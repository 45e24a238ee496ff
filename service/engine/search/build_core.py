"""The cffi builder of the search core (API mode): run by setuptools at install time through setup.py's
`cffi_modules`, never at run time. It compiles core/*.c into the extension `service.engine.search._core`,
whose interface is core/sanmoku_search.h (the service's, through native.py) and core/sanmoku_debug.h (the
tests', through tests/core_debug.py).

cffi runs this file with no `__file__`, from the project's root, so paths are relative to that root.
After changing the C, `pip install -e .` builds the extension again beside this file.
"""

from __future__ import annotations

import platform
from pathlib import Path

from cffi import FFI  # type: ignore[import-untyped,unused-ignore]  # no stubs in the test extra

CORE = Path("service/engine/search/core")
HEADERS = [CORE / "sanmoku_search.h", CORE / "sanmoku_debug.h"]
# No -march=native: a wheel must run on other machines. But x86-64's baseline has no popcount
# instruction, and gcc then calls a library function for every count (a fifth of the search's time):
# -mpopcnt asks for the instruction every x86-64 processor since 2008 has (x86-64-v2).
COMPILE_ARGS = ["-O3", "-std=c11", "-Wall", "-Wextra", "-Werror=implicit-function-declaration"]
if platform.machine().lower() in ("x86_64", "amd64"):
    COMPILE_ARGS.append("-mpopcnt")
# The provers of one analysis run on two POSIX threads (core/threads.c): -pthread when compiling (the
# thread-safe variants of the C library's headers) and when linking (libpthread on older glibc).
COMPILE_ARGS.append("-pthread")
LINK_ARGS = ["-pthread"]


def declarations(header: Path) -> str:
    """The header without its preprocessor lines: what cffi's parser reads."""
    return "\n".join(line for line in header.read_text().splitlines() if not line.lstrip().startswith("#"))


ffibuilder = FFI()
ffibuilder.cdef("\n".join(declarations(header) for header in HEADERS))
ffibuilder.set_source(
    "service.engine.search._core",
    "\n".join(f'#include "{header.name}"' for header in HEADERS),
    sources=[str(path) for path in sorted(CORE.glob("*.c"))],
    include_dirs=[str(CORE)],
    extra_compile_args=COMPILE_ARGS,
    extra_link_args=LINK_ARGS,
)
