// Package bundle makes the files a page loads from the sources developers
// edit in web/assets: one script and one stylesheet for every document
// (the full page, each embed, the offline lesson), and the engine's worker
// with Go's wasm_exec.js inside it, each minified by esbuild through its
// Go API. Every level of an ES module graph is one more round trip before
// a page can run, and every stylesheet one more request before it paints:
// an embed loaded 6 stylesheets and 28 modules before it was Ready.
//
// The sources stay as they are: the Node unit tests import the modules,
// and the worker's bridge is also made into a CommonJS module
// (static/worker.js) that Node's tests and benches require. esbuild reads
// them from an fs.FS (a plugin resolves every relative import inside it),
// so a test can bundle a map of files.
//
// This is a host package: nothing under wasm/ may import it (build.sh
// checks), so none of esbuild ends up in echomq.wasm.
package bundle

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// target is what the bundles may assume of the browser: what the page's
// own code already needs (ES modules, top-level await is not used,
// DecompressionStream, compileStreaming), so esbuild lowers nothing.
var target = api.ES2022

// namespace is where the plugin's files live, apart from the disk.
const namespace = "assets"

// Script bundles the ES module entry and every module it imports into one
// ES module, minified.
func Script(assets fs.FS, entry string) ([]byte, error) {
	return build(assets, entry, api.LoaderJS, api.FormatESModule)
}

// Style bundles the stylesheets, in cascade order, into one, minified.
func Style(assets fs.FS, names []string) ([]byte, error) {
	var imports strings.Builder
	for _, n := range names {
		fmt.Fprintf(&imports, "@import %q;\n", "./"+n)
	}
	return buildStdin(assets, imports.String(), api.LoaderCSS, api.FormatDefault)
}

// Classic bundles the ES module entry and what it imports into one
// classic script (an immediately run function, which also runs as a
// module), minified, with each name in defines replaced by its JSON: the
// course page's embed.js, which hosts load by a plain <script> tag.
func Classic(assets fs.FS, entry string, defines map[string]any) ([]byte, error) {
	d := map[string]string{}
	for k, v := range defines {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		d[k] = string(b)
	}
	return run(assets, api.BuildOptions{EntryPoints: []string{entry}, Define: d}, api.LoaderJS, api.FormatIIFE)
}

// Worker is the engine's worker as one classic script: Go's wasm_exec.js,
// then worker, the worker's own classic bundle (Classic of worker.js,
// which finds self.Go defined and imports nothing at run time), minified.
// A worker with Go inside it is one request, not two in a row.
func Worker(wasmExec, worker []byte) ([]byte, error) {
	src := string(wasmExec) + "\n;\n" + string(worker)
	r := api.Transform(src, api.TransformOptions{
		Loader:            api.LoaderJS,
		Target:            target,
		MinifyWhitespace:  true,
		MinifySyntax:      true,
		MinifyIdentifiers: true,
		LegalComments:     api.LegalCommentsNone,
		Sourcefile:        "worker.js",
	})
	if err := failed(r.Errors); err != nil {
		return nil, err
	}
	return r.Code, nil
}

// CommonJS bundles the ES module entry and what it imports into one
// CommonJS module, minified, whose exports are the entry's: the worker's
// bridge, which Node's contract tests and benches require.
func CommonJS(assets fs.FS, entry string) ([]byte, error) {
	o := api.BuildOptions{EntryPoints: []string{entry}}
	return run(assets, o, api.LoaderJS, api.FormatCommonJS)
}

func build(assets fs.FS, entry string, loader api.Loader, format api.Format) ([]byte, error) {
	return run(assets, api.BuildOptions{EntryPoints: []string{entry}}, loader, format)
}

func buildStdin(assets fs.FS, contents string, loader api.Loader, format api.Format) ([]byte, error) {
	return run(assets, api.BuildOptions{Stdin: &api.StdinOptions{Contents: contents, Loader: loader, Sourcefile: "<stdin>"}}, loader, format)
}

func run(assets fs.FS, o api.BuildOptions, loader api.Loader, format api.Format) ([]byte, error) {
	o.Bundle = true
	o.Write = false
	o.Format = format
	o.Target = target
	o.Platform = api.PlatformBrowser
	o.MinifyWhitespace, o.MinifySyntax, o.MinifyIdentifiers = true, true, true
	o.LegalComments = api.LegalCommentsNone
	o.Charset = api.CharsetUTF8
	o.Outfile = "out" + map[api.Loader]string{api.LoaderJS: ".js", api.LoaderCSS: ".css"}[loader]
	o.LogLevel = api.LogLevelSilent
	o.Plugins = []api.Plugin{fromFS(assets)}
	r := api.Build(o)
	if err := failed(r.Errors); err != nil {
		return nil, err
	}
	for _, f := range r.OutputFiles {
		if strings.HasSuffix(f.Path, path.Ext(o.Outfile)) {
			return f.Contents, nil
		}
	}
	return nil, errors.New("esbuild wrote no output")
}

// fromFS resolves every import, relative or not, to a file in assets:
// the page's code imports only its siblings, and nothing from the disk
// or a package may slip into a bundle.
func fromFS(assets fs.FS) api.Plugin {
	return api.Plugin{Name: "assets", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Kind == api.ResolveEntryPoint {
				return api.OnResolveResult{Path: path.Clean(a.Path), Namespace: namespace}, nil
			}
			if !strings.HasPrefix(a.Path, "./") && !strings.HasPrefix(a.Path, "../") {
				return api.OnResolveResult{}, fmt.Errorf("%q: only the assets' own files may be imported, by a relative path", a.Path)
			}
			dir := "."
			if a.Namespace == namespace {
				dir = path.Dir(a.Importer)
			}
			p := path.Join(dir, a.Path)
			if !fs.ValidPath(p) {
				return api.OnResolveResult{}, fmt.Errorf("%q climbs out of the assets", a.Path)
			}
			return api.OnResolveResult{Path: p, Namespace: namespace}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: namespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			data, err := fs.ReadFile(assets, a.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			text := string(data)
			loader := api.LoaderJS
			if path.Ext(a.Path) == ".css" {
				loader = api.LoaderCSS
			}
			return api.OnLoadResult{Contents: &text, Loader: loader}, nil
		})
	}}
}

// failed turns esbuild's errors into one error naming each file and line.
func failed(msgs []api.Message) error {
	if len(msgs) == 0 {
		return nil
	}
	var parts []string
	for _, m := range msgs {
		where := ""
		if m.Location != nil {
			where = fmt.Sprintf("%s:%d: ", m.Location.File, m.Location.Line)
		}
		parts = append(parts, where+m.Text)
	}
	return errors.New(strings.Join(parts, "; "))
}
