# bats' setup_suite for tests/durability: the same as the CLI tests' (tests/cli/setup_suite.bash).
source "$(dirname "${BASH_SOURCE[0]}")/../cli/setup_suite.bash"
