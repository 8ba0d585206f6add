//go:build race

package fidelity

// raceOn says the race detector is on, which makes the engine several
// times slower: the long differential runs are cut to fit (see lighter).
const raceOn = true
