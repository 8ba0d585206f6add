package api

import (
	"fmt"
	"unicode/utf8"
)

// Keyspaces are the engines of one module: one Playground per keyspace
// name, each with its own keyspace, script cache, clock and connections.
// Embeds on one course page share one module (one download, one compile,
// one worker) and still never see each other's keys: each calls in its own
// keyspace, unless their author gives them one name to share.
//
// The keyspace "" is the module's first engine, the one the per-method
// functions of globalThis.echomq use; it is made at start, and the others
// when first called.
type Keyspaces struct {
	byName  map[string]*Playground
	options Options // each keyspace's playground is made with them
}

// MaxKeyspaces bounds how many engines one module holds: each is small,
// but a page that makes keyspaces in a loop should hear no, not run the
// tab out of memory.
const MaxKeyspaces = 256

// maxKeyspaceName bounds a keyspace's name, in bytes.
const maxKeyspaceName = 128

// NewKeyspaces returns the keyspaces of a module, holding the default one.
// The default keyspace makes its engine at its first call that needs one:
// on a course page every embed calls in a keyspace of its own, so in the
// shared worker an engine made at start would be one nobody calls, made
// (a Lua state and all) before the first embed's first answer.
func NewKeyspaces(opts ...Options) *Keyspaces {
	o := option(opts)
	return &Keyspaces{byName: map[string]*Playground{"": {options: o}}, options: o}
}

// Default is the keyspace "" that the per-method functions call.
func (k *Keyspaces) Default() *Playground { return k.byName[""] }

// Call is globalThis.echomq.call(keyspace, method, args): method run with
// args in the named keyspace, which is made on first use. Like every call
// of the API it never panics, and a wrong argument is {error:"args"}.
func (k *Keyspaces) Call(args []any) any {
	name, err := keyspaceArgs("call", "keyspace, method, args", args, 3)
	if err != nil {
		return errorObject(err)
	}
	method, err := str(args, 1, "method")
	if err != nil {
		return errorObject(err)
	}
	list, ok := args[2].([]any)
	if !ok {
		return errorObject(argsf("args must be an array, got %s", typeName(args[2])))
	}
	p, ok := k.byName[name]
	if !ok {
		if len(k.byName) >= MaxKeyspaces {
			return errorObject(argsf("call(keyspace, ...): this module already holds %d keyspaces; drop one first", MaxKeyspaces))
		}
		p = New(k.options)
		k.byName[name] = p
	}
	return p.Call(method, list)
}

// Drop is globalThis.echomq.drop(keyspace): forgets a keyspace (the page
// that used it has gone), so its memory can be reclaimed. The default
// keyspace is emptied instead, since the per-method functions need it.
func (k *Keyspaces) Drop(args []any) any {
	name, err := keyspaceArgs("drop", "keyspace", args, 1)
	if err != nil {
		return errorObject(err)
	}
	if name == "" {
		k.Default().Call("reset", nil)
		return Object{"dropped": true}
	}
	_, had := k.byName[name]
	delete(k.byName, name)
	return Object{"dropped": had}
}

// Len is how many keyspaces the module holds, the default one included.
func (k *Keyspaces) Len() int { return len(k.byName) }

// keyspaceArgs checks that fn(usage) has its n arguments, and returns the
// first, the keyspace's name.
func keyspaceArgs(fn, usage string, args []any, n int) (string, error) {
	if err := arity(fn, usage, args, n, n); err != nil {
		return "", err
	}
	name, err := str(args, 0, "keyspace")
	if err != nil {
		return "", err
	}
	if len(name) > maxKeyspaceName || !utf8.ValidString(name) {
		return "", argsf("keyspace must be valid text of at most %d bytes, got %s", maxKeyspaceName, fmt.Sprintf("%d bytes", len(name)))
	}
	return name, nil
}
