#!/usr/bin/env bash
# Replaced by bench/run.sh, which prints the same whole-process comparisons (1M rolls, exact
# odds against dicelab) as ratios, with the rule-call, library and start-up references.
exec bash "$(dirname "$0")/run.sh" "$@"
