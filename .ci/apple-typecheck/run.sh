#!/usr/bin/env bash
# The CI step: type-checks JOSE, JOSEOAuth and JOSEAppleLogin for iOS 16, macOS 13, tvOS 16 and
# watchOS 9 (typecheck.sh), each of which must pass, and for iOS 15, a control that must fail on
# the package's availability (Duration is iOS 16): a control that passes means the check no
# longer sees availability, and fails the step. Prints each platform's time.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CHECKOUT=$(cd "${1:-$HERE/../..}" && pwd)
failed=()
for platform in ios16 macos13 tvos16 watchos9; do
  start=$SECONDS
  "$HERE/typecheck.sh" "$platform" "$CHECKOUT" || failed+=("$platform")
  echo "apple-typecheck $platform: $((SECONDS - start)) s"
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
echo "apple-typecheck: JOSE, JOSEOAuth and JOSEAppleLogin type-check for ios16 macos13 tvos16 watchos9; the ios15 control fails"
