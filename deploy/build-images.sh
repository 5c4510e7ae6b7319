#!/usr/bin/env bash
# Builds every image that k8s/base/*.yaml names: each job's (from its shaded job jar, on the
# official Flink image) and serve's (its runnable jar on a JRE image).
# Usage: deploy/build-images.sh [TAG]   (default tag 0.1.0; set REGISTRY to push elsewhere)
# Needs Docker (or a docker-compatible CLI such as podman) and the base image
# flink:2.2.0-scala_2.12-java17 (override with FLINK_IMAGE=...) and, for serve,
# eclipse-temurin:17-jre (JRE_IMAGE=...).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TAG="${1:-0.1.0}"
REGISTRY="${REGISTRY:-ghcr.io/pushline}"
FLINK_IMAGE="${FLINK_IMAGE:-flink:2.2.0-scala_2.12-java17}"
JRE_IMAGE="${JRE_IMAGE:-eclipse-temurin:17-jre}"

(cd "$ROOT" && mvn -B -q -DskipTests -Dspotless.check.skip=true package)
# module folder under jobs/ -> image name in k8s/base/*.yaml
for pair in dispatch:dispatch longconn:longconn gateway:gateway schedule:schedule recall:recall \
    receipts:receipts audiences:segments sendtime:sendtime; do
  module="${pair%%:*}"
  image="$REGISTRY/pushline-${pair##*:}:$TAG"
  echo "building $image from jobs/$module"
  docker build --build-arg FLINK_IMAGE="$FLINK_IMAGE" -t "$image" "$ROOT/jobs/$module"
done
image="$REGISTRY/pushline-serve:$TAG"
echo "building $image from serve/app"
docker build --build-arg JRE_IMAGE="$JRE_IMAGE" -t "$image" "$ROOT/serve/app"
