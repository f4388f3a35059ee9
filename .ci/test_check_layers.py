#!/usr/bin/env python3
"""Plants one violation per hole the first layer check had (issue #23), and of the CLI's access to
`package` API (issue #33), in a small tree and shows that .ci/check-layers.py fails on each, and
passes on the same tree without it. Files named CLI/... go to the CLI's folder.

    python3 .ci/test_check_layers.py
"""
import pathlib
import subprocess
import sys
import tempfile
import unittest

CHECK = pathlib.Path(__file__).resolve().parent / "check-layers.py"

# A clean tree: a type in Keys, one in ResourceServer that uses it, one in each same-rank folder.
CLEAN = {
    "Keys/Key.swift": "struct Key {}\n",
    "JWKS/Cache.swift": "struct Cache { let key: Key }\n",
    "DPoP/Proof.swift": "struct Proof { let key: Key }\n",
    "Algorithms/Algorithm.swift": "struct Algorithm {}\n",
    "HTTP/Fetcher.swift": 'struct Fetcher { let url = "https://issuer.example" }\n',
    "ResourceServer/Resource.swift": "struct Resource { let cache: Cache }\n",
}


def run(files: dict[str, str]) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as directory:
        library = pathlib.Path(directory) / "JOSE"
        cli = pathlib.Path(directory) / "JOSECLI"
        cli.mkdir(parents=True)
        for name, text in files.items():
            path = cli / name.removeprefix("CLI/") if name.startswith("CLI/") else library / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        return subprocess.run([sys.executable, str(CHECK), str(library), str(cli)], capture_output=True, text=True)


class PlantedViolations(unittest.TestCase):
    def assertFails(self, planted: dict[str, str], expected: str):
        result = run(CLEAN | planted)
        self.assertEqual(result.returncode, 1, result.stdout + result.stderr)
        self.assertIn(expected, result.stdout)

    def test_clean_tree_passes(self):
        result = run(CLEAN)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_extension_method_of_a_higher_layer(self):
        self.assertFails({
            "ResourceServer/Key+Login.swift": "extension Key {\n    func loginHint() -> String { \"\" }\n}\n",
            "Keys/Use.swift": "func describe(_ key: Key) -> String { key.loginHint() }\n",
        }, "names loginHint, declared in a higher layer")

    def test_free_function_of_a_higher_layer(self):
        self.assertFails({
            "ResourceServer/Compare.swift": "func compareStates(_ a: String, _ b: String) -> Bool { a == b }\n",
            "Keys/Use.swift": "let same = compareStates(\"a\", \"b\")\n",
        }, "names compareStates, declared in a higher layer")

    def test_folders_of_the_same_rank(self):
        self.assertFails({"DPoP/Use.swift": "struct UsesCache { let cache: Cache }\n"},
                         "names Cache, declared in another folder of the same layer")
        self.assertFails({"HTTP/Use.swift": "struct UsesAlgorithm { let algorithm: Algorithm }\n"},
                         "names Algorithm, declared in another folder of the same layer")

    def test_code_after_a_double_slash_inside_a_string(self):
        self.assertFails({"Keys/Use.swift": 'let endpoint = "https://issuer.example"; let resource = Resource?.none\n'},
                         "names Resource, declared in a higher layer")

    def test_nested_type_of_a_higher_layer(self):
        self.assertFails({
            "ResourceServer/Outer.swift": "struct Outer {\n    struct LoginState {}\n}\n",
            "Keys/Use.swift": "typealias Borrowed = LoginState\n",
        }, "names LoginState, declared in a higher layer")

    def test_names_in_comments_and_string_text_do_not_count(self):
        result = run(CLEAN | {"Keys/Note.swift": '// Client\nlet text = "Client Resource"\n/* Cache */\n'})
        self.assertEqual(result.returncode, 0, result.stdout)

    def test_docc_links_and_interpolations_count(self):
        self.assertFails({"Keys/Doc.swift": "/// See ``Resource``.\nstruct Documented {}\n"}, "names Resource")
        self.assertFails({"Keys/Text.swift": 'let text = "\\(Resource.self)"\n'}, "names Resource")

    def test_a_subfolder_belongs_to_its_folders_layer(self):
        room = {"ResourceServer/IssuerRegistry/Registry.swift": "struct Registry { let cache: Cache; let resource: Resource }\n"}
        result = run(CLEAN | room)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        nested = {"JWKS/Replicas/Replica.swift": "struct Replica { let key: Key }\n"}
        self.assertFails(nested | {"DPoP/Use.swift": "struct UsesReplica { let replica: Replica }\n"},
                         "names Replica, declared in another folder of the same layer")
        self.assertFails(room | {"JWT/Use.swift": "struct UsesRegistry { let registry: Registry }\n"},
                         "names Registry, declared in a higher layer")

    def test_the_cli_may_use_the_kits_package_api(self):
        kits = {"Encoding/Writer.swift": "package enum Writer {\n    package static func quoted(_ s: String) -> String { s }\n}\n",
                "HTTP/Query.swift": "package func queryURL(_ base: String) -> String { base }\n",
                "CLI/Use.swift": 'let text = Writer.quoted(queryURL("https://a.example"))\n'}
        result = run(CLEAN | kits)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_the_cli_may_not_use_other_folders_package_api(self):
        self.assertFails({"Replay/Store.swift": "struct Store {\n    package func holdsTransaction() -> Bool { true }\n}\n",
                          "CLI/Use.swift": "let held = store.holdsTransaction()\n"},
                         "names `holdsTransaction`, which Replay/ declares `package`")
        self.assertFails({"JWS/Header.swift": "struct Header {\n    package private(set) var extraMembers: [String] = []\n}\n",
                          "CLI/Use.swift": "let extra = header.extraMembers\n"},
                         "names `extraMembers`, which JWS/ declares `package`")
        self.assertFails({"JWT/Claims.swift": "struct Claims {\n    package init(parsedObject: String) {}\n}\n",
                          "CLI/Use.swift": "let claims = Claims(parsedObject: text)\n"},
                         "names `parsedObject`, which JWT/ declares `package`")
        self.assertFails({"Keys/Secret.swift": "package struct SecretBox {}\n", "CLI/Use.swift": "let box = SecretBox()\n"},
                         "names `SecretBox`, which Keys/ declares `package`")


if __name__ == "__main__":
    unittest.main(verbosity=2)
