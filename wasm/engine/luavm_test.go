package engine

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	glua "github.com/yuin/gopher-lua"
)

// The hook into gopher-lua is what gives scripts Lua 5.1's behaviour and
// the string cap; these tests make sure it is there and cannot go missing
// quietly.

func TestTheLua51HookIsInstalled(t *testing.T) {
	if err := Ready(); err != nil {
		t.Fatalf("Ready: %v", err)
	}
	// Only the wrapped opcodes give these: gopher-lua's own reads '010'
	// as octal (8), and builds a doubling string until memory runs out.
	unhurried(t)
	e := MustNew()
	if r := e.exec("EVAL", "return '010' + 0", "0"); r.IsError() || r.Int != 10 {
		t.Errorf("'010' + 0 = %v, want Lua 5.1's 10", r)
	}
	r := e.exec("EVAL", "local s = 'x' while true do s = s .. s end", "0")
	if !r.IsError() || !strings.Contains(r.Str, "string length overflow") {
		t.Errorf("a doubling string = %v, want the string cap's error", r)
	}
}

func TestAFailedHookCheckIsReportedAndLeavesTheTableAlone(t *testing.T) {
	before := reflect.ValueOf(jumpTable[glua.OP_CONCAT]).Pointer()
	err := installOpcodes(func() error { return errors.New("LState.currentFrame is not a pointer to a struct") })
	if err == nil {
		t.Fatal("installOpcodes with a failing check answered nil")
	}
	for _, want := range []string{"cannot be installed", "gopher-lua " + hookedGopherLua, "LState.currentFrame"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	if after := reflect.ValueOf(jumpTable[glua.OP_CONCAT]).Pointer(); after != before {
		t.Error("a failed check still changed the jump table")
	}
}

// An engine without the hook would run scripts with no string cap: New
// refuses with the reason Ready gives, as an error the caller can show (the
// page's failure panel), and MustNew stops the test run with it.
func TestNewRefusesWithoutTheHook(t *testing.T) {
	if err := Ready(); err != nil {
		t.Fatalf("Ready: %v", err)
	}
	defer func(orig error) { vmProblem = orig }(vmProblem)
	vmProblem = errors.New("the Lua 5.1 hook into gopher-lua cannot be installed")
	e, err := New()
	if e != nil || !errors.Is(err, vmProblem) || !strings.Contains(err.Error(), "refusing to start") {
		t.Fatalf("New = %v, %v; want no engine and Ready's error", e, err)
	}
	defer func() {
		if v, _ := recover().(error); !errors.Is(v, vmProblem) {
			t.Fatalf("MustNew panicked with %v, want New's error", v)
		}
	}()
	MustNew()
	t.Fatal("MustNew returned an engine without the hook")
}

// TestGopherLuaIsTheVersionTheHookWasWrittenFor fails on an upgrade of
// gopher-lua, so that someone reads luavm.go against the new release's
// vm.go and state.go before the engine runs on it. Change hookedGopherLua
// only after that review. It reads go.mod, which decides the version every
// build uses (a test binary records no dependencies in its build info).
func TestGopherLuaIsTheVersionTheHookWasWrittenFor(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) < 2 || f[0] != "github.com/yuin/gopher-lua" {
			continue
		}
		if f[1] != hookedGopherLua {
			t.Fatalf("go.mod requires gopher-lua %s, but wasm/engine/luavm.go was written against %s: review its go:linkname jump table and frame offsets against the new release, then update hookedGopherLua", f[1], hookedGopherLua)
		}
		return
	}
	t.Fatal("go.mod does not require github.com/yuin/gopher-lua")
}
