#!/usr/bin/env bash
# The Python module's tests, as CI runs them: a virtual environment in
# target/python-venv (made once, reused after), the module built from
# python/ with the workspace's Cargo.lock (`pip install './python[spark]'`),
# and pytest over python/tests. Spark's tests need Java 17: installed here
# when `java` is missing (Debian's openjdk-17-jre-headless, as root).
#
#   bash scripts/python/check.sh            # from anywhere in the repository
#   GIN_PYTHON_VENV=/tmp/venv bash scripts/python/check.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=${GIN_PYTHON_VENV:-target/python-venv}
python=${PYTHON:-python3}

# The extension module is a workspace member but not a default one, so the
# workspace's own clippy step does not see it: lint it here, as strictly.
cargo clippy --locked -p gin-referee-python --all-targets -- -D warnings

if ! command -v java >/dev/null 2>&1; then
    echo "check.sh: no java on PATH; installing openjdk-17-jre-headless" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq openjdk-17-jre-headless >/dev/null
fi

if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --upgrade pip
fi

started=$(date +%s)
# Rebuilds the wheel from the working tree every time (cargo's own caches in
# target/ make an unchanged tree quick); the dependencies stay installed.
"$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps ./python
# The `test` extra: pytest, open_spiel (its GinRummyUtils and gin_rummy ids
# compared), pettingzoo (gin_referee.pettingzoo and its api_test), gymnasium
# (gin_referee.vector.make, its VectorEnv and RecordEpisodeStatistics).
"$venv/bin/python" -m pip install -q --disable-pip-version-check "./python[spark,selfplay,test]"
echo "check.sh: module built and installed in $(( $(date +%s) - started )) s" >&2

# Spark's workers must run the venv's interpreter, where the module is.
export PYSPARK_PYTHON="$venv/bin/python" PYSPARK_DRIVER_PYTHON="$venv/bin/python"
GIN_REFEREE_REQUIRE_SPARK=1 "$venv/bin/python" -m pytest python/tests -q

# The module answers what the service answers: 2,000 generated requests per
# operation to the service's debug binary (built by the test step; built
# here when missing) and to the module.
if [ ! -x target/debug/gin-referee ]; then
    cargo build --locked --bin gin-referee
fi
"$venv/bin/python" scripts/python/equality.py target/debug/gin-referee "${GIN_EQUALITY_PER_OPERATION:-2000}"
