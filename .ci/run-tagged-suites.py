#!/usr/bin/env python3
"""Runs the test suites that carry a swift-testing tag, and fails unless exactly those ran.

`swift test --filter` takes regular expressions over test IDs only (this toolchain's swift-testing
has no tag filter on its command line). So the suites are found by their tags first: `swift test
list` writes every test to an event stream, each suite with its tags (the experimental event
stream version carries them). Their IDs, anchored, become the `--filter` of the run, whose own
event stream then shows which suites started.

The guards: the tag must be on exactly EXPECTED suites (a suite that loses its tag, or a new one
that gains it, changes the count and fails the run until EXPECTED says so; renaming a suite
changes nothing), and every tagged suite must have run (or been skipped by its own condition)
and no other suite, apart from the enclosing suites of tagged ones.

    python3 .ci/run-tagged-suites.py TAG EXPECTED [--list] [--test-targets NAMES] -- SWIFT_ARGUMENTS...

TAG is the tag's name (`addressSanitized`); SWIFT_ARGUMENTS go to `swift build`, `swift test list`
and `swift test` (e.g. `--sanitize=address --scratch-path .build-asan`). The build makes the
package's test product only, not its executables, and with --test-targets (comma-separated) only
those test targets are in it (the manifest keeps the ones JOSE_TEST_TARGETS names): the tagged
suites must all be in them, or the count check fails. Of those targets it compiles only the files
the run needs (the manifest leaves out the ones JOSE_TEST_EXCLUDE names): a file is left out when
it declares suites or tests, names the tag nowhere, and extends no type of a tagged suite. A file
of helpers, which declares no test, stays. Leaving out a file that a kept one needs fails the
build; one that held a tagged suite fails the count check. With --list, the tagged suites and the
filter are printed and nothing runs.
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

# The event stream version whose test records carry their tags.
EVENT_STREAM = ["--experimental-event-stream-version", "99"]

# The test targets' sources, a folder per target.
TESTS = pathlib.Path(__file__).resolve().parent.parent / "Tests"


def usage() -> None:
    """Ends with the usage line."""
    sys.exit("usage: run-tagged-suites.py TAG EXPECTED [--list] [--test-targets NAMES] -- SWIFT_ARGUMENTS...")


def records(path: pathlib.Path) -> list[dict]:
    """The JSON records of an event stream file, one a line (split at line feeds only: a record
    may hold a raw U+2028 or U+0085, which `str.splitlines` would split at)."""
    return [json.loads(line) for line in path.read_text().split("\n") if line.strip()]


def tags_of(test: dict) -> set[str]:
    """A test record's tag names, without the leading dot the experimental field writes."""
    return {tag.lstrip(".") for tag in (test.get("tags") or test.get("_tags") or [])}


def enclosing(suite_id: str) -> set[str]:
    """The IDs of the suites that enclose `suite_id` (`M.A/B/C` is inside `M.A/B` and `M.A`)."""
    parts = suite_id.split("/")
    return {"/".join(parts[:end]) for end in range(1, len(parts))}


def files_left_out(tag: str, targets: list[str]) -> list[str]:
    """The Swift files of the test targets `targets` that a run of the suites tagged `tag` does not
    need: those that declare a suite or a test, name the tag nowhere, and extend no type that a
    tagged suite declares (its tests would be that suite's). Paths relative to Tests/."""
    texts = {path: path.read_text() for target in targets for path in sorted((TESTS / target).rglob("*.swift"))}
    mention = re.compile(r"\." + re.escape(tag) + r"\b")
    tagged_types = set()
    for text in texts.values():
        # Each suite's attribute up to its declaration's opening brace: tagged or not, and its name.
        for start in (match.start() for match in re.finditer(r"@Suite\b", text)):
            declaration = text[start:text.find("{", start)]
            name = re.search(r"\b(?:struct|enum|class|actor)\s+(\w+)", declaration)
            if name and mention.search(declaration):
                tagged_types.add(name.group(1))
    extends_tagged = re.compile(r"\bextension\s+(?:\w+\.)*(?:" + "|".join(map(re.escape, sorted(tagged_types))) + r")\b") \
        if tagged_types else None
    return [str(path.relative_to(TESTS)) for path, text in texts.items()
            if ("@Suite" in text or "@Test" in text) and not mention.search(text)
            and not (extends_tagged and extends_tagged.search(text))]


def main() -> None:
    """Lists the tagged suites, checks their count, runs them and checks what the run reached."""
    if "--" not in sys.argv:
        usage()
    ours, swift_arguments = sys.argv[1:sys.argv.index("--")], sys.argv[sys.argv.index("--") + 1:]
    list_only = "--list" in ours
    ours = [argument for argument in ours if argument != "--list"]
    environment = dict(os.environ)
    if "--test-targets" in ours:
        index = ours.index("--test-targets")
        if index + 1 >= len(ours):
            usage()
        targets = ours[index + 1]
        del ours[index:index + 2]
    else:
        targets = None
    if len(ours) != 2 or not ours[1].isdigit():
        usage()
    tag, expected = ours[0], int(ours[1])
    if targets is not None:
        environment["JOSE_TEST_TARGETS"] = targets
        left_out = files_left_out(tag, targets.split(","))
        environment["JOSE_TEST_EXCLUDE"] = ",".join(left_out)
        print(f"run-tagged-suites: {len(left_out)} test files without .{tag} suites are not compiled")

    # On the run's own scratch folder: SwiftPM locks the folder it uses, and the main one may be busy
    # (the docs lane of .ci/run builds there meanwhile).
    scratch = []
    if "--scratch-path" in swift_arguments:
        scratch = swift_arguments[swift_arguments.index("--scratch-path"):swift_arguments.index("--scratch-path") + 2]
    package = json.loads(subprocess.run(["swift", "package", *scratch, "dump-package"], check=True,
                                        capture_output=True, text=True, env=environment).stdout)["name"]
    subprocess.run(["swift", "build", "--product", f"{package}PackageTests", *swift_arguments], check=True,
                   env=environment)
    swift_arguments = ["--skip-build", *swift_arguments]
    with tempfile.TemporaryDirectory() as directory:
        listing = pathlib.Path(directory) / "list.jsonl"
        subprocess.run(["swift", "test", "list", *swift_arguments, "--event-stream-output-path", str(listing),
                        *EVENT_STREAM], check=True, stdout=subprocess.DEVNULL, env=environment)
        tests = [record["payload"] for record in records(listing) if record.get("kind") == "test"]
        suites = {test["id"] for test in tests if test.get("kind") == "suite"}
        tagged = sorted(test["id"] for test in tests if test.get("kind") == "suite" and tag in tags_of(test))
        print(f"run-tagged-suites: {len(tagged)} suites tagged .{tag}")
        for suite in tagged:
            print("  " + suite)
        if len(tagged) != expected:
            sys.exit(f"run-tagged-suites: .{tag} is on {len(tagged)} suites, not the {expected} expected: a suite lost or "
                     "gained the tag; tag it again, or change the expected count in .ci/run if that was meant")
        selection = "^(?:" + "|".join(re.escape(suite) for suite in tagged) + ")$"
        if list_only:
            print(f"run-tagged-suites: --filter '{selection}'")
            return

        stream = pathlib.Path(directory) / "run.jsonl"
        run = subprocess.run(["swift", "test", *swift_arguments, "--filter", selection,
                              "--event-stream-output-path", str(stream), *EVENT_STREAM], env=environment)
        if run.returncode != 0:
            sys.exit(run.returncode)  # `swift test` has said what failed
        events = [record["payload"] for record in records(stream) if record.get("kind") == "event"]
        reached = {event.get("testID") for event in events if event.get("kind") in ("testStarted", "testSkipped")}
        reached &= suites
        missing = sorted(set(tagged) - reached)
        enclosing_tagged = set().union(*(enclosing(suite) for suite in tagged))
        extra = sorted(reached - set(tagged) - enclosing_tagged)
        if missing or extra:
            sys.exit(f"run-tagged-suites: the run did not select the .{tag} suites: missing {missing}, extra {extra}")
        print(f"run-tagged-suites: the run reached exactly the {len(tagged)} suites tagged .{tag}")


if __name__ == "__main__":
    main()
