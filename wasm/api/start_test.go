package api

import (
	"errors"
	"strings"
	"testing"
)

func TestStartAnswersNilWhenTheEngineCanRun(t *testing.T) {
	if err := Start(); err != nil {
		t.Fatalf("Start: %v", err)
	}
}

// When the engine's Lua 5.1 hook is missing, Start says so and why: the
// WebAssembly module publishes this text and the page's failure panel shows
// it, rather than a playground that runs scripts without their limits.
func TestStartSaysWhyTheEngineRefuses(t *testing.T) {
	defer func(orig func() error) { engineReady = orig }(engineReady)
	engineReady = func() error { return errors.New("the Lua 5.1 hook into gopher-lua cannot be installed") }
	err := Start()
	if err == nil || !strings.Contains(err.Error(), "the engine refuses to start: the Lua 5.1 hook into gopher-lua cannot be installed") {
		t.Fatalf("Start = %v, want the refusal and its reason", err)
	}
}
