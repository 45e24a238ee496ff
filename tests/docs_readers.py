"""Words per reader of the documentation site, and the average sentence's length.

`python -m tests.docs_readers [--pages] [REV]` counts the site at a git revision (default: the working
tree), and with `--pages` each page too.
A page's reader is its part of the navigation (Use, Operate, Internals). A site whose navigation has no
parts (before the docs were split by reader) is counted by where each page went: `PLANNED`. Pages
outside the site (docs/notes/) are counted apart, as records. Words are whitespace-separated tokens, as
`wc -w` counts them; sentences are counted in prose only (no code blocks, tables or headings)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
READERS = {"Use": "users", "Operate": "operators", "Internals": "maintainers"}
PLANNED = {
    **dict.fromkeys(["index.md", "variants.md", "api.md", "cli.md"], "users"),
    **dict.fromkeys(["deployment.md", "tables.md", "tables-v3.md", "performance.md"], "operators"),
}
SENTENCE_END = re.compile(r"(?<=[.!?])[)\"']?\s+(?=[A-Z`*(\[\"0-9])")


def read(rev: str | None, path: str) -> str:
    if rev is None:
        return (ROOT / path).read_text()
    return subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{rev}:{path}"], capture_output=True, text=True, check=True
    ).stdout


def files(rev: str | None, folder: str) -> list[str]:
    if rev is None:
        return sorted(str(p.relative_to(ROOT)) for p in (ROOT / folder).glob("*.md"))
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-tree", "--name-only", f"{rev}:{folder}"],
        capture_output=True, text=True, check=False,
    ).stdout.split()  # fmt: skip
    return sorted(f"{folder}/{name}" for name in listed if name.endswith(".md"))


def readers(rev: str | None) -> dict[str, str]:
    """Each page of the site (its file name) and its reader."""
    nav = yaml.safe_load(read(rev, "docs/mkdocs.yml"))["nav"]
    found: dict[str, str] = {}
    for entry in nav:
        ((title, target),) = entry.items()
        if isinstance(target, list):
            for page in target:
                ((_, name),) = page.items()
                found[name] = READERS[title]
        else:
            found[target] = PLANNED.get(target, "maintainers")
    return found


def prose(text: str) -> list[str]:
    """The paragraphs and list items of a page, each on one line."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    paragraphs: list[str] = []
    current: list[str] = []
    for line in [*text.splitlines(), ""]:
        stripped = line.strip()
        starts_item = re.match(r"^([-*]|\d+\.)\s", stripped) is not None
        if not stripped or stripped.startswith(("#", "|")) or starts_item:
            if current:
                paragraphs.append(" ".join(current))
            current = []
            if starts_item:
                current = [re.sub(r"^([-*]|\d+\.)\s+", "", stripped)]
            continue
        current.append(stripped)
    return paragraphs


def sentences(text: str) -> list[int]:
    """The length in words of each sentence of a page's prose."""
    return [len(s.split()) for para in prose(text) for s in SENTENCE_END.split(para) if s.split()]


def main() -> None:
    args = [arg for arg in sys.argv[1:] if arg != "--pages"]
    rev = args[0] if args else None
    site = readers(rev)
    words: dict[str, int] = {}
    lengths: list[int] = []
    for name, reader in site.items():
        text = read(rev, f"docs/pages/{name}")
        words[reader] = words.get(reader, 0) + len(text.split())
        lengths += sentences(text)
        if "--pages" in sys.argv:
            page = sentences(text)
            print(f"{name:18} {reader:12} {len(text.split()):6,} words, {sum(page) / len(page):.1f} each")
    notes = sum(len(read(rev, path).split()) for path in files(rev, "docs/notes"))
    readme = read(rev, "README.md")
    total = sum(words.values())
    for reader in ("users", "operators", "maintainers"):
        share = words.get(reader, 0) / total
        print(f"{reader:12} {words.get(reader, 0):7,} words ({share:.0%} of the site)")
    print(f"{'site':12} {total:7,} words in {len(site)} pages")
    print(f"{'notes':12} {notes:7,} words outside the site (docs/notes/)")
    print(f"{'README':12} {len(readme.split()):7,} words")
    print(f"sentences    {len(lengths):7,} in the site, {sum(lengths) / len(lengths):.1f} words on average")
    long = sum(1 for n in lengths if n > 40)
    print(f"             {long:7,} of more than 40 words")
    readme_lengths = sentences(readme)
    print(f"README       {sum(readme_lengths) / len(readme_lengths):.1f} words a sentence on average")


if __name__ == "__main__":
    main()
