#!/usr/bin/env bash
# Every C and OpenCL C source of the repository must be formatted as .clang-format says (clang-format
# 14, Debian 12). With --fix, format them in place instead.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
cd "$CLGATHER_ROOT"
mapfile -t sources < <(git ls-files '*.c' '*.h' '*.cl' '*.c.in')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i --style=file "${sources[@]}"
  exit 0
fi
bad=()
for f in "${sources[@]}"; do
  clang-format --style=file --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "not formatted as .clang-format says (run ci/check_format.sh --fix):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "format check: ${#sources[@]} sources ok"
