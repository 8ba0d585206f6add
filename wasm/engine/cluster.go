package engine

import (
	"strings"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// The course's keys share one Redis Cluster slot through their {q} hash
// tag, and CLUSTER KEYSLOT is how a learner checks it. A plain Redis
// refuses the command (cluster support is disabled there) and miniredis
// answers 163 for every key; the playground answers as a node of a cluster
// would, so the slot it shows is the one a cluster puts the key in.

// slots is the number of hash slots of a Redis Cluster.
const slots = 16384

// KeySlot is the Redis Cluster hash slot of key: CRC16 of its hash tag, or
// of the whole key when it has none, modulo 16384. The tag is the bytes
// between the first '{' and the first '}' after it, when there is at least
// one byte between them.
func KeySlot(key string) int {
	hashed := key
	if open := strings.IndexByte(key, '{'); open >= 0 {
		if n := strings.IndexByte(key[open+1:], '}'); n > 0 {
			hashed = key[open+1 : open+1+n]
		}
	}
	return int(crc16(hashed) % slots)
}

// crc16 is CRC-16/XMODEM (polynomial 0x1021, initial value 0, no
// reflection), the CRC Redis Cluster hashes keys with, computed from a
// table made once at start-up.
func crc16(s string) uint16 {
	var crc uint16
	for i := 0; i < len(s); i++ {
		crc = crc<<8 ^ crcTable[byte(crc>>8)^s[i]]
	}
	return crc
}

var crcTable = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

// clusterFixup answers CLUSTER KEYSLOT as a cluster node does, and leaves
// the other subcommands to miniredis.
func clusterFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) < 2 || !ascii.EqualFold(args[1], "KEYSLOT") {
		return e.raw(peer, args)
	}
	if len(args) != 3 {
		return resp.ErrorReply("ERR wrong number of arguments for 'cluster|keyslot' command")
	}
	return resp.IntReply(int64(KeySlot(args[2])))
}
