# Environment for building koma against the libtorch of the project's virtual environment.
# Source it (`. scripts/env.sh`) to run cargo by hand; the scripts in this folder do it themselves.
KOMA_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export KOMA_ROOT
export VIRTUAL_ENV="$KOMA_ROOT/.venv"
export PATH="$VIRTUAL_ENV/bin:$PATH"
export LIBTORCH_USE_PYTORCH=1
# koma_profile: the Cargo profile whose builds the scripts use, KOMA_PROFILE (default release;
# scripts/test.sh sets ci).
koma_profile() {
  echo "${KOMA_PROFILE:-release}"
}
# koma_bin NAME: the path of binary NAME as built in that profile. Cargo writes the dev and test
# profiles' builds to target/debug, bench's to target/release, and any other profile's to a
# folder of its name.
koma_bin() {
  local dir
  dir="$(koma_profile)"
  case "$dir" in
    dev | test) dir=debug ;;
    bench) dir=release ;;
  esac
  echo "$KOMA_ROOT/target/$dir/$1"
}
