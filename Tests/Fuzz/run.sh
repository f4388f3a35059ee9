#!/usr/bin/env bash
# Builds the libFuzzer harness (jose-fuzz, with AddressSanitizer) and runs every fuzz target for
# SECONDS each (default 30). Each target starts from a temporary copy of Tests/Fuzz/Corpus/<target>,
# so a run never writes into the repository. Exits 1 if any target crashes, printing the
# reproducer path and the command that replays it.
#
#   Tests/Fuzz/run.sh [SECONDS] [TARGET...]
#   Tests/Fuzz/run.sh --traits SwiftCrypto [SECONDS] [TARGET...]   (the swift-crypto backend)
set -euo pipefail
cd "$(dirname "$0")/../.."

traits=()
scratch=.build-fuzz
if [ "${1:-}" = --traits ]; then
    traits=(--traits "$2")
    scratch=".build-fuzz-$2"
    shift 2
fi
seconds="${1:-30}"
shift || true
# lld, not gold: gold stops with an internal error while linking the libFuzzer runtime here.
# JOSE_BUILD_FLAGS: more flags for the build (CI's line-table debug info).
read -r -a build_flags <<<"${JOSE_BUILD_FLAGS:-}"
build=(swift build --scratch-path "$scratch" ${traits[@]+"${traits[@]}"} --product jose-fuzz
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld
       ${build_flags[@]+"${build_flags[@]}"})
export JOSE_FUZZ=1
"${build[@]}"
binary="$("${build[@]}" --show-bin-path)/jose-fuzz"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    read -r -a targets <<<"$("$binary" 2>&1 | sed -n 's/^targets: //p')"
fi

# Swift's crash backtracer reads memory that ASan flags; libFuzzer's own report is enough.
export SWIFT_BACKTRACE=enable=no
# The fixtures' one-time allocations (see lsan.supp for why LeakSanitizer misreads them).
export LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
work="$(mktemp -d "${TMPDIR:-/tmp}/jose-fuzz.XXXXXX")"

# One target: fuzz it for the given time, then write "ok" or "failed" to its status file.
fuzz_target() {
    local target="$1" start=$SECONDS
    mkdir -p "$work/$target/artifacts"
    cp -R "Tests/Fuzz/Corpus/$target" "$work/$target/corpus"
    if "$binary" "$target" -max_total_time="$seconds" -timeout=30 -print_final_stats=1 \
        -artifact_prefix="$work/$target/artifacts/" "$work/$target/corpus" >"$work/$target/log" 2>&1; then
        echo ok >"$work/$target/status"
    else
        echo failed >"$work/$target/status"
    fi
    echo "$((SECONDS - start))" >"$work/$target/seconds"
}

# Each fuzzer is one single-threaded process: run as many at once as there are cores
# (JOSE_FUZZ_JOBS overrides), so the smoke run takes the same fuzzing time per target in less
# wall time.
jobs="${JOSE_FUZZ_JOBS:-$(nproc)}"
for target in "${targets[@]}"; do
    while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    fuzz_target "$target" &
done
wait

failed=()
for target in "${targets[@]}"; do
    if [ "$(cat "$work/$target/status" 2>/dev/null)" = ok ]; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$target/log")
        echo "fuzz $target: ok, ${runs:-?} inputs in $(cat "$work/$target/seconds") s"
    else
        failed+=("$target")
        echo "fuzz $target: FAILED; last lines of $work/$target/log:"
        tail -n 40 "$work/$target/log"
        for reproducer in "$work/$target/artifacts"/*; do
            [ -e "$reproducer" ] || continue
            echo "reproducer: $reproducer"
            echo "replay:     JOSE_FUZZ=1 $binary $target $reproducer"
        done
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzzing failed for: ${failed[*]} (work directory kept: $work)"
    exit 1
fi
rm -rf "$work"
echo "fuzzing passed: ${#targets[@]} targets, ${seconds} s each"
