//go:build js && wasm

// Command stockwasm is the benchmark's reference A inside WebAssembly: the
// protocol scripts run by stock miniredis's own EVAL, through the same
// handles (emq.Jobs, EVALSHA first) the playground uses. It publishes
// globalThis.stockmq with the three calls bench/wasm_bench.mjs makes:
//
//	stockmq.enqueue(queue, id, payload) -> {verdict} | {error, message}
//	stockmq.claim(queue, leaseMs)       -> {verdict, id?} | {error, message}
//	stockmq.exec([cmd, ...args])        -> {type, text}
//	stockmq.noop()                      -> undefined, doing nothing: the
//	                                       cost of a call into Go by itself
//
// It is a measuring device, not a product: it only needs to answer the
// calls the benchmark makes, correctly, and to cost little on the way.
//
// Build: GOOS=js GOARCH=wasm go build -o stock.wasm ./bench/stockwasm
package main

import (
	"errors"
	"strconv"
	"syscall/js"

	"echomq.dev/playground/bench/stock"
	"echomq.dev/playground/wasm/emq"
)

func main() {
	conn, err := stock.New()
	if err != nil {
		panic(err)
	}
	jobs := emq.NewJobs(conn)

	obj := js.Global().Get("Object").New()
	obj.Set("version", "stock miniredis v2.40.0 EVAL")
	obj.Set("enqueue", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 3 {
			return failure(errors.New("enqueue(queue, id, payload)"))
		}
		o, err := jobs.Enqueue(args[0].String(), args[1].String(), args[2].String())
		if err != nil {
			return failure(err)
		}
		return map[string]any{"verdict": string(o.Verdict)}
	}))
	obj.Set("claim", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 {
			return failure(errors.New("claim(queue, leaseMs)"))
		}
		lease := args[1]
		text := lease.String()
		if lease.Type() == js.TypeNumber {
			text = strconv.FormatInt(int64(lease.Float()), 10)
		}
		o, err := jobs.Claim(args[0].String(), text)
		if err != nil {
			return failure(err)
		}
		out := map[string]any{"verdict": string(o.Verdict)}
		if o.Job != nil {
			out["id"] = o.Job.ID
		}
		return out
	}))
	obj.Set("exec", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 1 || args[0].Length() == 0 {
			return failure(errors.New("exec([command, ...args])"))
		}
		cmd := make([]string, args[0].Length())
		for i := range cmd {
			cmd[i] = args[0].Index(i).String()
		}
		r, err := conn.Do(cmd...)
		if err != nil {
			return failure(err)
		}
		return map[string]any{"type": string(r.Kind), "text": r.String()}
	}))
	obj.Set("noop", js.FuncOf(func(js.Value, []js.Value) any { return nil }))
	js.Global().Set("stockmq", obj)
	select {}
}

func failure(err error) map[string]any {
	kind := "error"
	var refusal *emq.Refusal
	if errors.As(err, &refusal) {
		kind = refusal.Kind
	}
	return map[string]any{"error": kind, "message": err.Error()}
}
