package engine

import "github.com/yuin/gopher-lua/ast"

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
func padForLists(stmts []ast.Stmt) {
	for _, s := range stmts {
		padStmt(s)
	}
}

func padStmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.GenericForStmt:
		padForList(s)
		padExprs(s.Exprs)
		padForLists(s.Stmts)
	case *ast.AssignStmt:
		padExprs(s.Lhs)
		padExprs(s.Rhs)
	case *ast.LocalAssignStmt:
		padExprs(s.Exprs)
	case *ast.FuncCallStmt:
		padExpr(s.Expr)
	case *ast.DoBlockStmt:
		padForLists(s.Stmts)
	case *ast.WhileStmt:
		padExpr(s.Condition)
		padForLists(s.Stmts)
	case *ast.RepeatStmt:
		padExpr(s.Condition)
		padForLists(s.Stmts)
	case *ast.IfStmt:
		padExpr(s.Condition)
		padForLists(s.Then)
		padForLists(s.Else)
	case *ast.NumberForStmt:
		padExprs([]ast.Expr{s.Init, s.Limit, s.Step})
		padForLists(s.Stmts)
	case *ast.FuncDefStmt:
		padExpr(s.Func)
	case *ast.ReturnStmt:
		padExprs(s.Exprs)
	}
}

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

func padExprs(es []ast.Expr) {
	for _, e := range es {
		padExpr(e)
	}
}

// padExpr finds the functions inside an expression, whose bodies may hold
// loops of their own.
func padExpr(e ast.Expr) {
	switch e := e.(type) {
	case *ast.FunctionExpr:
		padForLists(e.Stmts)
	case *ast.AttrGetExpr:
		padExprs([]ast.Expr{e.Object, e.Key})
	case *ast.TableExpr:
		for _, f := range e.Fields {
			padExprs([]ast.Expr{f.Key, f.Value})
		}
	case *ast.FuncCallExpr:
		padExprs([]ast.Expr{e.Func, e.Receiver})
		padExprs(e.Args)
	case *ast.LogicalOpExpr:
		padExprs([]ast.Expr{e.Lhs, e.Rhs})
	case *ast.RelationalOpExpr:
		padExprs([]ast.Expr{e.Lhs, e.Rhs})
	case *ast.StringConcatOpExpr:
		padExprs([]ast.Expr{e.Lhs, e.Rhs})
	case *ast.ArithmeticOpExpr:
		padExprs([]ast.Expr{e.Lhs, e.Rhs})
	case *ast.UnaryMinusOpExpr:
		padExpr(e.Expr)
	case *ast.UnaryNotOpExpr:
		padExpr(e.Expr)
	case *ast.UnaryLenOpExpr:
		padExpr(e.Expr)
	}
}
