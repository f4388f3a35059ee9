#!/usr/bin/env python3
"""Shows that .ci/run-tagged-suites.py selects suites by their tag and fails when a suite lost its
tag or the run did not reach the tagged suites, with a stand-in `swift` that writes the event
streams a real one would.

    python3 .ci/test_run_tagged_suites.py
"""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import textwrap
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parent / "run-tagged-suites.py"

# A stand-in for `swift`: `swift package dump-package` names the package M and records its
# arguments in PACKAGE_SEEN; `swift build` records
# its arguments, JOSE_TEST_TARGETS and JOSE_TEST_EXCLUDE in BUILD_SEEN; `swift test list` writes the suites of LISTING
# to the event stream; `swift test` records its --filter in FILTER_SEEN and writes a testStarted
# event for each suite of STARTED (the suites a real run would have reached), after a record
# holding a raw U+2028. Test commands must not build (--skip-build).
FAKE_SWIFT = textwrap.dedent('''\
    #!/usr/bin/env python3
    import json, os, sys
    arguments = sys.argv[1:]
    if arguments[0] == "package":
        json.dump(arguments[1:], open(os.environ["PACKAGE_SEEN"], "w"))
        print(json.dumps({"name": "M"}))
        sys.exit(0)
    if arguments[0] == "build":
        json.dump({"arguments": arguments[1:], "targets": os.environ.get("JOSE_TEST_TARGETS"),
                   "excluded": os.environ.get("JOSE_TEST_EXCLUDE")}, open(os.environ["BUILD_SEEN"], "w"))
        sys.exit(0)
    if "--skip-build" not in arguments:
        sys.exit("swift test without --skip-build")
    stream = arguments[arguments.index("--event-stream-output-path") + 1]
    with open(stream, "w") as out:
        if arguments[1] == "list":
            for suite, tags in json.loads(os.environ["LISTING"]).items():
                payload = {"kind": "suite", "id": suite, "name": suite.split("/")[-1]}
                if tags:
                    payload["_tags"] = ["." + tag for tag in tags]
                out.write(json.dumps({"kind": "test", "payload": payload}) + "\\n")
        else:
            open(os.environ["FILTER_SEEN"], "w").write(arguments[arguments.index("--filter") + 1])
            # An argument shown with a raw line separator, as a parameterized test's can be.
            out.write(json.dumps({"kind": "event", "payload": {"kind": "testCaseStarted", "arguments": "a\\u2028b"}},
                                 ensure_ascii=False) + "\\n")
            for suite in json.loads(os.environ["STARTED"]):
                out.write(json.dumps({"kind": "event", "payload": {"kind": "testStarted", "testID": suite}}) + "\\n")
    sys.exit(int(os.environ.get("STATUS", "0")))
''')

# The suites `swift test list` reports, with their tags.
LISTING = {
    "M.Parser": ["addressSanitized"],
    "M.Outer": [],
    "M.Outer/Inner": ["addressSanitized", "threadSanitized"],
    "M.Cache": ["threadSanitized"],
}


# Test sources, for the files a run leaves out: paths under Tests/ and their text.
SOURCES = {
    "ATests/Tagged.swift": '@Suite("Parser (strict)", .tags(.addressSanitized))\nstruct ParserTests {\n    @Test func a() {}\n}\n',
    "ATests/Untagged.swift": "@Suite struct CacheTests {\n    @Test func b() {}\n}\n",
    "ATests/Helpers.swift": "func helper() {}\n",
    "ATests/More/ExtendsTagged.swift": "extension ParserTests {\n    @Test func c() {}\n}\n",
    "ATests/Nested.swift": "extension Outer {\n    @Suite(.tags(.addressSanitized)) struct Inner {}\n}\n",
    "ATests/OtherTag.swift": "@Suite(.tags(.threadSanitized)) struct Threads {}\n",
    "ATests/LongerTag.swift": "@Suite(.tags(.addressSanitizedLater)) struct Later {}\n",
    "BTests/Untagged.swift": "@Suite struct Elsewhere {}\n",
}


def run(tag: str, expected: int, started: list[str], *extra: str, status: int = 0,
        swift_arguments: tuple[str, ...] = ("--sanitize=thread",)) -> tuple[subprocess.CompletedProcess, str, dict]:
    """Runs the script with the stand-in `swift`, from a copy beside the test sources of
    ``SOURCES``; the result, the --filter the run was given, and what the build was asked for
    (with the arguments of `swift package` under "package")."""
    with tempfile.TemporaryDirectory() as directory:
        script = pathlib.Path(directory) / "repository" / ".ci" / SCRIPT.name
        script.parent.mkdir(parents=True)
        script.write_text(SCRIPT.read_text())
        for path, text in SOURCES.items():
            source = script.parent.parent / "Tests" / path
            source.parent.mkdir(parents=True, exist_ok=True)
            source.write_text(text)
        swift = pathlib.Path(directory) / "swift"
        swift.write_text(FAKE_SWIFT)
        swift.chmod(0o755)
        seen = pathlib.Path(directory) / "filter"
        built = pathlib.Path(directory) / "build"
        packaged = pathlib.Path(directory) / "package"
        environment = os.environ | {"PATH": f"{directory}:{os.environ['PATH']}", "LISTING": json.dumps(LISTING),
                                    "STARTED": json.dumps(started), "FILTER_SEEN": str(seen), "BUILD_SEEN": str(built),
                                    "PACKAGE_SEEN": str(packaged),
                                    "STATUS": str(status)}
        environment.pop("JOSE_TEST_TARGETS", None)
        environment.pop("JOSE_TEST_EXCLUDE", None)
        result = subprocess.run([sys.executable, str(script), tag, str(expected), *extra, "--", *swift_arguments],
                                capture_output=True, text=True, env=environment)
        build = json.loads(built.read_text()) if built.exists() else {}
        if packaged.exists():
            build["package"] = json.loads(packaged.read_text())
        return (result, seen.read_text() if seen.exists() else "", build)


class TaggedSuites(unittest.TestCase):
    """The selection by tag and each of its guards."""

    def test_runs_exactly_the_tagged_suites(self):
        result, selection, build = run("addressSanitized", 2, ["M.Outer", "M.Outer/Inner", "M.Parser"])
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(selection, r"^(?:M\.Outer/Inner|M\.Parser)$")
        # The test product alone, with every test target.
        self.assertEqual(build, {"arguments": ["--product", "MPackageTests", "--sanitize=thread"], "targets": None,
                                 "excluded": None, "package": ["dump-package"]})

    def test_the_package_is_read_on_the_runs_own_scratch_folder(self):
        result, _, build = run("addressSanitized", 2, ["M.Outer/Inner", "M.Parser"],
                               swift_arguments=("--sanitize=address", "--scratch-path", ".build-asan"))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(build["package"], ["--scratch-path", ".build-asan", "dump-package"])
        self.assertEqual(build["arguments"], ["--product", "MPackageTests", "--sanitize=address", "--scratch-path", ".build-asan"])

    def test_test_targets_keep_only_those_in_the_build(self):
        result, _, build = run("addressSanitized", 2, ["M.Outer/Inner", "M.Parser"], "--test-targets", "ATests,BTests")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(build["targets"], "ATests,BTests")

    def test_test_targets_compile_only_the_files_the_run_needs(self):
        # Left out: the suites of another tag, of a tag whose name only starts alike, and of none.
        # Kept: the tagged suites, the helpers, an extension of a tagged suite (its tests are
        # that suite's) and a tagged suite nested in an extension.
        result, _, build = run("addressSanitized", 2, ["M.Outer/Inner", "M.Parser"], "--test-targets", "ATests,BTests")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(build["excluded"].split(","), [
            "ATests/LongerTag.swift", "ATests/OtherTag.swift", "ATests/Untagged.swift", "BTests/Untagged.swift"])
        self.assertIn("4 test files without .addressSanitized suites are not compiled", result.stdout)

    def test_list_runs_nothing(self):
        result, selection, _ = run("threadSanitized", 2, [], "--list")
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("M.Cache", result.stdout)
        self.assertEqual(selection, "")

    def test_a_suite_that_lost_its_tag_fails(self):
        result, _, _ = run("addressSanitized", 3, [])
        self.assertEqual(result.returncode, 1)
        self.assertIn("is on 2 suites, not the 3 expected", result.stderr)

    def test_a_tagged_suite_the_run_did_not_reach_fails(self):
        result, _, _ = run("addressSanitized", 2, ["M.Parser"])
        self.assertEqual(result.returncode, 1)
        self.assertIn("missing ['M.Outer/Inner']", result.stderr)

    def test_an_untagged_suite_the_run_reached_fails(self):
        result, _, _ = run("threadSanitized", 2, ["M.Outer/Inner", "M.Cache", "M.Parser"])
        self.assertEqual(result.returncode, 1)
        self.assertIn("extra ['M.Parser']", result.stderr)

    def test_a_failing_run_fails(self):
        result, _, _ = run("threadSanitized", 2, ["M.Outer/Inner", "M.Cache"], status=1)
        self.assertEqual(result.returncode, 1)


if __name__ == "__main__":
    unittest.main()
