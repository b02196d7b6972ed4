#!/usr/bin/env bash
# Prints the URI of the Debian archive this machine's apt uses (its mirror, in apt's own notation: http://,
# https://, file:, mirror+file: …), so a script can fetch Debian packages from where this machine does, behind
# any mirror or proxy. Read through apt's own parser of /etc/apt/sources.list and /etc/apt/sources.list.d/
# (one-line `.list` and deb822 `.sources` files, disabled entries left out), with `apt-get indextargets`:
#   1. after an `apt-get update`, the entry whose Release file says Origin: Debian and Label: Debian (the main
#      archive; not -security, whose label is Debian-Security, and not a third party's);
#   2. otherwise (no lists downloaded yet, as on a fresh machine), the `deb` entry whose suite is this machine's
#      release codename (VERSION_CODENAME in /etc/os-release), main component.
# AERIE_DEBIAN_ARCHIVE overrides both. Exits 1 with a sentence when none is found.
#
# Usage: scripts/debian-archive.sh   (APT_CONFIG and AERIE_OS_RELEASE, default /etc/os-release, are honoured:
# tests/scripts/debian-archive.test.ts points them at made-up configurations)
set -euo pipefail

if [ -n "${AERIE_DEBIAN_ARCHIVE:-}" ]; then
  echo "${AERIE_DEBIAN_ARCHIVE%/}"
  exit 0
fi
command -v apt-get >/dev/null || {
  echo "debian-archive: apt-get is missing: this needs a Debian machine (or AERIE_DEBIAN_ARCHIVE=<archive URI>)" >&2
  exit 1
}

# Fields are separated by "|", which no URI, suite or label here contains; empty fields stay in place.
archive="$(apt-get indextargets --format '$(TARGET_OF)|$(ORIGIN)|$(LABEL)|$(COMPONENT)|$(REPO_URI)' |
  awk -F'|' '$1 == "deb" && $2 == "Debian" && $3 == "Debian" && $4 == "main" { print $5; exit }')"

if [ -z "$archive" ]; then
  codename="$(
    # shellcheck disable=SC1090
    . "${AERIE_OS_RELEASE:-/etc/os-release}" && echo "${VERSION_CODENAME:-}"
  )"
  if [ -n "$codename" ]; then
    archive="$(apt-get indextargets --no-release-info --format '$(TARGET_OF)|$(RELEASE)|$(COMPONENT)|$(REPO_URI)' |
      awk -F'|' -v suite="$codename" '$1 == "deb" && $2 == suite && $3 == "main" { print $4; exit }')"
  fi
fi

if [ -z "$archive" ]; then
  echo "debian-archive: no Debian archive in this machine's apt sources (/etc/apt/sources.list*): set" \
    "AERIE_DEBIAN_ARCHIVE to one, e.g. http://deb.debian.org/debian" >&2
  exit 1
fi
echo "${archive%/}"
