#!/usr/bin/env python3
"""Writes the Swift snippets of JOSEAppleLogin's DocC catalog as files to type-check for an Apple
target: check-snippets.py marks them not compiled (the module is empty on Linux), so
typecheck.sh compiles them here instead, beside snippet-inputs.swift.

Each ```swift block becomes OUTDIR/NNN_NAME.swift: its imports on top, the rest inside a
`@MainActor` `async throws` function (an app's login code runs on the main actor), with
`#sourceLocation` pointing errors at the Markdown line.

    python3 snippets.py CATALOG_FOLDER OUTDIR
"""
import pathlib
import re
import sys

IMPORT = re.compile(r"^import\s+\w+\s*(//.*)?$")


def blocks(path: pathlib.Path) -> list[tuple[int, list[str]]]:
    """Each ```swift block of `path`: the Markdown line of its first line, and its lines."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found, index = [], 0
    while index < len(lines):
        if lines[index].strip() == "```swift":
            end = index + 1
            while not lines[end].strip().startswith("```"):
                end += 1
            found.append((index + 2, lines[index + 1:end]))
            index = end
        index += 1
    return found


def main() -> int:
    catalog, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted(catalog.rglob("*.md")):
        for first_line, body in blocks(path):
            count += 1
            imports = [line for line in body if IMPORT.match(line)]
            source = imports + ["", f"@MainActor func snippet{count}() async throws {{",
                                f'#sourceLocation(file: "{path}", line: {first_line})']
            source += ["" if IMPORT.match(line) else line for line in body]
            source += ["#sourceLocation()", "}", ""]
            (out / f"{count:03}_{path.stem}.swift").write_text("\n".join(source))
    if count == 0:
        print(f"snippets.py: no Swift snippet in {catalog}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
