#!/usr/bin/env bash
# Builds the DocC documentation of every library product's targets through swift-docc-plugin
# (`swift package generate-documentation`, as a user would) and fails on any warning: a broken
# symbol link, a missing parameter document, an article link that goes nowhere. A target whose
# dependencies are conditional on package traits (JOSEHummingbird on `Hummingbird`, say) is
# documented with those traits on, so its trait-gated code is there to document. Then checks
# that every public type is listed on its target's landing page (.ci/check-landing-pages.py).
set -euo pipefail
cd "$(dirname "$0")/.."

# One line per library target: its name, then the traits its dependencies are conditional on
# (comma-separated, possibly none), gathered through the package's own targets it depends on.
targets="$(swift package dump-package | python3 -c '
import json, sys
description = json.load(sys.stdin)
by_name = {t["name"]: t for t in description["targets"]}

def traits_in(value):
    """Every trait named in a dependency condition, wherever it sits in the JSON."""
    found = set()
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "traits" and isinstance(inner, list):
                found.update(name for name in inner if isinstance(name, str))
            else:
                found |= traits_in(inner)
    elif isinstance(value, list):
        for inner in value:
            found |= traits_in(inner)
    return found

def target_traits(name, seen):
    if name in seen or name not in by_name:
        return set()
    seen.add(name)
    found = set()
    for dependency in by_name[name].get("dependencies", []):
        found |= traits_in(dependency)
        for kind in ("byName", "target"):
            if kind in dependency and dependency[kind]:
                found |= target_traits(dependency[kind][0], seen)
    return found

names = dict.fromkeys(t for p in description["products"] if "library" in p["type"] for t in p["targets"])
for name in names:
    print(name, ",".join(sorted(target_traits(name, set()))))')"
while read -r target traits; do
    trait_options=()
    [ -n "$traits" ] && trait_options=(--traits "$traits")
    swift package "${trait_options[@]}" --scratch-path .build-docs generate-documentation --target "$target" --warnings-as-errors
    echo "check-docs: the $target documentation builds without warnings${traits:+ (traits: $traits)}"
done <<<"$targets"
python3 .ci/check-landing-pages.py
