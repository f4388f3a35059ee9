#!/bin/sh
# Instructions per verify (user space), from two runs of profile-verify: (N2 - N1) / (n2 - n1).
# usage: Benchmarks/instr.sh ALG [--floor]
cd "$(dirname "$0")"
alg=$1; shift
n1=2000; n2=${N2:-22000}
count() { perf stat -e instructions:u -x, .build/release/profile-verify "$alg" "$1" "$@" 2>&1 >/dev/null | grep instructions | cut -d, -f1; }
a=$(count $n1 "$@"); b=$(count $n2 "$@")
echo "$alg $*: $(( (b - a) / (n2 - n1) )) instructions/verify"
