#!/usr/bin/env bash
# scripts/setup.sh maps each dependency to the right package names: it is run against fake
# os-release files (Fedora 43, Ubuntu 22.04, Debian 12, Mint, Nobara, Rocky, Arch) with stub
# apt-get, dnf, sudo, dpkg, rpm, id and cmake first on PATH; the stubs record their
# arguments and the test compares the recorded calls with the exact package lists below,
# written out again here (not read from setup.sh), so a wrong mapping fails.
#   bash tests/scripts/setup_test.sh   (ctest: setup_script_maps_packages)
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
setup=$repo/scripts/setup.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

APT="build-essential cmake ninja-build pkg-config libcli11-dev libfmt-dev nlohmann-json3-dev libyaml-cpp-dev libsqlite3-dev catch2 libmuparser-dev libre2-dev python3"
DNF="gcc-c++ cmake ninja-build pkgconf-pkg-config cli11-devel fmt-devel json-devel yaml-cpp-devel sqlite-devel catch2-devel muParser-devel re2-devel python3"

failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_eq() {  # what, expected, actual
  if [ "$2" != "$3" ]; then fail "$1"; printf '  expected: %s\n  actual:   %s\n' "$2" "$3"; fi
}
expect_contains() {  # what, needle, haystack
  case "$3" in *"$2"*) ;; *) fail "$1: no '$2' in:"; printf '%s\n' "$3" | sed 's/^/  | /' ;; esac
}

# Stubs: each appends "name args" to $STUB_LOG. dpkg -s / rpm -q say a package is installed
# only when it is listed in $STUB_INSTALLED; id -u prints $STUB_UID; sudo runs the rest.
stubs=$work/stubs
mkdir -p "$stubs"
for name in apt-get dnf cmake; do
  printf '#!/usr/bin/env bash\necho "%s $*" >>"$STUB_LOG"\n' "$name" >"$stubs/$name"
done
cat >"$stubs/sudo" <<'EOF'
#!/usr/bin/env bash
echo "sudo $*" >>"$STUB_LOG"
exec "$@"
EOF
cat >"$stubs/dpkg" <<'EOF'
#!/usr/bin/env bash
case " $STUB_INSTALLED " in *" ${!#} "*) exit 0 ;; esac
exit 1
EOF
cp "$stubs/dpkg" "$stubs/rpm"
cat >"$stubs/id" <<'EOF'
#!/usr/bin/env bash
if [ "${1:-}" = -u ]; then echo "$STUB_UID"; else /usr/bin/id "$@"; fi
EOF
chmod +x "$stubs"/*

os_file() {  # name, lines...
  local f=$work/os-release-$1; shift
  printf '%s\n' "$@" >"$f"
  echo "$f"
}
fedora=$(os_file fedora 'NAME="Fedora Linux"' 'VERSION_ID=43' 'ID=fedora' 'PRETTY_NAME="Fedora Linux 43 (Workstation Edition)"')
ubuntu=$(os_file ubuntu 'PRETTY_NAME="Ubuntu 22.04.4 LTS"' 'NAME="Ubuntu"' 'VERSION_ID="22.04"' 'ID=ubuntu' 'ID_LIKE=debian')
debian=$(os_file debian 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"' 'VERSION_ID="12"' 'ID=debian')
mint=$(os_file mint 'NAME="Linux Mint"' 'ID=linuxmint' 'ID_LIKE="ubuntu debian"' 'PRETTY_NAME="Linux Mint 21.3"')
nobara=$(os_file nobara 'NAME="Nobara Linux"' 'ID=nobara' 'ID_LIKE="fedora"' 'PRETTY_NAME="Nobara Linux 42"')
rocky=$(os_file rocky 'NAME="Rocky Linux"' 'ID="rocky"' 'ID_LIKE="rhel centos fedora"' 'PRETTY_NAME="Rocky Linux 9.4 (Blue Onyx)"')
arch=$(os_file arch 'NAME="Arch Linux"' 'ID=arch' 'PRETTY_NAME="Arch Linux"')

# Runs setup.sh; sets $out (stdout+stderr), $rc and $calls (the stub log).
run_setup() {  # os-release file, uid, installed packages, setup.sh args...
  local os=$1 uid=$2 installed=$3; shift 3
  : >"$work/log"
  out=$(env WORKBOOK_OS_RELEASE="$os" STUB_LOG="$work/log" STUB_UID="$uid" STUB_INSTALLED="$installed" \
          WORKBOOK_BIN_DIR="${BIN_DIR:-$work/bin}" WORKBOOK_WORKSPACE="$work/ws" \
          WORKBOOK_NVCC="$repo/tests/fixtures/toolchain/fake_nvcc.sh" PATH="$stubs:${EXTRA_PATH:-}$PATH" bash "$setup" "$@" 2>&1)
  rc=$?
  calls=$(cat "$work/log")
}

# Fedora, as a user: one dnf install of every package, through sudo.
run_setup "$fedora" 1000 "" --packages-only
expect_eq "fedora exit status" 0 "$rc"
expect_eq "fedora calls" "sudo dnf install -y $DNF
dnf install -y $DNF" "$calls"

# Ubuntu 22.04 (Colab), as a user: apt-get update, then install, through sudo.
run_setup "$ubuntu" 1000 "" --packages-only
expect_eq "ubuntu exit status" 0 "$rc"
expect_eq "ubuntu calls" "sudo apt-get update -qq
apt-get update -qq
sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $APT
apt-get install -y -qq $APT" "$calls"

# Debian 12 as root (CI, containers): no sudo.
run_setup "$debian" 0 "" --packages-only
expect_eq "debian exit status" 0 "$rc"
expect_eq "debian calls" "apt-get update -qq
apt-get install -y -qq $APT" "$calls"

# Only the missing packages are installed; nothing at all when every one is there.
run_setup "$debian" 0 "cmake python3 catch2" --packages-only
expect_eq "debian, some installed" "apt-get update -qq
apt-get install -y -qq build-essential ninja-build pkg-config libcli11-dev libfmt-dev nlohmann-json3-dev libyaml-cpp-dev libsqlite3-dev libmuparser-dev libre2-dev" "$calls"
run_setup "$fedora" 1000 "$DNF" --packages-only
expect_eq "fedora, all installed: exit status" 0 "$rc"
expect_eq "fedora, all installed: no calls" "" "$calls"

# A Debian relative through ID_LIKE.
run_setup "$mint" 0 "" --print-packages
expect_eq "mint --print-packages" "apt: $APT" "$out"
run_setup "$fedora" 0 "" --print-packages
expect_eq "fedora --print-packages" "dnf: $DNF" "$out"
run_setup "$nobara" 0 "" --print-packages
expect_eq "nobara (ID_LIKE=fedora) --print-packages" "dnf: $DNF" "$out"
# An os-release without a final newline still has its last line read.
printf 'NAME="Fedora Linux"\nID=fedora' >"$work/os-release-no-newline"
run_setup "$work/os-release-no-newline" 0 "" --print-packages
expect_eq "last line without a newline" "dnf: $DNF" "$out"

# Unknown distributions: exit 2, the list of what to install, nothing run.
run_setup "$arch" 1000 "" --packages-only
expect_eq "arch exit status" 2 "$rc"
expect_eq "arch: nothing installed" "" "$calls"
expect_contains "arch message" "not 'Arch Linux'" "$out"
for need in "C++20 compiler" "CMake 3.22" "Ninja" "pkg-config" "CLI11 2.1" "fmt 8.1" "nlohmann-json 3.10" \
            "yaml-cpp 0.7" "SQLite 3" "Catch2 v2" "muparser 2.3" "RE2" "python3"; do
  expect_contains "arch message lists $need" "$need" "$out"
done
run_setup "$rocky" 0 "" --packages-only
expect_eq "rocky exit status" 2 "$rc"
expect_eq "rocky: nothing installed" "" "$calls"
expect_contains "rocky: Fedora names as a hint" "EPEL" "$out"
run_setup "$work/no-such-file" 0 "" --packages-only
expect_eq "missing os-release exit status" 2 "$rc"

# The build step (cmake stubbed): configure, build the runner, link it into the bin dir.
EXTRA_PATH="" run_setup "$debian" 0 "$APT" --no-run
expect_eq "build exit status" 0 "$rc"
expect_eq "build calls" "cmake --preset dev
cmake --build --preset dev --target workbook -j$(nproc)" "$calls"
expect_eq "link target" "$repo/build/dev/runner/workbook" "$(readlink "$work/bin/workbook")"
expect_contains "PATH advice" "is not on your PATH" "$out"
EXTRA_PATH="$work/bin:" run_setup "$debian" 0 "$APT" --no-run
case "$out" in *"not on your PATH"*) fail "PATH advice although the bin dir is on PATH" ;; esac
# A file (not a link) at the link's place is left alone.
mkdir -p "$work/bin2" && echo "mine" >"$work/bin2/workbook"
BIN_DIR="$work/bin2" run_setup "$debian" 0 "$APT" --no-run
expect_eq "existing file kept" "mine" "$(cat "$work/bin2/workbook")"
expect_contains "existing file message" "Left $work/bin2/workbook alone" "$out"

if ((failures)); then
  echo "$failures check(s) failed"
  exit 1
fi
echo "setup.sh: all package mappings and steps as expected"
