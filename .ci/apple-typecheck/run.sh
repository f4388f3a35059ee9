#!/usr/bin/env bash
# The CI step: type-checks JOSE, JOSEOAuth, JOSEURLSession, JOSEAppleLogin and JOSELoopbackLogin for
# iOS 16, macOS 13, tvOS 16 and watchOS 9, and the whole `jose` command line (with the real
# swift-argument-parser) for macOS 13 (typecheck.sh), each of which must pass, and for iOS 15, a
# control that must fail on the package's availability (Duration is iOS 16): a control that
# passes means the check no longer sees availability, and fails the step. Prints each platform's
# time (macOS's includes `swift package resolve` when the checkout has no dependency checkouts).
#
# Each compiler invocation is single-threaded, so the platforms run two at a time, paired so that
# no two of them build the same standard-library folder at once (iOS 16 and the iOS 15 control
# share one, and the control runs last).
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CHECKOUT=$(cd "${1:-$HERE/../..}" && pwd)
LOGS=$(mktemp -d)
trap 'rm -rf "$LOGS"' EXIT
failed=()

# run PLATFORM: type-checks PLATFORM, its output and time into $LOGS.
run() {
  local start=$SECONDS rc=0
  "$HERE/typecheck.sh" "$1" "$CHECKOUT" >"$LOGS/$1.log" 2>&1 || rc=$?
  echo "$rc $((SECONDS - start))" >"$LOGS/$1.result"
}

for pair in "ios16 macos13" "tvos16 watchos9"; do
  for platform in $pair; do run "$platform" & done
  wait
  for platform in $pair; do
    cat "$LOGS/$platform.log"
    read -r rc seconds <"$LOGS/$platform.result"
    [ "$rc" -eq 0 ] || failed+=("$platform")
    echo "apple-typecheck $platform: $seconds s"
  done
done
start=$SECONDS
control=$("$HERE/typecheck.sh" ios15 "$CHECKOUT" 2>&1)
control_rc=$?
echo "apple-typecheck ios15 (control): $((SECONDS - start)) s"
if [ $control_rc -eq 0 ]; then
  echo "$control"
  failed+=("ios15 (the control passed: the check does not see availability)")
elif ! grep -q "is only available in iOS 16" <<<"$control"; then
  echo "$control"
  failed+=("ios15 (the control failed, but not on iOS 16 availability)")
else
  echo "apple-typecheck ios15 (control): fails as it must, on iOS 16 API:"
  grep -m 1 "is only available in iOS 16" <<<"$control"
fi
if [ ${#failed[@]} -gt 0 ]; then
  echo "apple-typecheck: FAILED: ${failed[*]}"
  exit 1
fi
echo "apple-typecheck: JOSE, JOSEOAuth, JOSEURLSession, JOSEAppleLogin and JOSELoopbackLogin type-check for ios16 macos13 tvos16 watchos9, and the whole CLI (JOSECLI, with ArgumentParser, JOSEPrimitiveSignatureCheck and JOSEBatchIO) for macos13; the ios15 control fails"
