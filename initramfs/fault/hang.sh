#!/bin/sh
# rdinit for the harness's own tests: a guest that never finishes.
while :; do /bin/busybox sleep 60; done
