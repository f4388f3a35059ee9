#!/usr/bin/env python3
"""Compiles every Swift snippet of the README and the DocC catalogs against today's API.

Each ```swift block becomes its own file in a package made under the scratch folder, which
depends on this package by path, with every package trait on, and on every library product its
manifest declares (so a snippet may import any of them, the trait-gated ones included, and a
product that does not exist yet is simply not there). A
snippet's body is wrapped in an `async throws` function, its `import` lines stay at the top of
its file (a snippet without any gets `import JOSE`), and `#sourceLocation` makes each compiler
error name the Markdown file and line. Member lookup follows each file's own imports
(`MemberImportVisibility`), so a snippet that uses `JOSEURLSession`'s initialisers without
importing it fails as it would in an app. `.ci/snippet-inputs.swift` declares the values the
snippets take as given (a key set's bytes, a token, the app's own browser hand-off).

A block that cannot compile here on purpose (a package manifest, code for a web framework this
package does not depend on) is preceded by the line `<!-- snippet: not compiled (REASON) -->`.

    python3 .ci/check-snippets.py                 # README.md and Sources/*/*.docc/**/*.md
    python3 .ci/check-snippets.py FILE.md ...     # those files only
    --scratch PATH                                # where the package and its build go
"""
import argparse
import json
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
INPUTS = pathlib.Path(__file__).resolve().parent / "snippet-inputs.swift"
IMPORT = re.compile(r"^import\s+\w+\s*(//.*)?$")
SKIP_MARKER = re.compile(r"^<!-- snippet: not compiled \(.+\) -->$")
PLATFORM_NAMES = {
    "macos": "macOS", "ios": "iOS", "tvos": "tvOS", "watchos": "watchOS",
    "visionos": "visionOS", "maccatalyst": "macCatalyst",
}


class Snippet:
    """One fenced Swift block: where it starts (the line after the fence) and its lines."""

    def __init__(self, path: pathlib.Path, first_line: int, lines: list[str]):
        self.path = path
        self.first_line = first_line
        self.lines = lines


def snippets_in(path: pathlib.Path) -> tuple[list[Snippet], int]:
    """The compiled Swift blocks of one Markdown file, and how many were marked not compiled."""
    text = path.read_text(encoding="utf-8").split("\n")
    found: list[Snippet] = []
    skipped = 0
    index = 0
    while index < len(text):
        fence = re.match(r"^(\s*)(```+)\s*(\S*)", text[index])
        if not fence:
            index += 1
            continue
        indent, ticks, language = fence.group(1), fence.group(2), fence.group(3)
        end = index + 1
        while end < len(text) and not text[end].strip().startswith(ticks):
            end += 1
        body = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in text[index + 1:end]]
        marked = index > 0 and SKIP_MARKER.match(text[index - 1].strip()) is not None
        if language == "swift":
            if marked:
                skipped += 1
            else:
                found.append(Snippet(path, index + 2, body))
        elif marked:
            sys.exit(f"{path}:{index}: the not-compiled marker stands before a block that is not ```swift")
        index = end + 1
    return found, skipped


def swift_source(snippet: Snippet, function_name: str) -> str:
    """The snippet as a file: its imports on top, the rest inside an `async throws` function."""
    imports = [line for line in snippet.lines if IMPORT.match(line)]
    if not imports:
        imports = ["import JOSE"]
    location = str(snippet.path.relative_to(ROOT)) if snippet.path.is_relative_to(ROOT) else str(snippet.path)
    out = imports + ["", f"func {function_name}() async throws {{",
                     f'#sourceLocation(file: "{location}", line: {snippet.first_line})']
    # An import line becomes an empty one, so the lines after it keep their Markdown numbers.
    out += ["" if IMPORT.match(line) else line for line in snippet.lines]
    out += ["#sourceLocation()", "}", ""]
    return "\n".join(out)


def manifest(package_name: str, products: list[str], platforms: list[dict], traits: list[str]) -> str:
    """The snippet package's manifest: one library target over every product of this package,
    with `traits` on."""
    platform_list = ", ".join(
        f'.{PLATFORM_NAMES[p["platformName"]]}("{p["version"]}")'
        for p in platforms if p["platformName"] in PLATFORM_NAMES)
    dependencies = ", ".join(f'.product(name: "{name}", package: "{package_name}")' for name in products)
    trait_list = ", ".join(f'"{name}"' for name in traits)
    return f"""// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "snippets",
    platforms: [{platform_list}],
    dependencies: [.package(path: "{ROOT}", traits: [{trait_list}])],
    targets: [
        .target(
            name: "Snippets",
            dependencies: [{dependencies}],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
    ]
)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=pathlib.Path)
    parser.add_argument("--scratch", type=pathlib.Path, default=ROOT / ".build-snippets")
    arguments = parser.parse_args()
    files = [path.resolve() for path in arguments.files] or (
        [ROOT / "README.md"] + sorted(ROOT.glob("Sources/*/*.docc/**/*.md")))

    snippets: list[Snippet] = []
    skipped = 0
    for path in files:
        found, marked = snippets_in(path)
        snippets += found
        skipped += marked
    if not snippets:
        print("check-snippets: no Swift snippet found", file=sys.stderr)
        return 1

    description = json.loads(subprocess.run(
        ["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True).stdout)
    products = [p["name"] for p in description["products"] if "library" in p["type"]]
    traits = [t["name"] for t in description.get("traits", []) if t["name"] != "default"]

    package = arguments.scratch.resolve() / "package"
    sources = package / "Sources" / "Snippets"
    if sources.exists():
        shutil.rmtree(sources)
    sources.mkdir(parents=True)
    (package / "Package.swift").write_text(manifest(ROOT.name.lower(), products, description.get("platforms", []), traits))
    shutil.copy(INPUTS, sources / "SnippetInputs.swift")
    for number, snippet in enumerate(snippets, start=1):
        stem = re.sub(r"\W", "_", snippet.path.stem)
        name = f"{stem}_line{snippet.first_line}"
        (sources / f"{number:03}_{name}.swift").write_text(swift_source(snippet, f"snippet_{number:03}_{name}"))

    build = subprocess.run(
        ["swift", "build", "--package-path", str(package), "--scratch-path", str(package / ".build")],
        capture_output=True, text=True)
    if build.returncode != 0:
        output = (build.stdout + build.stderr).splitlines()
        errors = list(dict.fromkeys(line for line in output if re.match(r"^\S+:\d+:\d+: error:", line)))
        print("\n".join(errors) or "\n".join(output))
        print(f"check-snippets: FAILED: the snippets above do not compile against {', '.join(products)}")
        return 1
    print(f"check-snippets: {len(snippets)} Swift snippets from {len(files)} files compile against "
          f"{', '.join(products)} ({skipped} marked not compiled)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
