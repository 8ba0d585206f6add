// Package tls stands in for the standard library's crypto/tls in the
// browser module, and only there: the build overlay of internal/wasmflags
// puts this file in crypto/tls's place when ./build.sh, the benchmark and
// Redis's suite build the module.
//
// Why: miniredis imports crypto/tls for its TLS listener (StartTLS,
// NewServerTLS) and its test client (DialTLS). The playground never
// listens or dials from a browser tab, yet the import alone linked crypto/tls,
// x509, RSA, ECDSA, ML-KEM and the FIPS self-tests their package
// initializers register: 1.2 MB of the module, 211 KB brotli, about a
// second of a learner's download on a slow link. Go's linker keeps every
// linked package's initializer, so no flag could leave them out.
//
// This package declares exactly what miniredis uses (Config, Conn, Listen,
// Dial). A miniredis release that uses more of crypto/tls fails to build
// the module with the overlay, loudly, in ./build.sh's first steps. Both
// functions refuse, so a call that should never happen in the browser says
// why instead of pretending to connect.
package tls

import (
	"errors"
	"net"
)

// Config is crypto/tls's configuration, with nothing in it: the browser
// module has no certificates to hold.
type Config struct{}

// Conn is a TLS connection; none is ever made.
type Conn struct{ net.Conn }

// ErrNoTLS is what Listen and Dial answer.
var ErrNoTLS = errors.New("tls: the playground's browser module has no TLS (its keyspace is in the tab, with no network)")

// Listen refuses: the browser module listens on no port.
func Listen(network, laddr string, config *Config) (net.Listener, error) {
	return nil, ErrNoTLS
}

// Dial refuses: the browser module dials nothing.
func Dial(network, addr string, config *Config) (*Conn, error) {
	return nil, ErrNoTLS
}
