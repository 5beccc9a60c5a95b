//go:build race

package cli

// raceEnabled: the race detector's runtime maps more address space than
// any cap childMemoryEnv sets, so the children run uncapped.
const raceEnabled = true
