// Command listen serves the playground's engine as a Redis server on a
// loopback TCP port, so that anything that speaks RESP can talk to it:
// redis-cli, a client library, and Redis's own test suite, which is how
// internal/suite measures the engine against Redis 7.0.
//
//	go run ./internal/listen                      # 127.0.0.1:6380
//	go run ./internal/listen -addr 127.0.0.1:0    # any free port
//
// It prints "listening on HOST:PORT" once it accepts connections. Each
// connection is a client of one engine (wire.Conn), whose clock follows
// the wall clock. It lives under internal/ because it is a tool for the
// project's tests and its engineers, not part of the site: the browser has
// no sockets, and the WebAssembly module's own listener, for measuring the
// shipped module the same way, is wasm/listen.mjs.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/wire"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:6380", "loopback address to listen on (port 0: any free port)")
	stall := flag.Duration("stall", 0, "say so on stderr when a request has not finished for this long (0: never)")
	flag.Parse()
	l, err := listen(*addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "listen:", err)
		os.Exit(2)
	}
	e, err := engine.New()
	if err != nil {
		fmt.Fprintln(os.Stderr, "listen:", err)
		os.Exit(1)
	}
	fmt.Printf("listening on %s\n", l.Addr())
	go func() {
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
		<-stop
		l.Close()
	}()
	if *stall > 0 {
		go watch(*stall, os.Stderr)
	}
	if err := serve(l, wire.NewServer(e, true)); err != nil {
		fmt.Fprintln(os.Stderr, "listen:", err)
		os.Exit(1)
	}
}

// listen opens a TCP listener on addr, which must be a loopback address:
// the engine has no passwords and no limits a network should meet.
func listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("%s is not a loopback address", addr)
	}
	return net.Listen("tcp", addr)
}

// serve accepts connections until l is closed, each on a goroutine of its
// own. It returns nil once l is closed.
func serve(l net.Listener, s *wire.Server) error {
	for {
		nc, err := l.Accept()
		if errors.Is(err, net.ErrClosed) {
			return nil
		}
		if err != nil {
			return err
		}
		go handle(nc, s.Open())
	}
}

// handle moves bytes between a network connection and a wire.Conn until
// either side closes.
func handle(nc net.Conn, c *wire.Conn) {
	defer nc.Close()
	defer c.Close()
	in := make([]byte, 64<<10)
	var out []byte
	for {
		n, err := nc.Read(in)
		if n > 0 {
			var closing bool
			inFlight.Add(1)
			out, closing = c.Feed(out[:0], in[:n])
			inFlight.Add(-1)
			finished.Add(1)
			if len(out) > 0 {
				if _, werr := nc.Write(out); werr != nil {
					return
				}
			}
			if cap(out) > 1<<20 {
				out = nil
			}
			if closing {
				return
			}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) {
				fmt.Fprintln(os.Stderr, "listen: read:", err)
			}
			return
		}
	}
}

// inFlight counts the requests being run, and finished those run so far:
// while requests are in flight and none finishes, the engine is stuck on
// one (they all take the engine's lock in turn).
var inFlight, finished atomic.Int64

// watch writes "stalled: ..." to w when requests are in flight and none
// has finished for stall: a command the engine never returns from (a
// runaway loop, a reply without end). A client waiting for its reply
// would wait forever; Redis's test suite (internal/suite) reads the line
// to stop the run and count the test in progress as hung, rather than
// wait out its own timeout.
func watch(stall time.Duration, w io.Writer) {
	last, since, said := finished.Load(), time.Now(), false
	for range time.Tick(stall / 10) {
		now := finished.Load()
		if now != last || inFlight.Load() == 0 {
			last, since, said = now, time.Now(), false
			continue
		}
		if !said && time.Since(since) >= stall {
			fmt.Fprintf(w, "stalled: no request finished for %v\n", stall)
			said = true
		}
	}
}
