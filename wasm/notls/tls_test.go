package tls

import (
	"errors"
	"testing"
)

// TestRefuses: the stub never pretends to connect.
func TestRefuses(t *testing.T) {
	if l, err := Listen("tcp", "127.0.0.1:0", &Config{}); l != nil || !errors.Is(err, ErrNoTLS) {
		t.Errorf("Listen = %v, %v; want nil, ErrNoTLS", l, err)
	}
	if c, err := Dial("tcp", "127.0.0.1:6379", nil); c != nil || !errors.Is(err, ErrNoTLS) {
		t.Errorf("Dial = %v, %v; want nil, ErrNoTLS", c, err)
	}
}
