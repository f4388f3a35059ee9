#!/usr/bin/env bash
# Builds the DocC documentation of every library product's targets through swift-docc-plugin
# (`swift package generate-documentation`, as a user would) and fails on any warning: a broken
# symbol link, a missing parameter document, an article link that goes nowhere. Every package
# server trait is on (.ci/server-traits), so the trait-gated products (JOSEHummingbird on
# `Hummingbird`, say) have their code there to document. It uses the package's own .build with
# the trait set of the README's test command, so after that build it only extracts symbols.
# Then checks that every public type is listed on its target's landing page
# (.ci/check-landing-pages.py).
#
# JOSEAppleLogin's sources are Apple-only: off Darwin it is an empty module, whose catalog's
# symbol links would all be broken, so its documentation is built on Darwin only. Its landing
# page is still checked below, and its code and snippets by .ci/apple-typecheck.
set -euo pipefail
cd "$(dirname "$0")/.."

targets="$(swift package dump-package | APPLE_ONLY="$([ "$(uname)" = Darwin ] || echo JOSEAppleLogin)" python3 -c '
import json, os, sys
description = json.load(sys.stdin)
skipped = set(os.environ["APPLE_ONLY"].split())
names = dict.fromkeys(t for p in description["products"] if "library" in p["type"] for t in p["targets"] if t not in skipped)
print(" ".join(names))')"
# One plugin run for all of them: the package graph is loaded and the build checked once.
# shellcheck disable=SC2086 # $targets is a list of target names, split on purpose
swift package --traits "$(.ci/server-traits)" generate-documentation $(printf -- '--target %s ' $targets) --warnings-as-errors
echo "check-docs: the documentation of $targets builds without warnings"
python3 .ci/check-landing-pages.py
