# Run by bats once before the CLI tests of a run (bats' setup_suite): the reference files the
# tests read are the repository's tests/data unless FUEL_FIXTURES names others.

setup_suite() {
    FUEL_FIXTURES=${FUEL_FIXTURES:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../data" && pwd)}
    export FUEL_FIXTURES
}
