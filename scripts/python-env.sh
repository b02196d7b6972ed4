#!/usr/bin/env bash
# Makes the Python that `npm run bench`'s references and test-model generators run with: `.venv/` in the
# repository (git-ignored), a virtual environment over Debian's python3 that also sees Debian's packages
# (--system-site-packages). `npm run bench` and the scripts in scripts/models/ find it there.
#
# Every package those scripts import is listed in scripts/python-packages.txt with the lowest version that works
# (and why), the exact version to install from pip, and Debian's package. For each one this script:
#   1. keeps it when it already imports at that version or later;
#   2. else installs Debian's package with apt-get when Debian's candidate is new enough (needs root);
#   3. else installs the exact listed version into .venv with pip, from the package index or wheel folder you
#      name; when you name none, it prints the exact packages and the pip command, and stops.
# Nothing is fetched from a package index you did not name.
#
#   bash scripts/python-env.sh [--index-url URL] [--find-links DIR]... [--check]
#
#   --index-url URL   a package index ("simple" layout, PEP 503), e.g. file:///path/to/simple or
#                     https://pypi.org/simple; pip's own PIP_INDEX_URL works too.
#   --find-links DIR  a folder of wheels (repeatable); pip's own PIP_FIND_LINKS (space-separated) works too.
#                     With folders only and no index, pip runs with --no-index.
#   --check           report what is there, what is missing and what would be installed; change nothing.
#
# Exit status: 0 when every package is there; 1 when something is still missing (the message says what and how
# to get it); 2 for a bad command line. CI never runs this: the tests need no Python.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PACKAGES_FILE="$ROOT/scripts/python-packages.txt"
PROBE="$ROOT/scripts/models/pyenv.py"
# Other engineers' or CI's apt-get may hold dpkg's lock: wait for it instead of failing.
APT_OPTIONS=(-o DPkg::Lock::Timeout=600)
# The interpreter and its venv module always come from Debian.
BASE_PACKAGES=(python3 python3-venv)

index_url="${PIP_INDEX_URL:-}"
find_links=()
if [[ -n ${PIP_FIND_LINKS:-} ]]; then read -r -a find_links <<<"$PIP_FIND_LINKS"; fi
check=0

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; }
while (($#)); do
  case "$1" in
    --index-url) [[ $# -ge 2 ]] || { usage; exit 2; }; index_url="$2"; shift 2 ;;
    --index-url=*) index_url="${1#*=}"; shift ;;
    --find-links) [[ $# -ge 2 ]] || { usage; exit 2; }; find_links+=("$2"); shift 2 ;;
    --find-links=*) find_links+=("${1#*=}"); shift ;;
    --check) check=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "Unknown argument: $1" >&2; usage; exit 2 ;;
  esac
done

have_apt() { command -v dpkg-query >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; }
is_root() { [[ $(id -u) -eq 0 ]]; }
deb_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

# Debian's candidate version of a package ("" when apt knows none).
deb_candidate() {
  local v
  v="$(apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ { print $2; exit }')"
  [[ $v == "(none)" ]] && v=""
  printf '%s' "$v"
}

# The upstream release of a Debian or Python version: "1:1.24.2-1+deb12u1" -> 1.24.2, "1.13.1+dfsg-4" -> 1.13.1,
# "2.13.0+cpu" -> 2.13.0; trailing ".0"s dropped so that 1.2 and 1.2.0 compare equal.
release() {
  local v="$1"
  [[ $v == *:* ]] && v="${v#*:}"
  [[ $v == *-* ]] && v="${v%-*}"
  [[ $v =~ ^[0-9]+(\.[0-9]+)* ]] && v="${BASH_REMATCH[0]}" || v=""
  while [[ $v == *.0 ]]; do v="${v%.0}"; done
  printf '%s' "$v"
}

# Whether version $1 is $2 or later.
at_least() {
  local a b
  a="$(release "$1")" b="$(release "$2")"
  [[ -n $a ]] && [[ "$(printf '%s\n%s\n' "$b" "$a" | sort -V | head -n 1)" == "$b" ]]
}

apt_updated=0
apt_update() {
  ((apt_updated)) && return 0
  DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTIONS[@]}" update -qq || return
  apt_updated=1
}
apt_install() {
  apt_update || return
  echo "Installing Debian's $* with apt-get…"
  DEBIAN_FRONTEND=noninteractive apt-get "${APT_OPTIONS[@]}" install -y -qq --no-install-recommends "$@"
}

# A fresh machine may have no package lists yet: then apt knows no candidate, and Debian's packages would be
# passed over for pip. Fetch the lists once (as root, not with --check) when one of ours has no candidate.
refresh_apt_lists() {
  have_apt && is_root && ((!check)) || return 0
  local debian
  for debian in $(awk '!/^#/ && NF >= 5 && $5 != "-" { print $5 }' "$PACKAGES_FILE"); do
    if [[ -z $(deb_candidate "$debian") ]]; then
      apt_update || { echo "apt-get update failed (see above)." >&2; exit 1; }
      return 0
    fi
  done
}

# --- 1. Debian's python3 and venv -------------------------------------------------------------------------
if have_apt; then
  missing_base=()
  for p in "${BASE_PACKAGES[@]}"; do deb_installed "$p" || missing_base+=("$p"); done
  if ((${#missing_base[@]})); then
    if ((check)) || ! is_root; then
      echo "Missing Debian packages: ${missing_base[*]}. Install them (as root):" >&2
      echo "  apt-get install --no-install-recommends ${missing_base[*]}" >&2
      exit 1
    fi
    apt_install "${missing_base[@]}" || { echo "apt-get failed (see above)." >&2; exit 1; }
  fi
  # Debian's own interpreter: the one its python3-* packages install into (another python3 earlier on PATH,
  # e.g. from pyenv, would not see them).
  SYSTEM_PYTHON="$(dpkg -L python3-minimal | grep -E '/bin/python3$' | head -n 1)"
else
  SYSTEM_PYTHON="$(command -v python3 || true)"
  [[ -n $SYSTEM_PYTHON ]] || { echo "No python3 found: install Python 3.11 or later first." >&2; exit 1; }
fi

# --- 2. The venv, over that interpreter ------------------------------------------------------------------
venv_fits() {
  [[ -x $VENV/bin/python ]] && grep -qs '^include-system-site-packages = true' "$VENV/pyvenv.cfg" &&
    [[ "$(readlink -f "$VENV/bin/python")" == "$(readlink -f "$SYSTEM_PYTHON")" ]]
}
PYTHON="$VENV/bin/python"
if ! venv_fits; then
  if ((check)); then
    echo "Would make ${VENV#"$ROOT"/}/ over $SYSTEM_PYTHON (it sees the system's packages)."
    PYTHON="$SYSTEM_PYTHON"
  else
    if [[ -e $VENV ]]; then
      echo "Remaking ${VENV#"$ROOT"/}/: it was not a venv over $SYSTEM_PYTHON with the system's packages."
    else
      echo "Making ${VENV#"$ROOT"/}/ over $SYSTEM_PYTHON (it sees the system's packages)."
    fi
    "$SYSTEM_PYTHON" -m venv --clear --system-site-packages "$VENV"
  fi
fi

# --- 3. What is there, and where the rest comes from -----------------------------------------------------
declare -A state version where
probe() {
  local dist st rest out
  state=() version=() where=()
  out="$("$PYTHON" "$PROBE" --probe)" || { echo "$PYTHON could not check its packages (see above)." >&2; exit 1; }
  while read -r dist st rest; do
    state[$dist]="$st"
    if [[ $st == ok ]]; then
      version[$dist]="${rest%% *}"
      where[$dist]="${rest#* }"
    else
      version[$dist]=""
      where[$dist]="$rest"
    fi
  done <<<"$out"
}

# Fills ok_lines, keep (the system's packages that do: pip must not shadow them), apt_list, pip_list and pip_why
# from the probe and Debian's candidates.
plan() {
  local dist module minimum pip debian why found candidate
  ok_lines=() keep=() apt_list=() pip_list=() pip_why=()
  while read -r dist module minimum pip debian why; do
    [[ -z $dist || $dist == \#* ]] && continue
    if [[ ${state[$dist]:-missing} == ok ]] && at_least "${version[$dist]}" "$minimum"; then
      ok_lines+=("$(printf '  %-13s %-12s %-7s (≥ %s)' "$dist" "${version[$dist]}" "${where[$dist]/venv/.venv}" "$minimum")")
      [[ ${where[$dist]} == system ]] && keep+=("$dist==${version[$dist]}")
      continue
    fi
    if [[ ${state[$dist]:-missing} == ok ]]; then found="${version[$dist]} is too old"; else found="${where[$dist]:-not found}"; fi
    if [[ $debian != - ]] && have_apt && ! deb_installed "$debian"; then
      candidate="$(deb_candidate "$debian")"
      if [[ -n $candidate ]] && at_least "$candidate" "$minimum"; then
        apt_list+=("$debian")
        continue
      fi
      found+="; Debian's $debian is ${candidate:-not available}"
    elif [[ $debian != - ]] && have_apt; then
      found+="; Debian's $debian is installed"
    fi
    pip_list+=("$pip")
    pip_why+=("$(printf '  %-22s (needs ≥ %s: %s) — %s' "$pip" "$minimum" "$found" "$why")")
  done <"$PACKAGES_FILE"
}

pip_command() {
  local args=(-m pip install --prefer-binary)
  [[ -n $index_url ]] && args+=(--index-url "$index_url")
  for dir in "${find_links[@]}"; do args+=(--find-links "$dir"); done
  [[ -z $index_url ]] && ((${#find_links[@]})) && args+=(--no-index)
  printf '%s\n' "${args[@]}"
}

report_ok() {
  echo "Python for the bench: $PYTHON ($("$PYTHON" -c 'import sys; print(sys.version.split()[0])'))"
  printf '%s\n' "${ok_lines[@]}"
}

refresh_apt_lists
probe
plan

# --- 4. Debian's packages --------------------------------------------------------------------------------
if ((${#apt_list[@]})); then
  if ((check)) || ! is_root; then
    echo "To install from Debian (apt-get, as root): ${apt_list[*]}" >&2
    echo "  apt-get install --no-install-recommends ${apt_list[*]}" >&2
  else
    apt_install "${apt_list[@]}" || { echo "apt-get failed (see above)." >&2; exit 1; }
    probe
    plan
  fi
fi

# --- 5. The rest from pip, into .venv --------------------------------------------------------------------
if ((${#pip_list[@]})); then
  echo "Not in Debian at a version that works, so from pip into ${VENV#"$ROOT"/}/:" >&2
  printf '%s\n' "${pip_why[@]}" >&2
  mapfile -t pip_args < <(pip_command)
  if ((${#apt_list[@]})) && ((!check)); then
    echo "Install the Debian packages above first (as root), then run this again to add these." >&2
  elif [[ -z $index_url && ${#find_links[@]} -eq 0 ]]; then
    echo "Name where pip may get them (a package index and/or a folder of wheels), and run this again:" >&2
    echo "  bash scripts/python-env.sh --index-url URL --find-links DIR" >&2
    echo "or install them by hand: ${VENV#"$ROOT"/}/bin/python ${pip_args[*]} ${pip_list[*]}" >&2
  elif ((check)); then
    echo "Without --check, this runs: ${VENV#"$ROOT"/}/bin/python ${pip_args[*]} ${pip_list[*]}" >&2
  else
    # Keep what the system provides at the version it has (e.g. Debian's numpy, which its scikit-learn is
    # built against): pip may add packages to .venv but not shadow those.
    constraints="$(mktemp)"
    trap 'rm -f "$constraints"' EXIT
    printf '%s\n' "${keep[@]}" >"$constraints"
    echo "Installing ${pip_list[*]} with pip…"
    if ! "$PYTHON" "${pip_args[@]}" --constraint "$constraints" "${pip_list[@]}"; then
      echo "pip could not install them (see above): check the index and folders named, or install by hand:" >&2
      echo "  ${VENV#"$ROOT"/}/bin/python ${pip_args[*]} ${pip_list[*]}" >&2
      exit 1
    fi
    probe
    plan
  fi
fi

if ((${#apt_list[@]} + ${#pip_list[@]})); then
  ((check)) || echo "The environment is incomplete: the packages above are still missing." >&2
  exit 1
fi
report_ok
