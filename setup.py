"""Only the compiled search core is declared here (cffi's setuptools hook); everything else about the
package is in pyproject.toml."""

from setuptools import setup

setup(
    cffi_modules=[
        "service/engine/search/build_core.py:ffibuilder",  # boards of up to 64 cells
        "service/engine/search/build_core.py:builder_128",  # up to 128 (core/mask.h)
        "service/engine/search/build_core.py:wide_builder",  # up to 512
    ]
)
