#!/usr/bin/env bash
# The Python package's CI: lints the crate, builds the package into a venv with `pip install`
# (maturin as the build backend), then runs its pytest suite, the engines included.
#
#   bash crates/python/ci.sh
#
# Environment:
#   PYTHON                 a CPython 3.11+ (default: python3.11, else python3)
#   CARGO_TARGET_DIR       the Rust build directory (default: target/ at the repository root);
#                          the venv goes in it, as python-venv/, unless UTF8_TOOLS_VENV is set
#   UTF8_TOOLS_ENGINES=0   skip installing and testing PySpark and Ray (the slow ones)
#   UTF8_TOOLS_SKIP_BIG=1  skip the tests over 2 GiB (about 40 s and 8 GB of memory)
#
# The Spark tests need Java 17 (`java` on PATH or JAVA_HOME); without it they are skipped and
# pytest says so. Every skip is listed with its reason at the end (pytest -rs).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
venv="${UTF8_TOOLS_VENV:-$CARGO_TARGET_DIR/python-venv}"
start=$(date +%s)
step() { echo "== python ci: $* ($(( $(date +%s) - start )) s)"; }

python="${PYTHON:-}"
if [ -z "$python" ]; then
    if command -v python3.11 >/dev/null; then python=python3.11; else python=python3; fi
fi
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "python ci: $python is older than 3.11 (the package is abi3-py311)" >&2
    exit 2
fi

# The versions this suite was tested with (numpy for DuckDB's Arrow functions, which
# would otherwise come only with pandas among the engines).
core=(maturin==1.16.0 pyarrow==26.0.1 polars==2.1.0 duckdb==2.0.0 pytest==9.2.0
      nanoarrow==0.9.0 arro3-core==0.9.1 numpy==2.4.6
      hypothesis==6.170.15)
# PySpark 4.3 supports pandas below 3 (it warns on 3.x).
engines=(pandas==2.3.3 pyspark==4.3.0 ray==2.60.0)

step "rustfmt and clippy (crates/python)"
(cd "$here" && cargo fmt --check && cargo clippy --release --quiet -- -D warnings)

step "venv $venv"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip install --quiet --disable-pip-version-check)
"${pip[@]}" "${core[@]}"
if [ "${UTF8_TOOLS_ENGINES:-1}" != 0 ]; then
    "${pip[@]}" "${engines[@]}"
else
    echo "python ci: UTF8_TOOLS_ENGINES=0: PySpark and Ray not installed, their tests skip"
    export UTF8_TOOLS_SKIP_SPARK=1 UTF8_TOOLS_SKIP_RAY=1
fi

export PATH="$venv/bin:$PATH"
step "pip install crates/python"
# --no-build-isolation: the venv's maturin builds it, into CARGO_TARGET_DIR (warm after the
# first build); a plain `pip install ./crates/python` fetches maturin itself.
"${pip[@]}" --no-build-isolation --force-reinstall --no-deps "$here"

step "pytest"
cd "$here/tests"
set +e
"$venv/bin/python" -m pytest -q -rs -p no:cacheprovider .
status=$?
set -e
step "done, pytest exit status $status"
exit "$status"
