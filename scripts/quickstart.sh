#!/usr/bin/env bash
# The README's first quick-start command: on a bare Debian or Ubuntu machine with Swift, installs
# the seven system libraries the package links (asking first when that needs sudo), then
# converts the checked-in sample:
#
#   bash scripts/quickstart.sh              # then: out/payloads/*.json, payloads.json, daily.csv, health.sqlite
#   bash scripts/quickstart.sh --out mine   # any further arguments go to convert
#
# HEALTH_IMPORT_SETUP_ONLY=1 only does the set-up. On macOS the SDK has libxml2, SQLite, zlib and
# CommonCrypto (SHA-256); yajl and libpq come from Homebrew (brew install yajl libpq pkg-config;
# libpq is keg-only: PKG_CONFIG_PATH="$(brew --prefix libpq)/lib/pkgconfig"). .ci/run installs the
# same libraries (and what CI needs besides).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libxml2-dev libsqlite3-dev libyajl-dev zlib1g-dev libisal-dev libpq-dev libssl-dev)
if command -v dpkg >/dev/null 2>&1; then
    need=()
    for pkg in "${packages[@]}"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
    done
    if [ "${#need[@]}" -gt 0 ]; then
        echo "quickstart: the build needs ${need[*]}"
        if [ "$(id -u)" -eq 0 ]; then
            sudo=()
        elif command -v sudo >/dev/null 2>&1 && [ -t 0 ]; then
            read -r -p "quickstart: install them with sudo apt-get? [y/N] " answer
            case "$answer" in
                y | Y | yes | Yes) sudo=(sudo) ;;
                *)
                    echo "quickstart: nothing installed. Install them yourself: sudo apt-get install ${need[*]}"
                    exit 1
                    ;;
            esac
        else
            echo "quickstart: not root and no terminal to ask on. Install them, then run this again: sudo apt-get install ${need[*]}"
            exit 1
        fi
        export DEBIAN_FRONTEND=noninteractive
        "${sudo[@]}" apt-get update -qq
        "${sudo[@]}" apt-get install -y -qq "${need[@]}"
    fi
elif [ "$(uname -s)" = Darwin ] && ! { pkg-config --exists yajl && pkg-config --exists libpq; } 2>/dev/null; then
    echo "quickstart: the build needs yajl and libpq: brew install yajl libpq pkg-config, and (libpq is keg-only)"
    echo "  export PKG_CONFIG_PATH=\"\$(brew --prefix libpq)/lib/pkgconfig\""
    exit 1
fi

if [ "${HEALTH_IMPORT_SETUP_ONLY:-}" = 1 ]; then exit 0; fi
swift run health-import convert samples/export.zip "$@"
