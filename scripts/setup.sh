#!/usr/bin/env bash
# Prepares a checkout: a project-local Python environment holding libtorch (from the torch
# wheel on PyPI; the same wheel carries CUDA), and a stable link to its shared libraries that
# the binaries find through their rpath. Safe to run again: it only does what is missing.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/env.sh"
TORCH_VERSION="2.13.0"
stamp="$VIRTUAL_ENV/.koma-torch-$TORCH_VERSION"
if [ -f "$stamp" ] && [ -e "$VIRTUAL_ENV/torch-lib/libtorch_cpu.so" ]; then
  exit 0
fi
if ! command -v python3 >/dev/null; then
  echo "setup: python3 (3.9 or newer, with venv and pip) is required" >&2
  exit 1
fi
if [ ! -x "$VIRTUAL_ENV/bin/python" ]; then
  echo "setup: creating $VIRTUAL_ENV" >&2
  python3 -m venv "$VIRTUAL_ENV"
fi
have="$("$VIRTUAL_ENV/bin/python" -W ignore -c 'import torch; print(torch.__version__.split("+")[0])' 2>/dev/null || true)"
if [ "$have" != "$TORCH_VERSION" ]; then
  echo "setup: installing torch==$TORCH_VERSION into $VIRTUAL_ENV (a few GB, once)" >&2
  "$VIRTUAL_ENV/bin/pip" install --quiet --disable-pip-version-check "torch==$TORCH_VERSION"
fi
lib="$("$VIRTUAL_ENV/bin/python" -W ignore -c 'import os, torch; print(os.path.relpath(os.path.join(os.path.dirname(torch.__file__), "lib"), os.environ["VIRTUAL_ENV"]))')"
ln -sfn "$lib" "$VIRTUAL_ENV/torch-lib"
touch "$stamp"
echo "setup: libtorch $TORCH_VERSION ready in $VIRTUAL_ENV/torch-lib" >&2
