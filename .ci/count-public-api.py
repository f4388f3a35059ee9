#!/usr/bin/env python3
"""Counts the public API of library modules: the symbols their symbol graph lists at public access
(types, members, cases, initializers), not counting members the compiler synthesizes or a
protocol's default implementations. Reads the modules a build left in BUILD_DIR/Modules.

    python3 .ci/count-public-api.py .build/debug JOSE JOSEOAuth
"""
import json
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
build = pathlib.Path(sys.argv[1]).resolve()
for module in sys.argv[2:]:
    with tempfile.TemporaryDirectory() as output:
        subprocess.run(["swift-symbolgraph-extract", "-module-name", module, "-target", "x86_64-unknown-linux-gnu",
                        "-I", str(build / "Modules"), "-I", str(ROOT / "Sources" / "COpenSSL"),
                        "-I", str(ROOT / "Sources" / "CJOSEBase64" / "include"),
                        "-minimum-access-level", "public", "-output-dir", output], check=True)
        symbols = json.loads((pathlib.Path(output) / f"{module}.symbols.json").read_text())["symbols"]
    own = [s for s in symbols if "::SYNTHESIZED::" not in s["identifier"]["precise"]]
    print(f"{module}: {len(own)} public declarations")
