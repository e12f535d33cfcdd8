#!/usr/bin/env bash
# Install clgather into a temporary prefix and consume it the ways users do: find_package, pkg-config
# (each consumer runs a gather on its own OpenCL objects and chains the out-event into its own
# kernel), and the public header alone as C99, C11 and C++.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
build="${1:-$CLGATHER_ROOT/build}"
prefix="$(mktemp -d)"
work="$(mktemp -d)"
trap 'rm -rf "$prefix" "$work"' EXIT

cmake --install "$build" --prefix "$prefix" >/dev/null
echo "installed into $prefix:"
(cd "$prefix" && find . -type f -o -type l | sort | sed 's/^/  /')
soname="$(objdump -p "$prefix"/lib*/libclgather.so | awk '/SONAME/ {print $2}')"
[ "$soname" = "libclgather.so.0" ] || { echo "unexpected SONAME '$soname'"; exit 1; }
exported="$(nm -D --defined-only "$prefix"/lib*/libclgather.so | awk '{print $3}' | grep -v '^clg_' || true)"
[ -z "$exported" ] || { echo "symbols exported beyond the API: $exported"; exit 1; }
# test switches and fault injection live only in the uninstalled clgather_testing library
hooks="$(nm -A "$prefix"/lib*/libclgather.a "$prefix"/lib*/libclgather.so 2>/dev/null | grep -E 'clg_(testing|fault)_' || true)"
[ -z "$hooks" ] || { echo "test hooks in the installed libraries: $hooks"; exit 1; }

echo "== consumer via find_package(clgather)"
cmake -S "$CLGATHER_ROOT/ci/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/cmake" >/dev/null
LD_LIBRARY_PATH="$prefix/lib:$prefix/lib64:${LD_LIBRARY_PATH:-}" "$work/cmake/consumer"

echo "== consumer via pkg-config"
pcdir="$(dirname "$(find "$prefix" -name clgather.pc)")"
flags="$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs clgather OpenCL)"
# the consumer calls OpenCL itself, so it asks for OpenCL too; shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -Werror "$CLGATHER_ROOT/ci/consumer/consumer.c" -o "$work/consumer-pc" $flags
LD_LIBRARY_PATH="$prefix/lib:$prefix/lib64:${LD_LIBRARY_PATH:-}" "$work/consumer-pc"

echo "== the installed header as C99, C11 and C++"
inc="$prefix/include"
cc -std=c99 -Wall -Wextra -Werror -pedantic -I"$inc" -c "$CLGATHER_ROOT/ci/header_check.c" -o "$work/c99.o"
cc -std=c11 -Wall -Wextra -Werror -pedantic -I"$inc" -c "$CLGATHER_ROOT/ci/header_check.c" -o "$work/c11.o"
c++ -std=c++11 -Wall -Wextra -Werror -pedantic -I"$inc" -x c++ -c "$CLGATHER_ROOT/ci/header_check.c" -o "$work/cxx.o"
echo "install check: ok"
