//go:build !race

package fidelity

const raceOn = false
