#!/usr/bin/env bash
# Debian's Chromium for the report and dashboard browser tests (driven by playwright-core).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then echo "✓ chromium $(/usr/bin/chromium --version 2>/dev/null | awk '{print $2}')"; exit 0; fi
echo "… installing chromium from Debian"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
echo "✓ chromium installed"
