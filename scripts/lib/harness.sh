# Helpers for the scripts that build a throwaway program against a checkout's
# gin-rules (the callgrind harnesses of scripts/replay, the answer
# comparisons); source it.

# harness_crate WORK NAME CHECKOUT FEATURES [DEPENDENCY...]: writes
# WORK/Cargo.toml for a program NAME that depends on CHECKOUT's gin-rules by
# path (with FEATURES, e.g. '"serde"', or none when empty) and on each
# DEPENDENCY line (e.g. 'rand = "0.8"'), built as the workspace's release
# profile (thin LTO, one codegen unit) with line tables for callgrind's
# annotations, outside any workspace; CHECKOUT's Cargo.lock goes beside it,
# so that both sides of a comparison build with the versions they pin.
harness_crate() {
    local work=$1 name=$2 checkout=$3 features=$4
    shift 4
    mkdir -p "$work/src"
    {
        printf '[package]\nname = "%s"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n' "$name"
        printf '[dependencies]\ngin-rules = { path = "%s/crates/gin-rules"' "$checkout"
        if [ -n "$features" ]; then printf ', features = [%s]' "$features"; fi
        printf ' }\n'
        if [ $# -gt 0 ]; then printf '%s\n' "$@"; fi
        printf '\n[profile.release]\nlto = "thin"\ncodegen-units = 1\ndebug = 1\n\n[workspace]\n'
    } > "$work/Cargo.toml"
    cp "$checkout/Cargo.lock" "$work/Cargo.lock"
}
