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

The CLI (Sources/JOSECLI) must use only public API. The library's `package` entries are the
bare signature check for the JOSEPrimitiveSignatureCheck target beside `jose bench` (names starting with
`primitive`), the helpers the login-flow module needs (FOR_LOGIN_MODULE below) and Support/
(the locks, atomics, error factories and durations every target shares); the CLI names none but
Support's, and does not import the library with @testable.

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
LAYERS = {"Support": 0, "Encoding": 1, "Algorithms": 2, "HTTP": 2, "Crypto": 3, "Keys": 4, "PKCE": 4, "JWS": 5,
          "JWT": 6, "Replay": 6, "Discovery": 6, "JWKS": 7, "DPoP": 7, "IDToken": 7, "ResourceServer": 8, "Providers": 9}
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

PACKAGE = re.compile(r"(?:^|\s)package\s+(?:static\s+|final\s+)*(?:func|var|let|init\??\s*\(|struct|enum|class|subscript|typealias)\s*(\w*)")
SHARED = LIBRARY / "Support"
# `package` API the login-flow module (Sources/JOSEOAuth) needs from below its wall.
FOR_LOGIN_MODULE = {
    "constantTimeEquals": "state and issuer are compared in constant time",
    "validatingUTF8Bytes": "form_post bodies are read as strict UTF-8",
    "answer": "finished login transactions go through the replay store as DPoP proofs do, failing closed alike",
    "holds": "a login transaction is looked up in the replay store, failing closed, before its code is sent",
    "jsonText": "a stored session reads back the ID-token claims it validated at login",
    "AuthenticationChallenges": "a session reads resource servers' WWW-Authenticate challenges with the one parser",
    "carriesChallengeError": "a session tells a refused access token (invalid_token) from other 401s",
    "challengeError": "UserInfo refusals are read by the one WWW-Authenticate parser",
    "isNonce": "a session keeps a resource server's DPoP-Nonce only when RFC 9449 §8.1 allows it",
    "URIText": "URLs are read by the package's own RFC 3986 rules, the same on every platform",
    "absoluteURL": "a redirect URI is read by the RFC 3986 rules",
    "absoluteURLWithoutFragment": "resource and post-logout URIs are read by the RFC 3986 rules",
    "queryURL": "authorize and logout URLs are built by the one query builder",
}
package_names = set()
for path, code in codes.items():
    if path.parent == SHARED:
        continue
    for number, line in enumerate(code.splitlines(), 1):
        for name in PACKAGE.findall(line):
            if not name.startswith("primitive") and name not in FOR_LOGIN_MODULE:
                problems.append(f"{path.relative_to(RELATIVE)}:{number} declares `package` API `{name}` "
                                "(only the primitive signature check's `primitive...` entry, what FOR_LOGIN_MODULE lists, "
                                "and Support/ may be package)")
            package_names.add(name)
for path in sorted(CLI.rglob("*.swift")):
    code = code_of(path.read_text())
    if "@testable" in code:
        problems.append(f"{path.relative_to(RELATIVE)} imports with @testable")
    for name in package_names:
        if re.search(rf"\b{name}\b", code):
            problems.append(f"{path.relative_to(RELATIVE)} names `{name}`, which the library declares `package`")

if problems:
    print("check-layers: dependencies must point down, and the CLI must use public API only:")
    print("\n".join("  " + p for p in problems))
    sys.exit(1)
print(f"check-layers: {len(files)} library files, {len(declared)} names: every layer points down and no "
      f"folder names its neighbour's; package API: {sorted(package_names)}, unused by the CLI, which uses "
      f"public API only (and the shared locks of Support/)")
