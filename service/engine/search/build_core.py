"""The cffi builder of the search core (API mode): run by setuptools at install time through setup.py's
`cffi_modules`, never at run time. It compiles core/*.c into the extension `service.engine.search._core`,
whose interface is core/sanmoku_search.h (the service's, through native.py) and core/sanmoku_debug.h (the
tests', through tests/core_debug.py); and the same sources again, two words to a set of cells (core/mask.h)
into `service.engine.search._core_128`, for boards of up to 128 cells, and eight into
`service.engine.search._core_wide`, up to 512.

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
# The wide build passes its masks of 64 bytes by value; gcc notes that their calling convention differs
# between processors with AVX-512 and without, which concerns no code outside one extension.
WIDE_ARGS = ["-Wno-psabi"]


def declarations(header: Path, words: int) -> str:
    """The header as cffi's parser reads it for a build of `words` words: the branch of each
    `#if SS_MASK_WORDS == 1` block that the build compiles, SS_MASK_WORDS written as the number, and no
    other preprocessor lines."""
    kept, branches = [], []  # per open #if: None (not the width's), or whether this branch is kept
    for line in header.read_text().splitlines():
        directive = line.strip()
        if directive.startswith("#if"):
            width = directive.replace(" ", "") == "#ifSS_MASK_WORDS==1"
            branches.append((words == 1) if width else None)
        elif directive.startswith("#else") and branches[-1] is not None:
            branches[-1] = not branches[-1]
        elif directive.startswith("#endif"):
            branches.pop()
        elif not directive.startswith("#") and all(branch is not False for branch in branches):
            kept.append(line.replace("SS_MASK_WORDS", str(words)))
    return "\n".join(kept)


def builder(module: str, words: int) -> FFI:
    """The extension `module` of the core at a width of `words` words of 64 cells."""
    ffi = FFI()
    ffi.cdef("\n".join(declarations(header, words) for header in HEADERS))
    ffi.set_source(
        module,
        "\n".join(f'#include "{header.name}"' for header in HEADERS),
        sources=[str(path) for path in sorted(CORE.glob("*.c"))],
        include_dirs=[str(CORE)],
        define_macros=[("SS_MASK_WORDS", str(words))],
        extra_compile_args=COMPILE_ARGS + ([] if words == 1 else WIDE_ARGS),
        extra_link_args=LINK_ARGS,
    )
    return ffi


# The service's build, boards of up to 64 cells: a set of cells is one word.
ffibuilder = builder("service.engine.search._core", 1)
# Wider builds from the same sources (core/mask.h): two words, boards of up to 128 cells (9x9 to 11x11),
# and eight, up to 512 (20x20 and more); each set of cells costs its width in every operation.
builder_128 = builder("service.engine.search._core_128", 2)
wide_builder = builder("service.engine.search._core_wide", 8)
