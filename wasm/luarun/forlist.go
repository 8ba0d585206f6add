package luarun

import (
	"reflect"

	"github.com/yuin/gopher-lua/ast"
)

// The generic for's expression list, adjusted to three values as Lua 5.1
// adjusts it.
//
// `for k, v in next, t do` gives the loop its iterator, state and first
// control value from the list next, t: Lua 5.1 fills the missing third
// with nil. gopher-lua's compiler (v1.1.2, compileGenericForStmt) sizes
// the list by the loop's names instead, so with two names and two
// expressions the control register keeps whatever an earlier expression
// left there: after `in next, {a = 1, b = 2, [10] = 3}` it held 10, the
// constructor's last key, and the loop began after it, summing to 3 where
// Redis sums to 6. padForLists appends the nils to the list before it is
// compiled, so the compiler writes them. A list that ends in a call or in
// ... is adjusted by the call itself and is left alone.

// padForLists rewrites every generic for of a chunk, functions included.
// It finds them by reflection, over whatever the parser built, rather than
// by a type switch for each kind of statement and expression: the walk
// runs once per script compiled, and the switch cost the module 3 KB.
func padForLists(chunk []ast.Stmt) { padAll(reflect.ValueOf(chunk)) }

var genericFor = reflect.TypeFor[*ast.GenericForStmt]()

func padAll(v reflect.Value) {
	switch v.Kind() {
	case reflect.Interface:
		padAll(v.Elem())
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type() == genericFor {
			padForList(v.Interface().(*ast.GenericForStmt))
		}
		padAll(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			padAll(v.Field(i))
		}
	case reflect.Slice:
		for i := range v.Len() {
			padAll(v.Index(i))
		}
	}
}

// padForList gives one loop's list its nils.
func padForList(s *ast.GenericForStmt) {
	n := len(s.Exprs)
	if n == 0 || n >= 3 {
		return
	}
	switch s.Exprs[n-1].(type) {
	case *ast.FuncCallExpr, *ast.Comma3Expr:
		return // adjusted to three by the call or the varargs
	}
	for ; n < 3; n++ {
		nilExpr := &ast.NilExpr{}
		nilExpr.SetLine(s.Line())
		nilExpr.SetLastLine(s.Line())
		s.Exprs = append(s.Exprs, nilExpr)
	}
}
