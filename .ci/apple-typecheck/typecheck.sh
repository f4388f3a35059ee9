#!/usr/bin/env bash
# Type-checks the package's Apple-facing modules for one Apple target on Linux, without an Apple
# SDK (README.md beside this script says what that catches and what it cannot).
#
#   typecheck.sh PLATFORM [CHECKOUT]      PLATFORM: ios16 | macos13 | tvos16 | watchos9 | ios15
#
# 1. Builds Swift, _Concurrency, Synchronization, _RegexParser and _StringProcessing for an
#    x86_64 Apple simulator target from this toolchain's own .swiftinterface files (edited copies
#    in interfaces/). The Linux interfaces carry Apple availability, so availability errors are
#    real; x86_64 because the interface uses Float80. Built for the family's oldest target and
#    cached in the work folder ($APPLE_TYPECHECK_WORK, else $TMPDIR/apple-typecheck), one per
#    family: ios16 and the ios15 control share theirs.
# 2. Builds stub modules (stubs/: the Darwin overlay over a few Darwin C declarations, the `os`
#    unfair lock, Dispatch, Foundation, Crypto = CryptoKit's API, CryptoExtras, SwiftASN1 and X509
#    (swift-certificates, for x5c on the swift-crypto backend), Logging, Security,
#    AuthenticationServices, and FlyingSocks and FlyingFox as JOSELoopbackLogin uses them) with the
#    availability Apple (or the package) declares.
# 3. Emits JOSE, JOSEOAuth, JOSEURLSession, JOSEAppleLogin and JOSELoopbackLogin as modules against
#    all of that, each with the settings Package.swift gives it on Apple platforms (the
#    swift-crypto backend, the caller's-executor feature; JOSE's C module CJOSEBase64 imported
#    from its header as clang reads it for the target), and, for iOS and macOS, type-checks the
#    Swift snippets of JOSEAppleLogin's DocC catalog (snippets.py).
# 4. For macOS only, the command line: compiles the real swift-argument-parser sources (from the
#    package's resolved checkouts, `swift package resolve` when there are none) for the target,
#    then JOSEPrimitiveSignatureCheck, JOSEBatchIO and the whole of JOSECLI (the PostgreSQL trait off).
# Exits 0 when all are clean; prints the first errors otherwise.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PLATFORM=${1:?platform}; CHECKOUT=$(cd "${2:-.}" && pwd)
case $PLATFORM in
  ios16)    T=x86_64-apple-ios16.0-simulator;;
  ios15)    T=x86_64-apple-ios15.0-simulator;;
  macos13)  T=x86_64-apple-macos13.0;;
  tvos16)   T=x86_64-apple-tvos16.0-simulator;;
  watchos9) T=x86_64-apple-watchos9.0-simulator;;
  *) echo "unknown platform $PLATFORM"; exit 2;;
esac
# the stdlib is built for the oldest target of its family; the check itself uses $T
STDLIB_T=$(echo "$T" | sed -E 's/(ios|tvos)[0-9.]+/\112.0/; s/watchos[0-9.]+/watchos6.0/; s/macos[0-9.]+/macos10.13/')
ROOT=${APPLE_TYPECHECK_WORK:-${TMPDIR:-/tmp}/apple-typecheck}
WORK=$ROOT/$PLATFORM
SHIMS=$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift/shims
# one standard library per family (ios16 and the ios15 control share theirs)
SDK=$ROOT/stdlib-$STDLIB_T MODS=$WORK/mods MC=$WORK/module-cache
mkdir -p "$SDK" "$MODS" "$MC"
if [ ! -f "$SDK/.done" ]; then
  mkdir -p "$SDK/interfaces"
  for m in Swift _Concurrency Synchronization _RegexParser _StringProcessing SwiftOnoneSupport; do
    sed -E "1,5s/-target [^ ]+/-target $STDLIB_T/" "$HERE/interfaces/$m.swiftinterface" > "$SDK/interfaces/$m.swiftinterface"
  done
  swiftc -frontend -compile-module-from-interface -target "$STDLIB_T" -parse-stdlib -module-name Swift \
    -I "$SHIMS" -o "$SDK/Swift.swiftmodule" "$SDK/interfaces/Swift.swiftinterface"
  for m in _Concurrency Synchronization _RegexParser _StringProcessing SwiftOnoneSupport; do
    swiftc -frontend -compile-module-from-interface -disable-availability-checking -target "$STDLIB_T" -module-name "$m" \
      -I "$SDK" -I "$SHIMS" -o "$SDK/$m.swiftmodule" "$SDK/interfaces/$m.swiftinterface"
  done
  touch "$SDK/.done"
fi
common=(-module-cache-path "$MC" -target "$T" -I "$SDK" -I "$HERE/stubs/Darwin" -I "$HERE/stubs/os" -I "$MODS")
swiftc -frontend -emit-module -parse-as-library -swift-version 5 -enable-library-evolution "${common[@]}" \
  -module-name Darwin -import-underlying-module -o "$MODS/Darwin.swiftmodule" "$HERE/stubs/DarwinOverlay.swift"
for m in Dispatch Foundation Crypto CryptoExtras SwiftASN1 X509 Logging Security AuthenticationServices FlyingSocks FlyingFox; do
  swiftc -frontend -emit-module -parse-as-library -swift-version 5 -enable-library-evolution "${common[@]}" \
    -module-name "$m" -o "$MODS/$m.swiftmodule" "$HERE/stubs/$m.swift"
done
# JOSE's C module, CJOSEBase64 (its module map and header, which include no system header)
swift6=(-parse-as-library -swift-version 6 -package-name swift_jose -D SWIFT_PACKAGE "${common[@]}"
  -I "$CHECKOUT/Sources/CJOSEBase64/include")
callers_executor=(-enable-upcoming-feature NonisolatedNonsendingByDefault)
cd "$CHECKOUT"
# check MODULE -emit-module|-typecheck FLAGS...: compiles Sources/MODULE, prints its first errors
check() {
  local module=$1 mode=$2; shift 2
  local output=()
  [ "$mode" = -emit-module ] && output=(-o "$MODS/$module.swiftmodule")
  local rc=0
  swiftc -frontend "$mode" -module-name "$module" "${swift6[@]}" "$@" "${output[@]}" \
    $(find "Sources/$module" -name '*.swift' | sort) > "$WORK/$module.log" 2>&1 || rc=$?
  grep -E "^[^ ]+:[0-9]+:[0-9]+: error:" "$WORK/$module.log" | sort -u | head -20 || true
  echo "$module ($PLATFORM): $([ $rc -eq 0 ] && echo ok || echo "errors ($(grep -c 'error:' "$WORK/$module.log"))")"
  return $rc
}
check JOSE -emit-module "${callers_executor[@]}" -D JOSE_SWIFT_CRYPTO
check JOSEOAuth -emit-module "${callers_executor[@]}"
check JOSEURLSession -emit-module "${callers_executor[@]}"
check JOSEAppleLogin -emit-module
check JOSELoopbackLogin -emit-module "${callers_executor[@]}"
# The command line (`jose`), for macOS only (iOS, tvOS and watchOS get no CLI): the real
# swift-argument-parser sources, compiled for the target against the stubs (its Darwin branches:
# os_unfair_lock, ioctl, the C library), then JOSEPrimitiveSignatureCheck, JOSEBatchIO and the
# whole of JOSECLI, each with the settings Package.swift gives it (none; the PostgreSQL trait is off).
if [ "$PLATFORM" = macos13 ]; then
  # The dependency checkouts of the package (`swift package resolve`, which the CI's later
  # `swift build` reuses), unless APPLE_TYPECHECK_CHECKOUTS names a folder of them.
  DEPS=${APPLE_TYPECHECK_CHECKOUTS:-$CHECKOUT/.build/checkouts}
  if [ ! -d "$DEPS/swift-argument-parser/Sources/ArgumentParser" ]; then
    echo "no swift-argument-parser in $DEPS: swift package resolve"
    swift package --package-path "$CHECKOUT" resolve > "$WORK/resolve.log" 2>&1 || { cat "$WORK/resolve.log"; exit 1; }
  fi
  # dependency MODULE FOLDER: emits the module from FOLDER's sources as SwiftPM builds it (Swift 6,
  # as its package is, with the package's name and SWIFT_PACKAGE; it declares no other settings).
  dependency() {
    local module=$1 folder=$2 files=() rc=0
    mapfile -d '' files < <(find "$folder" -name '*.swift' -print0 | sort -z)
    swiftc -frontend -emit-module -module-name "$module" -parse-as-library -swift-version 6 \
      -package-name swift_argument_parser -D SWIFT_PACKAGE "${common[@]}" -o "$MODS/$module.swiftmodule" "${files[@]}" \
      > "$WORK/$module.log" 2>&1 || rc=$?
    grep -E "^[^ ]+:[0-9]+:[0-9]+: error:" "$WORK/$module.log" | sort -u | head -20 || true
    echo "$module ($PLATFORM): $([ $rc -eq 0 ] && echo ok || echo "errors ($(grep -c 'error:' "$WORK/$module.log"))")"
    return $rc
  }
  dependency ArgumentParserToolInfo "$DEPS/swift-argument-parser/Sources/ArgumentParserToolInfo"
  dependency ArgumentParser "$DEPS/swift-argument-parser/Sources/ArgumentParser"
  check JOSEPrimitiveSignatureCheck -emit-module
  check JOSEBatchIO -emit-module
  check JOSECLI -typecheck
fi
# The catalog's snippets, where the login sheet has a presentation context (not tvOS or watchOS).
case $PLATFORM in tvos*|watchos*) exit 0;; esac
rm -rf "$WORK/snippets"
python3 "$HERE/snippets.py" Sources/JOSEAppleLogin/JOSEAppleLogin.docc "$WORK/snippets"
rc=0
swiftc -frontend -typecheck -module-name Snippets "${swift6[@]}" -enable-upcoming-feature MemberImportVisibility \
  "$HERE/snippet-inputs.swift" "$WORK/snippets"/*.swift > "$WORK/snippets.log" 2>&1 || rc=$?
grep -E "^[^ ]+:[0-9]+:[0-9]+: error:" "$WORK/snippets.log" | sort -u | head -20 || true
echo "JOSEAppleLogin.docc snippets ($PLATFORM): $([ $rc -eq 0 ] && echo ok || echo "errors ($(grep -c 'error:' "$WORK/snippets.log"))")"
exit $rc
