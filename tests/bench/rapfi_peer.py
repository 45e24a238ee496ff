"""Rapfi (github.com/dhbloo/rapfi, C++, GPL-3) as a peer of the gomoku benchmark (gomoku_peer.py): built
from its own source outside this repository and run only as a separate program through the Gomocup
protocol. No Rapfi code is in this project; this script only runs its build and writes its config.

    python -m tests.bench.rapfi_peer build RAPFI_DIR NETWORKS_DIR   # cmake + g++, then the config
    python -m tests.bench.rapfi_peer path RAPFI_DIR                 # the protocol binary, if built

RAPFI_DIR is a checkout of dhbloo/rapfi, NETWORKS_DIR one of dhbloo/rapfi-networks (its classical
evaluation models; its neural network weights are Git LFS files this machine cannot fetch). `build` runs,
in RAPFI_DIR/Rapfi:

    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ -DCMAKE_C_COMPILER=gcc
    cmake --build build -j2

which makes RAPFI_DIR/Rapfi/build/pbrain-rapfi (Debian 12's g++ 12.2 and cmake 3.25; the build picks the
host's instruction sets). It then writes RAPFI_DIR/classical.toml beside it: NETWORKS_DIR's
config-example/config.toml with its `[model.evaluator]` tables left out (so Rapfi evaluates by its
classical model, the weights being absent), `binary_file = "model220723.bin"` (copied next to the config),
and `coord_conversion_mode = "none"` (Piskvork's x,y). Run it as `pbrain-rapfi --config classical.toml`
from RAPFI_DIR. Measured here with rapfi at 3aedf3a and rapfi-networks at 918b757.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

MODEL = "model220723.bin"  # the newer of the two classical models
CONFIG = "classical.toml"


def binary(rapfi_dir: Path) -> Path:
    return rapfi_dir / "Rapfi" / "build" / "pbrain-rapfi"


def config_text(example: str) -> str:
    """The example config, evaluating by the classical model: without its `[model.evaluator]` tables."""
    start, end = example.index("[model.evaluator]"), example.index("[search]")
    text = example[:start] + example[end:]
    text = text.replace('binary_file = "model210901.bin"', f'binary_file = "{MODEL}"')
    if f'binary_file = "{MODEL}"' not in text or 'coord_conversion_mode = "none"' not in text:
        raise SystemExit("the example config changed: read it and update config_text")
    return text


def build(rapfi_dir: Path, networks_dir: Path) -> Path:
    source = rapfi_dir / "Rapfi"
    configure = ["cmake", "-S", ".", "-B", "build", "-DCMAKE_BUILD_TYPE=Release"]
    commands = [
        [*configure, "-DCMAKE_CXX_COMPILER=g++", "-DCMAKE_C_COMPILER=gcc"],
        ["cmake", "--build", "build", "-j2"],
    ]
    for command in commands:
        print("+", " ".join(command), flush=True)
        subprocess.run(command, cwd=source, check=True)
    example = (networks_dir / "config-example" / "config.toml").read_text(encoding="utf-8")
    (rapfi_dir / CONFIG).write_text(config_text(example), encoding="utf-8")
    shutil.copyfile(networks_dir / "classical" / MODEL, rapfi_dir / MODEL)
    return binary(rapfi_dir)


def command(rapfi_dir: Path) -> list[str]:
    """The peer's command line, to run with RAPFI_DIR as its working directory."""
    found = binary(rapfi_dir)
    if not found.is_file() or not (rapfi_dir / CONFIG).is_file():
        raise SystemExit(f"no Rapfi build in {rapfi_dir}: run `python -m tests.bench.rapfi_peer build` first")
    return [str(found), "--config", CONFIG]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["build", "path"])
    parser.add_argument("rapfi_dir", type=Path)
    parser.add_argument("networks_dir", type=Path, nargs="?")
    args = parser.parse_args()
    if args.what == "build":
        if args.networks_dir is None:
            sys.exit("build needs NETWORKS_DIR (a checkout of dhbloo/rapfi-networks)")
        print(build(args.rapfi_dir.resolve(), args.networks_dir.resolve()))
    else:
        print(" ".join(command(args.rapfi_dir.resolve())))


if __name__ == "__main__":
    main()
