#!/usr/bin/env bash
# Quick start, step 1: install what the runner needs from the distribution's packages (if
# missing), build the runner, link it as ~/.local/bin/workbook, check the CUDA toolchain
# (a one-file probe compiled with the nvcc and host compiler labs will use; no GPU needed,
# and setup stops with the fix when nvcc refuses the pair), and run the main job: on a
# machine with an NVIDIA GPU the module 14 lab's reference solution; without one, the
# content check (every lab compiled), saying so.
#
# Debian and Ubuntu (apt-get) and Fedora (dnf) are known; on any other distribution it
# prints what to install and exits 2. The package names and the versions they were checked
# against are in docs/setup.md; tests/scripts/setup_test.sh checks the mapping.
#
#   scripts/setup.sh [--packages-only | --no-run] [ARGS for `workbook run`...]
#     --packages-only  install the packages, then stop (no build)
#     --no-run         install, build and link, but do not run a lab (Colab, scripts)
#     --print-packages print the package manager and the packages for this machine, then stop
#     --check-toolchain only the CUDA toolchain probe, with the runner already built (any
#                      distribution; after installing a compiler or writing toolchain.yaml)
#   env WORKBOOK_OS_RELEASE  the os-release file to read (default /etc/os-release)
#   env WORKBOOK_BIN_DIR     where the `workbook` link goes (default ~/.local/bin)
#   env WORKBOOK_SETUP_RUNNER the built runner --check-toolchain uses (default build/dev/runner/workbook)
set -euo pipefail
cd "$(dirname "$0")/.."

# The same list, dependency for dependency (compiler, cmake, ninja, pkg-config, CLI11, fmt,
# nlohmann-json, yaml-cpp, SQLite, Catch2 v2, muparser, RE2, python3).
APT_PACKAGES=(build-essential cmake ninja-build pkg-config libcli11-dev libfmt-dev nlohmann-json3-dev
              libyaml-cpp-dev libsqlite3-dev catch2 libmuparser-dev libre2-dev python3)
DNF_PACKAGES=(gcc-c++ cmake ninja-build pkgconf-pkg-config cli11-devel fmt-devel json-devel
              yaml-cpp-devel sqlite-devel catch2-devel muParser-devel re2-devel python3)
GENERIC_NEEDS=(
  "a C++20 compiler (GCC 11 or newer, or Clang 14 or newer)"
  "CMake 3.22 or newer, and Ninja"
  "pkg-config"
  "CLI11 2.1 or newer (its CMake config, CLI11Config.cmake)"
  "fmt 8.1 or newer"
  "nlohmann-json 3.10 or newer"
  "yaml-cpp 0.7 or newer"
  "SQLite 3 with its development headers"
  "Catch2 v2 (2.13; the tests include catch2/catch.hpp, which Catch2 v3 no longer has)"
  "muparser 2.3 with its pkg-config file (muparser.pc)"
  "RE2 (2022 or newer) with its pkg-config file (re2.pc)"
  "python3"
)

mode=all
run_args=()
for arg in "$@"; do
  case "$arg" in
    --packages-only) mode=packages ;;
    --no-run) mode=build ;;
    --print-packages) mode=print ;;
    --check-toolchain) mode=toolchain ;;
    *) run_args+=("$arg") ;;
  esac
done

# The toolchain probe: the runner compiles one CUDA file with the nvcc and host compiler
# labs will use (toolchain.yaml, WORKBOOK_CCBIN applied) and explains a refused pair
# (`workbook device --toolchain`, exit 3). Without nvcc there is nothing to probe.
check_toolchain() {
  local wb=$1
  if [ ! -x "$wb" ]; then
    echo "No runner at $wb: the CUDA toolchain probe is skipped."
    return 0
  fi
  if [ -z "${WORKBOOK_NVCC:-}" ] && ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    echo "No nvcc found: the CUDA toolchain probe is skipped."
    return 0
  fi
  echo "Checking the CUDA toolchain: one CUDA file compiled with the nvcc and host compiler labs will use ..."
  local rc=0
  "$wb" device --toolchain || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "setup.sh: stopped: this nvcc and host compiler cannot build the labs (the fix is above); the runner itself is built." >&2
    echo "After the fix, check again with: scripts/setup.sh --check-toolchain" >&2
    exit 3
  fi
}
if [ "$mode" = toolchain ]; then
  export PATH=/usr/local/cuda/bin:$PATH
  check_toolchain "${WORKBOOK_SETUP_RUNNER:-$PWD/build/dev/runner/workbook}"
  exit 0
fi

# One field of an os-release file (ID, ID_LIKE), without its quotes. The file is read,
# never sourced.
os_field() {
  local key=$1 file=$2 k v
  while IFS='=' read -r k v || [ -n "$k" ]; do
    if [ "$k" = "$key" ]; then
      v=${v%\"}; v=${v#\"}; v=${v%\'}; v=${v#\'}
      printf '%s\n' "$v"
      return
    fi
  done <"$file"
}

# apt, dnf, or nothing for a distribution this script does not know. A relative of Fedora
# that uses Fedora's repositories (ID_LIKE=fedora) gets dnf; one of RHEL's (ID_LIKE also
# names rhel: Rocky, Alma, CentOS Stream, Amazon Linux) does not: it lacks some packages.
package_manager() {
  local file=$1 id like
  id=$(os_field ID "$file")
  like=" $(os_field ID_LIKE "$file") "
  case "$id" in
    debian|ubuntu) echo apt; return ;;
    fedora) echo dnf; return ;;
  esac
  case "$like" in
    *" debian "*|*" ubuntu "*) echo apt ;;
    *" rhel "*) ;;
    *" fedora "*) echo dnf ;;
  esac
}

os_release=${WORKBOOK_OS_RELEASE:-/etc/os-release}
if [ -z "${WORKBOOK_OS_RELEASE:-}" ] && [ ! -r "$os_release" ]; then os_release=/usr/lib/os-release; fi
if [ ! -r "$os_release" ]; then
  echo "setup.sh: cannot read $os_release to tell the distribution" >&2
  exit 2
fi
pm=$(package_manager "$os_release")
distro=$(os_field PRETTY_NAME "$os_release")
distro=${distro:-$(os_field ID "$os_release")}

if [ -z "$pm" ]; then
  {
    echo "setup.sh knows Debian, Ubuntu (apt-get) and Fedora (dnf), not '${distro:-unknown}'."
    echo "Install these with your package manager, then build by hand"
    echo "(cmake --preset dev && cmake --build --preset dev --target workbook):"
    for need in "${GENERIC_NEEDS[@]}"; do echo "  - $need"; done
    case " $(os_field ID_LIKE "$os_release") " in
      *" rhel "*)
        echo "On a relative of RHEL, Fedora's names may work with EPEL and CRB enabled (but"
        echo "muParser-devel is not in EPEL 9): ${DNF_PACKAGES[*]}" ;;
    esac
    echo "docs/setup.md lists the Debian, Ubuntu and Fedora package names and versions."
  } >&2
  exit 2
fi

if [ "$pm" = apt ]; then pkgs=("${APT_PACKAGES[@]}"); else pkgs=("${DNF_PACKAGES[@]}"); fi
if [ "$mode" = print ]; then
  echo "$pm: ${pkgs[*]}"
  exit 0
fi

missing=()
for p in "${pkgs[@]}"; do
  if [ "$pm" = apt ]; then dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  else rpm -q "$p" >/dev/null 2>&1 || missing+=("$p"); fi
done
if ((${#missing[@]})); then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null; then
      echo "setup.sh: installing ${missing[*]} needs root: run it as root, or install sudo" >&2
      exit 2
    fi
    sudo=(sudo)
  fi
  echo "Installing with $pm on $distro: ${missing[*]}"
  if [ "$pm" = apt ]; then
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  else
    "${sudo[@]}" dnf install -y "${missing[@]}"
  fi
fi
if [ ! -e /usr/include/catch2/catch.hpp ] && [ ! -e /usr/local/include/catch2/catch.hpp ]; then
  echo "Note: this distribution's Catch2 is v3 (no catch2/catch.hpp): the runner builds and works," >&2
  echo "but the tests (scripts/test.sh) need Catch2 v2 (2.13); see docs/setup.md." >&2
fi
[ "$mode" = packages ] && exit 0

export PATH=/usr/local/cuda/bin:$PATH
cmake --preset dev >/dev/null
cmake --build --preset dev --target workbook -j"$(nproc)"
wb=$PWD/build/dev/runner/workbook
echo "Built $wb"

# The link lets the learner type `workbook`; the runner resolves the link and finds this
# checkout's content above the real binary.
bin_dir=${WORKBOOK_BIN_DIR:-$HOME/.local/bin}
mkdir -p "$bin_dir"
if [ -e "$bin_dir/workbook" ] && [ ! -L "$bin_dir/workbook" ]; then
  echo "Left $bin_dir/workbook alone: it is a file, not a link. Remove it to get the link, or run $wb." >&2
else
  ln -sfn "$wb" "$bin_dir/workbook"
  echo "Linked $bin_dir/workbook -> $wb"
fi
case ":$PATH:" in
  *":$bin_dir:"*) ;;
  *) echo "$bin_dir is not on your PATH: add it, then open a new shell:"
     echo "  echo 'export PATH=\"$bin_dir:\$PATH\"' >> ~/.bashrc" ;;
esac
check_toolchain "$wb"
[ "$mode" = build ] && exit 0

if ! command -v nvcc >/dev/null; then
  echo "nvcc (the CUDA toolkit) is not installed: the runner works, but cannot compile labs." >&2
  echo "Install it from https://developer.nvidia.com/cuda-downloads into /usr/local/cuda (docs/setup.md)." >&2
  "$wb" list
  exit 0
fi
if nvidia-smi -L >/dev/null 2>&1; then
  "$wb" run module14/tiled_gemm --solution --yes "${run_args[@]}"
else
  echo "No NVIDIA GPU on this machine: validating the content and compiling every lab for sm_90 instead."
  "$wb" dev check --arch sm_90
fi
