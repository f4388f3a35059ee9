#!/bin/sh
# Instructions per verify (user space) of the verify loop alone (profile-verify switches the
# perf counters off around key generation), and its wall time per verify.
# usage: Benchmarks/instr.sh ALG [--floor]     (N=count, default 20000)
cd "$(dirname "$0")"
alg=$1; shift
n=${N:-20000}
out=$(perf stat -e instructions:u -x, .build/release/profile-verify "$alg" "$n" "$@" 2>&1)
instructions=$(echo "$out" | grep instructions | cut -d, -f1)
echo "$(echo "$out" | grep verifies), $(( instructions / n )) instructions/verify"
