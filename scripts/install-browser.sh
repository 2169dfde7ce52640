#!/usr/bin/env bash
# Debian's Chromium for the report and dashboard browser tests (driven by playwright-core), and a
# colour emoji font so pictures of markdown with ✅ ❌ ⚠️ (npm run docs:images) show them.
set -euo pipefail
emoji=/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf
if [ -x /usr/bin/chromium ] && [ -f "$emoji" ]; then echo "✓ chromium $(/usr/bin/chromium --version 2>/dev/null | awk '{print $2}')"; exit 0; fi
echo "… installing chromium and fonts-noto-color-emoji from Debian"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-noto-color-emoji >/dev/null
echo "✓ chromium installed"
