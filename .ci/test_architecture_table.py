#!/usr/bin/env python3
"""Shows that .ci/architecture-table.py builds the table of targets from a manifest, refuses a
target it cannot describe, and finds an Architecture.md whose table differs.

    python3 .ci/test_architecture_table.py
"""
import importlib.util
import pathlib
import unittest

SPEC = importlib.util.spec_from_file_location(
    "architecture_table", pathlib.Path(__file__).resolve().parent / "architecture-table.py")
TABLE = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(TABLE)

# A manifest as `swift package dump-package` writes it, cut down to what the table reads.
MANIFEST = {
    "products": [{"name": "JOSE", "targets": ["JOSE"]}, {"name": "JOSEVapor", "targets": ["JOSEVapor"]}],
    "targets": [
        {"name": "JOSE", "type": "regular", "dependencies": [{"product": ["Logging", "swift-log", None, None]}]},
        {"name": "JOSEVapor", "type": "regular", "dependencies": [
            {"byName": ["JOSE", None]},
            {"product": ["Vapor", "vapor", None, {"platformNames": [], "traits": ["Vapor"]}]}]},
        {"name": "JOSETests", "type": "test", "dependencies": [{"byName": ["JOSE", None]}]},
    ],
}


class ArchitectureTableTests(unittest.TestCase):
    def test_rows_name_kind_product_trait_dependencies_and_abstract(self):
        table = TABLE.table(MANIFEST)
        self.assertIn("| `JOSEVapor` | library | `JOSEVapor` | `Vapor` | `JOSE` | Bearer and DPoP access tokens", table)
        self.assertIn("| `JOSETests` | test |  |  | `JOSE` | the tests of `JOSE` |", table)
        self.assertIn("`JOSEVapor` (none)", table)

    def test_a_target_without_a_description_fails(self):
        manifest = {"products": [], "targets": [{"name": "Undescribed", "type": "regular", "dependencies": []}]}
        with self.assertRaises(SystemExit) as failure:
            TABLE.table(manifest)
        self.assertIn("Undescribed", str(failure.exception))

    def test_the_block_between_the_markers_is_replaced_and_nothing_else(self):
        text = f"before\n{TABLE.BEGIN}\nold table\n{TABLE.END}\nafter\n"
        self.assertEqual(TABLE.replaced(text, "new table"), f"before\n{TABLE.BEGIN}\nnew table\n{TABLE.END}\nafter\n")
        with self.assertRaises(SystemExit):
            TABLE.replaced("no markers", "new table")


if __name__ == "__main__":
    unittest.main()
