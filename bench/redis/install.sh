#!/usr/bin/env bash
# Installs Debian's redis-server for `./pushline bench gate` (the Redis peer). The bench starts
# its own server on a free loopback port, without persistence, and stops it afterwards.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1; then
  redis-server --version
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get install -y redis-server || { $SUDO apt-get update && $SUDO apt-get install -y redis-server; }
# The package starts a system service on 6379; the bench does not need it.
$SUDO systemctl disable --now redis-server >/dev/null 2>&1 || true
redis-server --version
