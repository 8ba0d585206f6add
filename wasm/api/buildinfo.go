// The build's name and the module versions it was built with.

package api

import (
	"runtime/debug"
	"strings"
)

// BuildInfo is Version with the miniredis and gopher-lua module versions
// this binary was built with, when Go recorded them.
func BuildInfo() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Version
	}
	var deps []string
	for _, d := range info.Deps {
		switch d.Path {
		case "github.com/alicebob/miniredis/v2", "github.com/yuin/gopher-lua":
			deps = append(deps, d.Path[strings.LastIndex(strings.TrimSuffix(d.Path, "/v2"), "/")+1:]+" "+d.Version)
		}
	}
	if len(deps) == 0 {
		return Version
	}
	return Version + " · " + strings.Join(deps, ", ")
}
