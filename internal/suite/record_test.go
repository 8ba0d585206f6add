package suite

import (
	"path/filepath"
	"testing"
)

// TestNoRecordedUnitIsEmpty: the record is the gate ./build.sh test holds
// the engine to, and an empty unit in it gates nothing. Such a unit is what
// an -update writes when the unit could not run at all (it happened to the
// wasm record: every unit at 0, so a module that failed every test would
// have passed). A unit the engine is not run on is left out of the record,
// and FIDELITY.md says "not run" for it.
func TestNoRecordedUnitIsEmpty(t *testing.T) {
	rec, err := ReadRecord(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range Targets {
		for unit, names := range rec.Passing[target] {
			if len(names) == 0 && len(rec.Passing["redis"][unit]) > 0 {
				t.Errorf("%s: unit %s is in the record with no passing test, though %d pass on Redis: run it again with -update, or leave it out of the record if it is not run on %s",
					"passing-"+target+".txt", unit, len(rec.Passing["redis"][unit]), target)
			}
		}
	}
}
