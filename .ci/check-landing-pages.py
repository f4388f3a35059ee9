#!/usr/bin/env python3
"""Fails when a public type of a library product is missing from its DocC landing page's topics.

For every target of every library product in Package.swift, the top-level public types
(`public struct/class/enum/protocol/actor/typealias` at the start of a line; nested types are
reached through their parent's page; names starting with `_`, which DocC leaves out, are
skipped) must each appear as ``Name`` in a topic group, below
`## Topics`, of the landing page `Sources/<Target>/<Target>.docc/<Target>.md`. A target with a
public type and no landing page fails too.

    python3 .ci/check-landing-pages.py                      # every library product's targets
    python3 .ci/check-landing-pages.py SOURCES LANDING.md   # one source folder against one page
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PUBLIC_TYPE = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:final\s+)?(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)",
    re.MULTILINE)


def public_types(sources: pathlib.Path) -> set[str]:
    """The top-level public type names declared in the Swift files under `sources`."""
    names: set[str] = set()
    for path in sources.rglob("*.swift"):
        names.update(PUBLIC_TYPE.findall(path.read_text(encoding="utf-8")))
    return {name for name in names if not name.startswith("_")}


def curated(landing: pathlib.Path) -> set[str]:
    """The symbols a landing page lists in its topic groups (the lines after `## Topics`)."""
    text = landing.read_text(encoding="utf-8")
    _, _, topics = text.partition("\n## Topics")
    return set(re.findall(r"^\s*-\s+``([^`/]+)``", topics, re.MULTILINE))


def check(target: str, sources: pathlib.Path, landing: pathlib.Path) -> list[str]:
    """One line per public type of `sources` that `landing` does not list."""
    types = public_types(sources)
    if not types:
        return []
    if not landing.exists():
        return [f"{target}: no landing page at {landing}, for its {len(types)} public types"]
    return [f"{target}: public type {name} is in no topic group of {landing}"
            for name in sorted(types - curated(landing))]


def library_targets() -> list[tuple[str, pathlib.Path]]:
    """Each target of a library product, with its source folder."""
    description = json.loads(subprocess.run(
        ["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True).stdout)
    paths = {t["name"]: ROOT / (t.get("path") or f"Sources/{t['name']}") for t in description["targets"]}
    names = dict.fromkeys(
        name for product in description["products"] if "library" in product["type"]
        for name in product["targets"])
    return [(name, paths[name]) for name in names]


def main() -> int:
    if len(sys.argv) == 3:
        problems = check("given", pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]))
        checked = 1
    else:
        targets = library_targets()
        problems = [line for name, sources in targets
                    for line in check(name, sources, sources / f"{name}.docc" / f"{name}.md")]
        checked = len(targets)
    for line in problems:
        print(line)
    if problems:
        print(f"check-landing-pages: FAILED: {len(problems)} public types are not on their landing page")
        return 1
    print(f"check-landing-pages: every public type of {checked} targets is on its landing page")
    return 0


if __name__ == "__main__":
    sys.exit(main())
