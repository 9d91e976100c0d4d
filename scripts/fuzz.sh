#!/usr/bin/env bash
# Long fuzz campaign: the proptest fuzz properties that `cargo test` runs with
# a few hundred cases (crates/gin-rules/tests/properties/fuzz.rs: card parser,
# card sets, melds, solvers, scoring; tests/api/fuzz.rs: every request body
# through the JSON extractor and through the real router), here with FUZZ_CASES
# cases each, in an optimised build that keeps debug assertions and overflow
# checks (the solvers assert their invariants in debug builds). cargo-fuzz would
# need a nightly compiler; this runs on stable.
#
#   scripts/fuzz.sh                     # 1,000,000 cases per property
#   FUZZ_CASES=100000 scripts/fuzz.sh   # quicker
#   scripts/fuzz.sh melds               # a subset (test name filter)
#
# A failure is shrunk to a minimal case, printed, and saved under
# proptest-regressions/ (crates/gin-rules/tests/proptest-regressions/ for the
# rules; commit that file: it is replayed first on every run);
# then turn the case into a named regression test. Builds into target/fuzz so
# the release binary of load.sh is not rebuilt.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export FUZZ_CASES=${FUZZ_CASES:-1000000}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/fuzz}
export CARGO_PROFILE_RELEASE_DEBUG_ASSERTIONS=true
export CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true
# Fast to build: this is a test binary, not the shipped one.
export CARGO_PROFILE_RELEASE_LTO=false
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16

started=$SECONDS
threads=${THREADS:-$(nproc)}
# The rules' properties are an integration test of the gin-rules crate; the
# request-body properties are unit tests of the service.
cargo test --release --locked -p gin-rules --test properties -- "${1:-fuzz}" --test-threads "$threads"
cargo test --release --locked -p gin-referee --lib -- "${1:-fuzz}" --test-threads "$threads"
echo "fuzzed with $FUZZ_CASES cases per property in $((SECONDS - started)) s"
