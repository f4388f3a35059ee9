#!/usr/bin/env python3
"""Compiles every Swift snippet of the README and the DocC catalogs against today's API.

Each ```swift block becomes its own file, and all of them are type-checked together by `swiftc`
against the modules of this package's debug build with every server trait on (`swift build
--traits $(.ci/server-traits)` first: the check reuses that build rather than making its own),
so a snippet may import any library product, the trait-gated ones included. Importing one of this
package's targets that no library product offers (a test helper, the C shim) fails the check, as
it would in an app. A snippet's body is wrapped in an `async throws` function, its `import`
lines stay at the top of its file (a snippet without any gets `import JOSE`), and
`#sourceLocation` makes each compiler error name the Markdown file and line. Member lookup
follows each file's own imports (`MemberImportVisibility`), so a snippet that uses
`JOSEURLSession`'s initialisers without importing it fails as it would in an app.
`.ci/snippet-inputs.swift` declares the values the snippets take as given (a key set's bytes, a
token, the app's own browser hand-off).

A block that cannot compile here on purpose (a package manifest, code for a web framework this
package does not depend on) is preceded by the line `<!-- snippet: not compiled (REASON) -->`.

    python3 .ci/check-snippets.py                 # README.md and Sources/*/*.docc/**/*.md
    python3 .ci/check-snippets.py FILE.md ...     # those files only
"""
import argparse
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
INPUTS = pathlib.Path(__file__).resolve().parent / "snippet-inputs.swift"
IMPORT = re.compile(r"^import\s+\w+\s*(//.*)?$")
SKIP_MARKER = re.compile(r"^<!-- snippet: not compiled \(.+\) -->$")


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


def server_traits() -> str:
    """The traits of the build the snippets are checked against (.ci/server-traits)."""
    return subprocess.run([str(ROOT / ".ci" / "server-traits")], check=True, capture_output=True,
                          text=True).stdout.strip()


def compile_flags(bin_path: pathlib.Path, targets: list[str]) -> list[str]:
    """What `swiftc` needs to import `targets`' modules from the build in `bin_path`: its module
    folder, and the Clang module maps and header folders of the C modules they depend on, read
    from that build's own compile commands (its llbuild manifest)."""
    manifest = bin_path.parent.parent / f"{bin_path.name}.yaml"
    keys = {f'"C.{target}-{bin_path.parent.name}-{bin_path.name}.module":' for target in targets}
    lines = manifest.read_text().splitlines() if manifest.exists() else []
    if not keys <= {line.strip() for line in lines}:
        sys.exit(f"check-snippets: {bin_path} holds no build of {', '.join(targets)}: "
                 "run `swift build --traits $(.ci/server-traits)` first")
    groups: dict[tuple[str, ...], None] = {}
    command = None
    for line in lines:
        if line.startswith('  "'):
            command = line.strip()
        elif command in keys and line.startswith("    args: "):
            arguments = json.loads(line[len("    args: "):])
            passed = [arguments[i + 1] for i, argument in enumerate(arguments[:-1]) if argument == "-Xcc"]
            index = 0
            while index < len(passed):
                group = tuple(passed[index:index + 2] if passed[index] == "-I" else passed[index:index + 1])
                index += len(group)
                if group[0] == "-I" or group[0].startswith("-fmodule-map-file="):
                    groups[group] = None
    clang = [flag for group in groups for item in group for flag in ("-Xcc", item)]
    return ["-I", str(bin_path / "Modules"), "-module-cache-path", str(bin_path / "ModuleCache")] + clang


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=pathlib.Path)
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
    library_products = [p for p in description["products"] if "library" in p["type"]]
    products = [p["name"] for p in library_products]
    targets = list(dict.fromkeys(t for p in library_products for t in p["targets"]))
    private = {t["name"] for t in description["targets"]} - set(targets)
    for snippet in snippets:
        for number, line in enumerate(snippet.lines, start=snippet.first_line):
            if IMPORT.match(line) and line.split()[1] in private:
                print(f"{snippet.path}:{number}: error: {line.split()[1]} is not a library product of this package")
                print("check-snippets: FAILED: a snippet imports a module that users cannot")
                return 1
    bin_path = pathlib.Path(subprocess.run(
        ["swift", "build", "--traits", server_traits(), "--show-bin-path"], cwd=ROOT, check=True,
        capture_output=True, text=True).stdout.strip())

    with tempfile.TemporaryDirectory() as directory:
        sources = [pathlib.Path(directory) / "SnippetInputs.swift"]
        shutil.copy(INPUTS, sources[0])
        for number, snippet in enumerate(snippets, start=1):
            stem = re.sub(r"\W", "_", snippet.path.stem)
            name = f"{stem}_line{snippet.first_line}"
            sources.append(pathlib.Path(directory) / f"{number:03}_{name}.swift")
            sources[-1].write_text(swift_source(snippet, f"snippet_{number:03}_{name}"))
        check = subprocess.run(
            ["swiftc", "-typecheck", "-continue-building-after-errors", "-module-name", "Snippets", "-parse-as-library", "-swift-version", "6",
             "-enable-upcoming-feature", "MemberImportVisibility"]
            + compile_flags(bin_path, targets) + [str(path) for path in sources],
            capture_output=True, text=True)
    if check.returncode != 0:
        output = (check.stdout + check.stderr).splitlines()
        errors = list(dict.fromkeys(line for line in output if re.match(r"^\S+:\d+:\d+: error:", line)))
        print("\n".join(errors) or "\n".join(output))
        print(f"check-snippets: FAILED: the snippets above do not compile against {', '.join(products)}")
        return 1
    print(f"check-snippets: {len(snippets)} Swift snippets from {len(files)} files compile against "
          f"{', '.join(products)} ({skipped} marked not compiled)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
