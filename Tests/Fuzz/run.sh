#!/usr/bin/env bash
# Builds the libFuzzer harness (jose-fuzz, with AddressSanitizer) and runs every fuzz target for
# SECONDS each (default 30). Each target starts from a temporary copy of Tests/Fuzz/Corpus/<target>,
# so a run never writes into the repository. Exits 1 if any target crashes, printing the
# reproducer path and the command that replays it.
#
#   Tests/Fuzz/run.sh [SECONDS] [TARGET...]
#   Tests/Fuzz/run.sh --traits SwiftCrypto [SECONDS] [TARGET...]   (the swift-crypto backend)
#   Tests/Fuzz/run.sh [SECONDS] [TARGET...] --also SwiftCrypto TARGET...
#
# With --also, the targets after it run on a second build with that trait, in the same pool of
# fuzzers as the first build's: both builds are made first, then every run is spread over the
# cores, so none waits for the other build's runs to finish.
set -euo pipefail
cd "$(dirname "$0")/../.."

first_trait=""
if [ "${1:-}" = --traits ]; then
    first_trait=$2
    shift 2
fi
seconds="${1:-30}"
shift || true
targets=()
also_trait=""
also_targets=()
while [ $# -gt 0 ]; do
    if [ "$1" = --also ]; then
        also_trait=${2:?"--also needs a trait and targets"}
        shift 2
        also_targets=("$@")
        [ ${#also_targets[@]} -gt 0 ] || { echo "--also $also_trait names no target" >&2; exit 2; }
        break
    fi
    targets+=("$1")
    shift
done

export JOSE_FUZZ=1
# Builds jose-fuzz with TRAIT (none: the default backend) in its own scratch folder and prints the
# binary's path. lld, not gold: gold stops with an internal error while linking the libFuzzer
# runtime here.
build_harness() {
    local trait=$1 build
    build=(swift build --scratch-path ".build-fuzz${trait:+-$trait}" ${trait:+--traits "$trait"} --product jose-fuzz
           -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld)
    "${build[@]}" >&2
    echo "$("${build[@]}" --show-bin-path)/jose-fuzz"
}

# The runs, each target of each build: run_binaries[i] fuzzes run_targets[i], and its reports
# and work directory are called run_names[i] (the target, and the trait for the second build).
run_binaries=()
run_targets=()
run_names=()
binary=$(build_harness "$first_trait")
if [ ${#targets[@]} -eq 0 ]; then
    read -r -a targets <<<"$("$binary" 2>&1 | sed -n 's/^targets: //p')"
fi
for target in "${targets[@]}"; do
    run_binaries+=("$binary") run_targets+=("$target") run_names+=("$target")
done
if [ -n "$also_trait" ]; then
    also_binary=$(build_harness "$also_trait")
    for target in "${also_targets[@]}"; do
        run_binaries+=("$also_binary") run_targets+=("$target") run_names+=("$target-$also_trait")
    done
fi

# Swift's crash backtracer reads memory that ASan flags; libFuzzer's own report is enough.
export SWIFT_BACKTRACE=enable=no
# The fixtures' one-time allocations (see lsan.supp for why LeakSanitizer misreads them).
export LSAN_OPTIONS="suppressions=$PWD/Tests/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
work="$(mktemp -d "${TMPDIR:-/tmp}/jose-fuzz.XXXXXX")"

# Run INDEX: fuzz its target for the given time, then write "ok" or "failed" to its status file.
fuzz_target() {
    local binary=${run_binaries[$1]} target=${run_targets[$1]} name=${run_names[$1]} start=$SECONDS
    mkdir -p "$work/$name/artifacts"
    cp -R "Tests/Fuzz/Corpus/$target" "$work/$name/corpus"
    if "$binary" "$target" -max_total_time="$seconds" -timeout=30 -print_final_stats=1 \
        -artifact_prefix="$work/$name/artifacts/" "$work/$name/corpus" >"$work/$name/log" 2>&1; then
        echo ok >"$work/$name/status"
    else
        echo failed >"$work/$name/status"
    fi
    echo "$((SECONDS - start))" >"$work/$name/seconds"
}

# Each fuzzer is one single-threaded process: run as many at once as there are cores
# (JOSE_FUZZ_JOBS overrides), so the smoke run takes the same fuzzing time per target in less
# wall time.
jobs="${JOSE_FUZZ_JOBS:-$(nproc)}"
for run in "${!run_names[@]}"; do
    while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    fuzz_target "$run" &
done
wait

failed=()
for run in "${!run_names[@]}"; do
    binary=${run_binaries[$run]} target=${run_targets[$run]} name=${run_names[$run]}
    if [ "$(cat "$work/$name/status" 2>/dev/null)" = ok ]; then
        inputs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name/log")
        echo "fuzz $name: ok, ${inputs:-?} inputs in $(cat "$work/$name/seconds") s"
    else
        failed+=("$name")
        echo "fuzz $name: FAILED; last lines of $work/$name/log:"
        tail -n 40 "$work/$name/log"
        for reproducer in "$work/$name/artifacts"/*; do
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
echo "fuzzing passed: ${#run_names[@]} runs, ${seconds} s each"
