#!/bin/sh
# Print the cache directory of the installed source package (for make).
. "$(dirname "$0")/lib.sh"
tree_root
