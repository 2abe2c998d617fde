#!/usr/bin/env bash
# Prepares a fresh checkout: a project-local Python environment holding libtorch (from the
# torch wheel on PyPI; the same wheel carries CUDA), and a stable link to its shared libraries
# that the binaries find through their rpath. Safe to run again: it only does what is missing.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
TORCH_VERSION="2.13.0"

if [ ! -x "$VIRTUAL_ENV/bin/python" ]; then
  echo "setup: creating $VIRTUAL_ENV"
  python3 -m venv "$VIRTUAL_ENV"
fi
have="$("$VIRTUAL_ENV/bin/python" -c 'import torch; print(torch.__version__.split("+")[0])' 2>/dev/null || true)"
if [ "$have" != "$TORCH_VERSION" ]; then
  echo "setup: installing torch==$TORCH_VERSION into $VIRTUAL_ENV (several GB, once)"
  "$VIRTUAL_ENV/bin/pip" install --quiet --disable-pip-version-check "torch==$TORCH_VERSION"
fi
lib="$("$VIRTUAL_ENV/bin/python" -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')"
ln -sfn "$lib" "$VIRTUAL_ENV/torch-lib"
