#!/bin/sh
# rdinit for the harness's own tests: init exits, the kernel panics.
exit 1
