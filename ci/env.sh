# Sourced by the ci/ scripts: where to build, and which OpenCL device to use.
CLGATHER_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CLGATHER_ROOT
JOBS="$(nproc 2>/dev/null || echo 2)"
export JOBS
