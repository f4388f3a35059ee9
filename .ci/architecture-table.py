#!/usr/bin/env python3
"""Writes, or checks, the table of targets in Architecture.md from Package.swift.

The table lists every target of the manifest (`swift package dump-package`): its kind, the
product that offers it and the package trait it needs, the targets of this package it depends
on, and what it is. A library's "what" is the abstract of its DocC catalog
(`Sources/NAME/NAME.docc/NAME.md`); a test target's names the target it tests (its own name
without `Tests`, else its dependencies); the few others are described below, and a target with
no description fails the run. After the table, the libraries without a test target of their own. So a target added, removed,
renamed, moved behind a trait or given another dependency changes the table, and CI refuses an
Architecture.md that was not regenerated.

    python3 .ci/architecture-table.py            # fails when Architecture.md differs
    python3 .ci/architecture-table.py --write    # regenerates it
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "Sources/JOSE/JOSE.docc/Architecture.md"
BEGIN = "<!-- targets: generated from Package.swift by .ci/architecture-table.py; do not edit -->"
END = "<!-- targets: end -->"

# What the targets without a DocC catalog are.
DESCRIPTIONS = {
    "COpenSSL": "the system-library target over the distribution's OpenSSL 3 (pkg-config `openssl`)",
    "CJOSEBase64": "C: the bulk of base64url decoding, 32 or 16 characters at a time with AVX2 or SSSE3 "
                   "on x86 (elsewhere it decodes nothing and `Base64URL` does it all)",
    "SwiftCryptoBackend": "no code: swift-crypto's products in JOSE's build under the `SwiftCrypto` trait",
    "JOSEPrimitiveSignatureCheck": "the bare crypto-backend check `jose bench` measures against",
    "JOSEBatchIO": "the byte-level input and output of `jose verify --batch`: the line reader over a read or "
                   "mapped stdin, and the check that a verified token's JSON can be copied to the output",
    "JOSECLI": "the `jose` executable (swift-argument-parser), a thin layer over the public API "
               "(<doc:CommandLineTool>)",
    "core-only-program": "a program that verifies a token with `import JOSE` alone: what the core links",
    "JOSETestSupport": "what the test targets share: real HTTP servers on 127.0.0.1, the built `jose`, "
                       "the adapter conformance suite, sanitizer tags",
}


def dependency_name(dependency: dict) -> tuple[str, list[str]]:
    """The name a manifest dependency refers to, and the traits its condition names."""
    values = next(iter(dependency.values()))
    condition = values[-1] if isinstance(values[-1], dict) else None
    return values[0], (condition or {}).get("traits", [])


def abstract(target: str) -> str | None:
    """The first paragraph after the title of the target's DocC catalog root, on one line."""
    root = ROOT / "Sources" / target / f"{target}.docc" / f"{target}.md"
    if not root.exists():
        return None
    paragraphs = re.split(r"\n\s*\n", root.read_text())
    return " ".join(paragraphs[1].split()) if len(paragraphs) > 1 else None


def table(manifest: dict) -> str:
    """The Markdown table of the manifest's targets."""
    targets = [target["name"] for target in manifest["targets"]]
    products = {}
    for product in manifest["products"]:
        for target in product["targets"]:
            products.setdefault(target, []).append(product["name"])
    rows = ["| target | kind | product | trait | depends on | what |", "|---|---|---|---|---|---|"]
    missing = []
    for target in manifest["targets"]:
        name = target["name"]
        internal, traits = [], set()
        for dependency in target["dependencies"]:
            dependency_target, dependency_traits = dependency_name(dependency)
            traits.update(dependency_traits)
            if dependency_target in targets:
                internal.append(dependency_target)
        kind = {"system": "system library", "executable": "executable", "test": "test"}.get(target["type"], "library")
        if target["type"] == "regular" and name not in products:
            kind = "helper"
        if target["type"] == "test":
            own = name.removesuffix("Tests")
            tested = [own] if own in targets else [
                dependency for dependency in internal if dependency not in ("JOSE", "JOSETestSupport")]
            what = "the tests of " + ", ".join(f"`{dependency}`" for dependency in tested)
        else:
            what = abstract(name) or DESCRIPTIONS.get(name)
        if what is None:
            missing.append(name)
            continue
        product = ", ".join(f"`{product}`" for product in products.get(name, []))
        trait = ", ".join(f"`{trait}`" for trait in sorted(traits))
        depends = ", ".join(f"`{dependency}`" for dependency in internal)
        rows.append(f"| `{name}` | {kind} | {product} | {trait} | {depends} | {what} |")
    untested = [target["name"] for target in manifest["targets"]
                if target["name"] in products and target["type"] == "regular" and f"{target['name']}Tests" not in targets]
    testers = {name: [target["name"] for target in manifest["targets"] if target["type"] == "test"
                      and name in (dependency_name(dependency)[0] for dependency in target["dependencies"])]
               for name in untested}
    rows += ["", "Libraries without a test target of their own, and the test targets that use them: " + "; ".join(
        f"`{name}` ({', '.join(f'`{tester}`' for tester in testers[name]) or 'none'})" for name in untested) + "."]
    if missing:
        sys.exit("architecture-table: no description for " + ", ".join(missing)
                 + ": give the target a DocC catalog with an abstract, or add it to DESCRIPTIONS")
    return "\n".join(rows)


def replaced(text: str, generated: str) -> str:
    """`text` with the part between the markers replaced by `generated`."""
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        sys.exit(f"architecture-table: {ARCHITECTURE.relative_to(ROOT)} must hold each marker once")
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    return f"{head}{BEGIN}\n{generated}\n{END}{tail}"


def main() -> None:
    """Regenerates or checks the table."""
    manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True,
                                         capture_output=True, text=True).stdout)
    text = ARCHITECTURE.read_text()
    expected = replaced(text, table(manifest))
    if "--write" in sys.argv[1:]:
        ARCHITECTURE.write_text(expected)
    elif expected != text:
        sys.exit(f"architecture-table: the table of targets in {ARCHITECTURE.relative_to(ROOT)} differs from "
                 "Package.swift; run `python3 .ci/architecture-table.py --write`")
    else:
        print(f"architecture-table: {len(manifest['targets'])} targets, as in Package.swift")


if __name__ == "__main__":
    main()
