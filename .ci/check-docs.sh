#!/usr/bin/env bash
# Builds the DocC documentation of every library product's targets through swift-docc-plugin
# (`swift package generate-documentation`, as a user would) and fails on any warning: a broken
# symbol link, a missing parameter document, an article link that goes nowhere. Every package
# trait is on, so the trait-gated products (JOSEHummingbird on `Hummingbird`, say) have their
# code there to document; one trait set for all targets, so .build-docs builds each module once.
# Then checks that every public type is listed on its target's landing page
# (.ci/check-landing-pages.py).
set -euo pipefail
cd "$(dirname "$0")/.."

targets="$(swift package dump-package | python3 -c '
import json, sys
description = json.load(sys.stdin)
names = dict.fromkeys(t for p in description["products"] if "library" in p["type"] for t in p["targets"])
print(" ".join(names))')"
for target in $targets; do
    swift package --enable-all-traits --scratch-path .build-docs generate-documentation --target "$target" --warnings-as-errors
    echo "check-docs: the $target documentation builds without warnings"
done
python3 .ci/check-landing-pages.py
