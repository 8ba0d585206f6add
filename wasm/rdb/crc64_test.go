package rdb

import "testing"

// The check value Redis's own crc64 test prints for "123456789".
func TestCRC64Vector(t *testing.T) {
	if got := CRC64("123456789"); got != 0xe9c6d914c4b8d9ca {
		t.Fatalf("crc64(123456789) = %#x, want 0xe9c6d914c4b8d9ca", got)
	}
}
