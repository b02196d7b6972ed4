#!/usr/bin/env bash
# Sets up the Python that the benchmark references and the model generators use, as `.venv` in the
# repository (git-ignored): a virtual environment over Debian's python3 with Debian's numpy, scipy, scikit-learn,
# torch and onnx (`--system-site-packages`), so nothing is fetched from PyPI. `npm run bench` finds it there.
#
#   bash scripts/python-env.sh     # installs the Debian packages if missing (needs root), then makes the venv
#
# Debian has no ONNX Runtime for Python: the native embedding reference (bench/embed-native.py) and the q8 files
# of the generated models need `pip install onnxruntime` into this venv from wherever you can get it.
#
# CI never runs this: the tests need no Python.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PACKAGES=(python3 python3-venv python3-numpy python3-scipy python3-sklearn python3-torch python3-onnx)
MODULES="numpy, scipy, sklearn, torch, onnx"

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "Installing ${missing[*]} with apt-get…"
  if [[ $(id -u) -ne 0 ]]; then
    echo "Run as root, or: sudo apt-get install --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Debian's own interpreter is the one its python3-* packages install into (another python3 earlier on PATH,
# e.g. from pyenv, would not see them).
SYSTEM_PYTHON="$(dpkg -L python3-minimal | grep -E '/bin/python3$' | head -n 1)"
if [[ ! -x "$VENV/bin/python" ]]; then
  "$SYSTEM_PYTHON" -m venv --system-site-packages "$VENV"
fi
"$VENV/bin/python" -c "import numpy, scipy, sklearn, torch, onnx" ||
  { echo "The environment lacks one of: $MODULES" >&2; exit 1; }
"$VENV/bin/python" -c "import sklearn, torch; print('Python ready: $VENV/bin/python (scikit-learn', sklearn.__version__ + ', torch', torch.__version__ + ')')"
