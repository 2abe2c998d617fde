# Environment for building koma against the libtorch of the project's virtual environment.
# Source it (`. scripts/env.sh`) to run cargo by hand; the scripts in this folder do it themselves.
KOMA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export KOMA_ROOT
export VIRTUAL_ENV="$KOMA_ROOT/.venv"
export PATH="$VIRTUAL_ENV/bin:$PATH"
export LIBTORCH_USE_PYTORCH=1
