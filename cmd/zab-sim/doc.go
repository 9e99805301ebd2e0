// Command zab-sim runs the Zab simulator over a range of seeds and prints one
// line per failing seed, then "sim: <N> schedules, <V> violations".
//
//	zab-sim --seeds 1000 --first 1            # 1000 schedules from seed 1
//	zab-sim --seed 42 --html seed42.html      # one schedule, drawn as a timeline
//	zab-sim --bug commit-without-quorum --seeds 200 --html bug.html
//
// --html draws the schedule of --seed, or without --seed the first failing
// seed of the range, as one HTML page that opens at the violation (package
// zab/trace/timeline). --bug switches on a known protocol error (see
// --help for the names), as TestSimulatorCatchesBugs does, to watch the
// simulator catch it.
package main
