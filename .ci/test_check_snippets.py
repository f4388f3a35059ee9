#!/usr/bin/env python3
"""Shows that .ci/check-snippets.py fails on planted broken snippets, naming each one's Markdown
line, and passes on good ones (a block marked not compiled may hold anything).

    python3 .ci/test_check_snippets.py

The checker type-checks against the package's debug build with every server trait on, so run
`swift build --traits $(.ci/server-traits)` first.
"""
import pathlib
import subprocess
import sys
import tempfile
import unittest

CHECK = pathlib.Path(__file__).resolve().parent / "check-snippets.py"

GOOD = """# Good

```swift
import JOSE

func check(_ token: String) throws {
    _ = try UnverifiedJWS(unverified: token)
}
```

<!-- snippet: not compiled (planted: not Swift at all) -->
```swift
this is not Swift
```
"""

# Line 5: a type error. Line 12: an initialiser of JOSEURLSession used without importing it.
BROKEN = """# Broken

```swift
import JOSE
let count: Int = "not a number"
```

```swift
import Foundation
import JOSE

let cache = try JWKSCache(url: URL(string: "https://issuer.example/jwks.json")!)
```
"""

# Line 5: a module of this package that no library product offers.
PRIVATE = """# Private

```swift
import JOSE
import COpenSSL
```
"""


def run(markdown: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as directory:
        path = pathlib.Path(directory) / "planted.md"
        path.write_text(markdown)
        return subprocess.run([sys.executable, str(CHECK), str(path)], capture_output=True, text=True)


class PlantedSnippets(unittest.TestCase):
    def test_good_snippets_pass(self):
        result = run(GOOD)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("1 Swift snippets from 1 files compile", result.stdout)
        self.assertIn("1 marked not compiled", result.stdout)

    def test_broken_snippets_fail_at_their_lines(self):
        result = run(BROKEN)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("planted.md:5:", result.stdout)
        self.assertIn("planted.md:12:", result.stdout)
        self.assertIn("check-snippets: FAILED", result.stdout)

    def test_a_module_no_product_offers_fails(self):
        result = run(PRIVATE)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn("planted.md:5: error: COpenSSL is not a library product", result.stdout)


if __name__ == "__main__":
    unittest.main()
