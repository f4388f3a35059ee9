#!/usr/bin/env python3
"""Checks that the library's layers only point down (DESIGN.md, issue #11).

Sources/JOSE is layered: Support <- Encoding <- Algorithms <- Crypto (the seam and its backends) <- Keys/PKCE <- JWS <- JWT <- JWKS/DPoP
<- OAuth (the login flow) / ResourceServer (issuers, access tokens, bearer headers)
(JOSEError.swift at the root and Support, the package's locks, atomics and thread stripes, are
below them all; Algorithms is the JWA vocabulary every layer above speaks). A file in a layer
may name types of its own layer and lower ones only: this finds every top-level type declared
in a higher layer and fails if a lower layer's file names it in code or in a DocC symbol link
(``Name``); prose that mentions a format ("the JWK `x`") is not a name. The layers and their
order are LAYERS below.

The CLI (Sources/JOSECLI) must use only public API. The library's `package` entries are the
bare signature check for the primitive timer target beside `jose bench` (its names start with
`primitive`), which the CLI names none of, and the locks and atomics of Sources/JOSE/Support,
which every target of the package shares (they are no JOSE API); the CLI does not import the
library with @testable.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "Sources" / "JOSE"
LAYERS = {"": 0, "Support": 0, "Encoding": 1, "Algorithms": 2, "Crypto": 3, "Keys": 4, "PKCE": 4, "JWS": 5, "JWT": 6, "JWKS": 7, "DPoP": 7,
          "OAuth": 8, "ResourceServer": 8}
DECLARATION = re.compile(r"^(?:public |package |internal |fileprivate |private |final |indirect )*"
                         r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Z]\w*)", re.M)


def layer_of(path: pathlib.Path) -> int:
    folder = path.parent.relative_to(LIBRARY).parts
    name = folder[0] if folder else ""
    if name not in LAYERS:
        sys.exit(f"check-layers: {path.relative_to(ROOT)} is in no known layer; add its folder to LAYERS")
    return LAYERS[name]


files = sorted(p for p in LIBRARY.rglob("*.swift"))
declared = {}  # type name -> (layer, file)
for path in files:
    for name in DECLARATION.findall(path.read_text()):
        declared.setdefault(name, (layer_of(path), path))

def named_text(source: str) -> str:
    """The code of `source`, plus the symbol links (``Name``) of its comments."""
    kept = []
    for line in source.splitlines():
        code, _, comment = line.partition("//")
        kept.append(code + " " + " ".join(re.findall(r"``([^`]+)``", comment)))
    return "\n".join(kept)


problems = []
for path in files:
    layer = layer_of(path)
    text = named_text(path.read_text())
    for name, (owner_layer, owner) in declared.items():
        if owner_layer > layer and re.search(rf"\b{name}\b", text):
            line = next(i + 1 for i, l in enumerate(text.splitlines()) if re.search(rf"\b{name}\b", l))
            problems.append(f"{path.relative_to(ROOT)}:{line} names {name}, "
                            f"declared in a higher layer ({owner.relative_to(ROOT)})")

PACKAGE = re.compile(r"(?:^|\s)package\s+(?:static\s+|final\s+)*(?:func|var|let|init|struct|enum|class|subscript)\s*(\w*)")
SHARED = LIBRARY / "Support"  # the package's locks and atomics, shared with every target
package_names = set()
for path in files:
    if path.parent == SHARED:
        continue
    for number, line in enumerate(named_text(path.read_text()).splitlines(), 1):
        for name in PACKAGE.findall(line):
            if not name.startswith("primitive"):
                problems.append(f"{path.relative_to(ROOT)}:{number} declares `package` API `{name}` "
                                "(only the primitive timer's `primitive...` entry, and Support/, may be package)")
            package_names.add(name)
for path in sorted((ROOT / "Sources" / "JOSECLI").rglob("*.swift")):
    text = named_text(path.read_text())
    if "@testable" in text:
        problems.append(f"{path.relative_to(ROOT)} imports with @testable")
    for name in package_names:
        if re.search(rf"\b{name}\b", text):
            problems.append(f"{path.relative_to(ROOT)} names `{name}`, which the library declares `package`")

if problems:
    print("check-layers: dependencies must point down, and the CLI must use public API only:")
    print("\n".join("  " + p for p in problems))
    sys.exit(1)
print(f"check-layers: {len(files)} library files, {len(declared)} types: every layer points down; "
      f"package API: {sorted(package_names)}, unused by the CLI, which uses public API only "
      f"(and the shared locks of {SHARED.relative_to(ROOT)})")
