#!/usr/bin/env python3
"""Checks that the library's layers only point down (issue #11; the holes of the first version
closed for issue #23).

Sources/JOSE is layered: Support (errors, clock, durations, locks) <- Encoding <- Algorithms /
HTTP (the fetcher seam, transport policy, RFC 3986 URIs, cache headers, challenge parsing) <-
Crypto (the seam and its backends) <- Keys/PKCE <- JWS <- JWT / Replay / Discovery <- JWKS /
DPoP / IDToken <- ResourceServer (issuers, access tokens, bearer headers) <- Providers (presets
for named identity providers). Algorithms is the JWA vocabulary every layer above speaks. The layers
and their order are LAYERS below.

A file may name what its own folder declares and what lower layers declare, never what a higher
layer declares, nor what another folder of the same layer declares (JWKS and DPoP, Algorithms
and HTTP are side by side, not above each other). "What a folder declares" is every type
(nested ones included), every free function, and every function, property or initializer an
extension declares. Names are read in code only: comments and the text of string literals are
blanked out by a small lexer (.ci/swift_lexer.py), string interpolations count as code, and DocC
symbol links in comments (``Name``) count as names. A name declared in more than one place
counts only where the file using it cannot see any of its declarations.

Access levels by folder (issue #33): Support, Encoding and HTTP are the kits (KITS below) every
module of the package may use at `package` level. Any folder may declare `package` API for the
package's library modules, but the CLI (Sources/JOSECLI) uses public API and the kits' package
API only: it must not name what another folder declares `package`, nor import the library with
@testable. Names are matched as text, so a name the CLI also declares, or the library declares
public or in a kit, cannot be checked (the compiler allows the CLI every `package` name): the
check lists those names, for a reviewer to keep the list short.

    python3 .ci/check-layers.py [LIBRARY_FOLDER CLI_FOLDER]   (defaults: Sources/JOSE Sources/JOSECLI)
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from swift_lexer import code_of  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
LIBRARY = pathlib.Path(sys.argv[1]).resolve() if len(sys.argv) > 2 else ROOT / "Sources" / "JOSE"
CLI = pathlib.Path(sys.argv[2]).resolve() if len(sys.argv) > 2 else ROOT / "Sources" / "JOSECLI"
LAYERS = {"Support": 0, "Encoding": 1, "Algorithms": 2, "HTTP": 2, "Crypto": 3, "Keys": 4, "PKCE": 4, "JWS": 5, "X5C": 6,
          "JWT": 6, "Replay": 6, "Discovery": 6, "JWKS": 7, "DPoP": 7, "JWE": 7, "IDToken": 8, "ResourceServer": 8, "Providers": 9}
# The kits every module of the package shares at `package` level: errors, locks and durations; the
# JSON engine and base64url; the HTTP and URL kit.
KITS = {"Support", "Encoding", "HTTP"}
MODIFIERS = r"(?:(?:public|package|internal|fileprivate|private|final|indirect|static|class|override|" \
            r"mutating|nonmutating|convenience|required|nonisolated|@\w+(?:\([^)]*\))?)\s+)*"
TYPE = re.compile(r"^\s*(" + MODIFIERS + r")(?:struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)", re.M)
FREE_FUNCTION = re.compile(r"^(" + MODIFIERS + r")func\s+([A-Za-z_]\w*)", re.M)
MEMBER = re.compile(r"^\s+(" + MODIFIERS + r")(?:func|var|let)\s+([A-Za-z_]\w*)", re.M)
EXTENSION = re.compile(r"^" + MODIFIERS + r"extension\s+[\w.]+[^{]*\{", re.M)
RELATIVE = ROOT if LIBRARY.is_relative_to(ROOT) else LIBRARY.parent


def folder_of(path: pathlib.Path) -> str:
    parts = path.parent.relative_to(LIBRARY).parts
    name = parts[0] if parts else ""
    if name not in LAYERS:
        sys.exit(f"check-layers: {path.relative_to(RELATIVE)} is in no known layer; add its folder to LAYERS")
    return name


def extension_members(code: str) -> list[str]:
    """The functions and properties declared directly in the file's `extension` blocks."""
    names = []
    for match in EXTENSION.finditer(code):
        depth, start = 1, match.end()
        index = start
        while index < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[index], 0)
            index += 1
        body = code[start:index - 1]
        flat = []
        level = 0
        for char in body:  # keep only the block's own level: drop the bodies of its members
            if char == "{":
                level += 1
            elif char == "}":
                level -= 1
            elif level == 0:
                flat.append(char)
        names += visible(MEMBER.findall("".join(flat)))
    return names


def visible(matches: list[tuple[str, str]]) -> list[str]:
    """The names of declarations other files can see (not `private` or `fileprivate`)."""
    return [name for modifiers, name in matches if not re.search(r"\b(?:file)?private\b", modifiers)]


def sees(user: str, owner: str) -> bool:
    """Whether a file in folder `user` may name what folder `owner` declares."""
    return owner == user or LAYERS[owner] < LAYERS[user] or (LAYERS[owner] == LAYERS[user] == 0)


files = sorted(LIBRARY.rglob("*.swift"))
codes = {path: code_of(path.read_text()) for path in files}
declared: dict[str, set[str]] = {}  # name -> folders whose files other files can reach it in
where: dict[tuple[str, str], pathlib.Path] = {}
known: dict[str, set[str]] = {}  # name -> folders declaring anything by that name, at any level
for path, code in codes.items():
    folder = folder_of(path)
    for name in visible(TYPE.findall(code)) + visible(FREE_FUNCTION.findall(code)) + extension_members(code):
        declared.setdefault(name, set()).add(folder)
        where.setdefault((name, folder), path)
    everything = TYPE.findall(code) + FREE_FUNCTION.findall(code) + MEMBER.findall(code)
    for _, name in everything:
        known.setdefault(name, set()).add(folder)

problems = []
for path, code in codes.items():
    folder = folder_of(path)
    lines = code.splitlines()
    for name, owners in declared.items():
        if any(sees(folder, owner) for owner in owners | known.get(name, set())):
            continue
        # A type is named wherever its name stands; a function or property where it is called or
        # reached as a member (so that a local variable of the same name is not taken for it).
        pattern = re.compile(rf"(?<![\w$]){re.escape(name)}\b" if name[0].isupper()
                             else rf"(?:\.{re.escape(name)}\b|(?<![\w$.]){re.escape(name)}\s*\()")
        for number, line in enumerate(lines, 1):
            if pattern.search(line):
                owner = sorted(owners, key=lambda o: LAYERS[o])[0]
                relation = "a higher layer" if LAYERS[owner] > LAYERS[folder] else "another folder of the same layer"
                problems.append(f"{path.relative_to(RELATIVE)}:{number} names {name}, declared in {relation} "
                                f"({where[(name, owner)].relative_to(RELATIVE)})")
                break

# A `package` declaration: the keyword, any modifiers (`private(set)` among them), then what it
# declares; an initializer is named by its first argument label.
PACKAGE = re.compile(r"(?:^|[\s@])package\s+(?:(?:static|final|private\(set\)|fileprivate\(set\)|internal\(set\)|"
                     r"mutating|nonmutating|indirect|@\w+)\s+)*"
                     r"(?:(?:func|var|let|struct|enum|class|actor|protocol|subscript|typealias)\s+(\w+)|init\??\s*\(\s*(\w+))")
package_kit: dict[str, str] = {}    # name -> kit folder declaring it `package`
package_inner: dict[str, str] = {}  # name -> other folder declaring it `package`
for path, code in codes.items():
    folder = folder_of(path)
    for match in PACKAGE.finditer(code):
        name = match.group(1) or match.group(2)
        (package_kit if folder in KITS else package_inner).setdefault(name, folder)
# Names the CLI may mean by something else: what it declares itself, the library's public names and
# everything the kits declare.
PUBLIC_NAME = re.compile(r"\bpublic\s+(?:(?:static|final|private\(set\)|mutating|nonmutating|indirect|@\w+)\s+)*"
                         r"(?:(?:func|var|let|struct|enum|class|actor|protocol|typealias|case)\s+(\w+)|init\s*\(\s*(\w+))")
public_names = {m.group(1) or m.group(2) for code in codes.values() for m in PUBLIC_NAME.finditer(code)}
public_names |= {name for path, code in codes.items() if folder_of(path) in KITS
                 for name in re.findall(r"\b(?:case|func|var|let)\s+(\w+)", code)}
cli_codes = {path: code_of(path.read_text()) for path in sorted(CLI.rglob("*.swift"))}
cli_names = {name for code in cli_codes.values()
             for _, name in TYPE.findall(code) + FREE_FUNCTION.findall(code) + MEMBER.findall(code)}
cli_names |= {label for code in cli_codes.values()  # the argument labels of the CLI's own functions
              for parameters in re.findall(r"(?:\bfunc\s+\w+|\binit\??)\s*(?:<[^>]*>)?\s*\(([^)]*)\)", code)
              for label in re.findall(r"(?:^|,)\s*(\w+)(?:\s+\w+)?\s*:", parameters)}
# A name that means something else too cannot be told apart by reading text, and the compiler lets
# the CLI, a module of the same package, use it: such names are not checked, and are listed below.
unchecked = sorted(name for name in package_inner if name in package_kit or name in public_names or name in cli_names)
for path, code in cli_codes.items():
    if "@testable" in code:
        problems.append(f"{path.relative_to(RELATIVE)} imports with @testable")
    for name, folder in package_inner.items():
        if name in unchecked:
            continue
        if re.search(rf"(?<![\w$]){re.escape(name)}\b", code):
            problems.append(f"{path.relative_to(RELATIVE)} names `{name}`, which {folder}/ declares `package` "
                            f"(the CLI may use public API and the package API of {', '.join(sorted(KITS))}/ only)")

if problems:
    print("check-layers: dependencies must point down, and the CLI must use public API and the kits' package API only:")
    print("\n".join("  " + p for p in problems))
    sys.exit(1)
print(f"check-layers: {len(files)} library files, {len(declared)} names: every layer points down and no "
      f"folder names its neighbour's; the kits' package API ({', '.join(sorted(KITS))}/): {len(package_kit)} names; "
      f"the other folders' package API, which the CLI does not name: "
      f"{sorted(set(package_inner) - set(unchecked))}; not checked, as the same names mean something else too: {unchecked}")
