package lesson

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"
)

// The bundler knows exactly the module syntax the page's own code uses, and
// refuses anything else rather than guess: named imports from a sibling
// module, and exported function, class, const and let declarations.
var (
	importRe = regexp.MustCompile(`(?m)^import\s*\{([^}]*)\}\s*from\s*"\./([A-Za-z0-9_.-]+\.js)";[ \t]*$`)
	exportRe = regexp.MustCompile(`(?m)^export\s+((?:async\s+)?function\*?|class|const|let)\s+([A-Za-z_$][\w$]*)`)
	strayRe  = regexp.MustCompile(`(?m)^(import|export)\b`)
	nameRe   = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)
)

// module is one ES module after its imports and exports were read.
type module struct {
	name    string
	body    string   // the source with import lines and export keywords rewritten
	deps    []string // the modules it imports, in source order
	exports []string
}

// Bundle turns the page's ES modules, starting at entry, into one classic
// script body for an inline <script type="module">: each module becomes a
// function scope that returns its exports, in dependency order, and an
// import becomes a destructuring of the exporting module's object. A page
// opened from file:// cannot load module files (the browser treats every
// file as its own origin), so the offline lesson needs them in one piece.
func Bundle(assets fs.FS, entry string) (string, error) {
	mods := map[string]*module{}
	var order []string
	visiting := map[string]bool{}
	var visit func(name string) error
	visit = func(name string) error {
		if _, done := mods[name]; done {
			return nil
		}
		if visiting[name] {
			return fmt.Errorf("%s: an import cycle, which the bundler does not order", name)
		}
		visiting[name] = true
		m, err := parseModule(assets, name)
		if err != nil {
			return err
		}
		for _, d := range m.deps {
			if err := visit(d); err != nil {
				return err
			}
		}
		mods[name] = m
		order = append(order, name)
		return nil
	}
	if err := visit(entry); err != nil {
		return "", err
	}

	var b strings.Builder
	b.WriteString("const __modules = Object.create(null);\n")
	for _, name := range order {
		m := mods[name]
		if name == entry {
			fmt.Fprintf(&b, "// ---- %s ----\n{\n%s\n}\n", name, m.body)
			continue
		}
		fmt.Fprintf(&b, "// ---- %s ----\n__modules[%q] = (() => {\n%s\nreturn { %s };\n})();\n", name, name, m.body, strings.Join(m.exports, ", "))
	}
	return b.String(), nil
}

func parseModule(assets fs.FS, name string) (*module, error) {
	src, err := fs.ReadFile(assets, name)
	if err != nil {
		return nil, err
	}
	m := &module{name: name}
	var problem error
	body := importRe.ReplaceAllStringFunc(string(src), func(stmt string) string {
		parts := importRe.FindStringSubmatch(stmt)
		var names []string
		for _, spec := range strings.Split(parts[1], ",") {
			spec = strings.TrimSpace(spec)
			if spec == "" {
				continue
			}
			local := spec
			if from, to, ok := strings.Cut(spec, " as "); ok {
				from, to = strings.TrimSpace(from), strings.TrimSpace(to)
				local = from + ": " + to
				spec = from
			}
			if !nameRe.MatchString(spec) {
				problem = fmt.Errorf("%s: cannot read the import %q", name, spec)
			}
			names = append(names, local)
		}
		m.deps = append(m.deps, parts[2])
		return fmt.Sprintf("const { %s } = __modules[%q];", strings.Join(names, ", "), parts[2])
	})
	if problem != nil {
		return nil, problem
	}
	body = exportRe.ReplaceAllStringFunc(body, func(decl string) string {
		parts := exportRe.FindStringSubmatch(decl)
		m.exports = append(m.exports, parts[2])
		return strings.TrimPrefix(decl, "export ")
	})
	if loc := strayRe.FindStringIndex(body); loc != nil {
		line := strings.Count(body[:loc[0]], "\n") + 1
		return nil, fmt.Errorf("%s:%d: an import or export the bundler does not understand", name, line)
	}
	m.body = body
	return m, nil
}
