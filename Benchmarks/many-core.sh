#!/usr/bin/env bash
# The many-core benchmark (#35): `jose bench --threads N` (jose against the raw OpenSSL check, in
# one process) and the CLI batch (`jose verify --batch --threads N` over a file of tokens,
# launch to exit) at each N, per algorithm. For a machine with 16 or more cores; on fewer, the
# counts above the core count are skipped.
#
#   Benchmarks/many-core.sh [JOSE] [OUT_DIR]
#
# JOSE: the jose to measure; without it, a statically linked one is built here first
#   (swift build -c release --static-swift-stdlib --product jose: the Swift runtime is inside,
#   libcurl and OpenSSL come from the system; linking needs Debian's libcurl4-openssl-dev).
#   Copy that binary to the many-core machine and pass its path there.
# OUT_DIR (default many-core-out): bench-N.txt, batch-ALG-N.txt, machine.txt and summary.tsv.
# THREADS, ALGS, TOKENS and SECONDS_PER_MEASUREMENT in the environment override the defaults.
set -euo pipefail

jose=${1:-}
out=${2:-many-core-out}
threads=${THREADS:-"1 2 4 8 16"}
algorithms=${ALGS:-"HS256 RS256 ES256 EdDSA"}
tokens=${TOKENS:-100000}
seconds=${SECONDS_PER_MEASUREMENT:-1}

if [ -z "$jose" ]; then
    swift build -c release --static-swift-stdlib --product jose
    jose="$(swift build -c release --show-bin-path)/jose"
fi
mkdir -p "$out"
cores=$(nproc)
{
    echo "cores: $cores"
    grep -m1 'model name' /proc/cpuinfo || true
    uname -srm
    "$jose" --version
} > "$out/machine.txt"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'alg\tthreads\tbench_jose_per_s\tbench_raw_per_s\tbatch_tokens\tbatch_seconds\tbatch_per_s\n' > "$out/summary.tsv"

for alg in $algorithms; do
    # One key and one token per algorithm, copied TOKENS times into the batch's input.
    "$jose" keygen --alg "$alg" --kid bench --out "$work/$alg.jwk.json"
    token=$("$jose" sign --key "$work/$alg.jwk.json" --iss https://issuer.example --aud api --sub alice --exp 24h)
    head -n "$tokens" < <(yes "$token") > "$work/$alg.tokens"
done

for n in $threads; do
    if [ "$n" -gt "$cores" ]; then
        echo "skipping $n threads: this machine has $cores cores" | tee -a "$out/machine.txt"
        continue
    fi
    bench_args=()
    for alg in $algorithms; do bench_args+=(--alg "$alg"); done
    "$jose" bench "${bench_args[@]}" --seconds "$seconds" --threads "$n" | tee "$out/bench-$n.txt"
    for alg in $algorithms; do
        start=$(date +%s%N)
        "$jose" verify --key "$work/$alg.jwk.json" --iss https://issuer.example --aud api --batch --threads "$n" \
            < "$work/$alg.tokens" > "$work/batch.out"
        end=$(date +%s%N)
        verified=$(grep -c '"valid":true' "$work/batch.out" || true)
        elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
        rate=$(awk -v n="$verified" -v t="$elapsed" 'BEGIN { printf "%.0f", n / t }')
        printf '%s threads=%s verified=%s of %s in %.3f s: %.0f/s\n' "$alg" "$n" "$verified" "$tokens" "$elapsed" "$rate" \
            | tee "$out/batch-$alg-$n.txt"
        bench_line=$(grep -E "^\s*$alg\b" "$out/bench-$n.txt" | head -1 || true)
        printf '%s\t%s\t%s\t%s\t%s\t%.3f\t%.0f\n' "$alg" "$n" \
            "$(echo "$bench_line" | awk '{print $2}')" "$(echo "$bench_line" | awk '{print $3}')" \
            "$verified" "$elapsed" "$rate" >> "$out/summary.tsv"
    done
done
if command -v column >/dev/null; then column -t -s $'\t' "$out/summary.tsv"; else cat "$out/summary.tsv"; fi
