package redisdiff

// The recording: a real server's replies, kept in a package's testdata so
// that its comparisons run where no redis-server can (js/wasm, a machine
// without one). A run against redis-server with -update writes it; every
// other run without a server reads it back.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

var (
	updateFlag = flag.Bool("update", false, "record redis-server's replies into testdata (and rewrite what the suite generates from them)")
	replayFlag = flag.Bool("replay", false, "compare with the recorded replies even where redis-server could run")
)

// Update reports whether the run was asked to record: go test -update.
func Update() bool { return *updateFlag }

// Exchange is one command and the real server's reply, as a recording
// keeps them.
type Exchange struct {
	Conn  string // which connection of the take sent it
	Key   string // the command (see keyOf)
	Reply string // the reply's exact bytes
}

// keyMax is the longest command a recording keeps as it is; a longer one
// (a script's source, a bulk ZADD) is kept as its digest, which is enough
// to tell that a replay sends the command that was recorded.
const keyMax = 160

// Key is how a recording names a command (or whatever else a suite keys
// its replies by: args are joined by NUL).
func Key(args []string) string { return keyOf(args) }

func keyOf(args []string) string {
	joined := strings.Join(args, "\x00")
	if len(joined) > keyMax {
		return Digest(joined)
	}
	return joined
}

// Recording is one file of takes: each take is the exchanges of one test
// (or subtest) with one server, in the order they were made.
type Recording struct {
	path string
	// longest is the longest reply kept whole; a longer one is kept as the
	// digest of its bytes (0: every reply is kept whole), unless it answers
	// one of the commands in whole.
	longest int
	whole   []string

	mu     sync.Mutex
	loaded bool
	takes  map[string][]Exchange
	err    error
	made   map[string][]Exchange // recorded by this run
}

// NewRecording is the recording at path, relative to the package's
// directory (go test runs there). A path ending in .gz is gzip-compressed.
func NewRecording(path string) *Recording {
	return &Recording{path: path, made: map[string][]Exchange{}}
}

// DigestOver has r keep a reply longer than n bytes as its digest only:
// enough to tell a replay's reply from the recorded one, not to show it.
// A suite sets it when only the comparison needs a long reply, and names
// in whole the commands whose replies it reads (DUMP's payload, which a
// RESTORE sends back; COMMAND's table).
func (r *Recording) DigestOver(n int, whole ...string) *Recording {
	r.longest, r.whole = n, whole
	return r
}

// Keep is what r keeps of a reply a suite records by itself (Put).
func (r *Recording) Keep(reply resp.Reply) string { return r.kept(nil, resp.Append(nil, reply)) }

// Matches reports whether reply is the one kept as recorded (by Keep).
func Matches(recorded string, reply resp.Reply) bool {
	if sum, ok := digested([]byte(recorded)); ok {
		return Digest(FromReply(reply, false).Wire()) == sum
	}
	want, err := resp.Parse([]byte(recorded))
	return err == nil && reply.Equal(want)
}

// Recorded is the reply kept as recorded, when it was kept whole.
func Recorded(recorded string) (resp.Reply, bool) {
	r, err := resp.Parse([]byte(recorded))
	return r, err == nil
}

// MaxKept is the longest reply a recording takes. A case whose reply is
// longer makes the suite's process hold many copies of it (parsed, quoted,
// compared, compressed): one 512 MiB string from SETBIT's largest offset
// took a run past 14 GB, where the kernel killed it with no word of which
// case it was. Past this, the run stops and names the command.
const MaxKept = 64 << 20

// kept is what r keeps of the reply wire to args.
func (r *Recording) kept(args []string, wire []byte) string {
	if len(wire) > MaxKept {
		panic(fmt.Sprintf("redisdiff: a reply of %d bytes to %.80q is past MaxKept (%d): make the case smaller", len(wire), args, MaxKept))
	}
	if r.longest == 0 || len(wire) <= r.longest || len(args) > 0 && slices.ContainsFunc(r.whole, func(c string) bool { return strings.EqualFold(c, args[0]) }) {
		return string(wire)
	}
	n, err := ParseNode(wire)
	if err != nil {
		return string(wire)
	}
	return Digest(n.Wire())
}

// Path is where the recording lives.
func (r *Recording) Path() string { return r.path }

// Take returns the exchanges recorded for name.
func (r *Recording) Take(name string) ([]Exchange, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.load(); err != nil {
		return nil, err
	}
	xs, ok := r.takes[name]
	if !ok {
		return nil, fmt.Errorf("%s holds no recording of %q: record it with go test -update against redis-server", r.path, name)
	}
	return xs, nil
}

// Put keeps xs as take name, for Write.
func (r *Recording) Put(name string, xs []Exchange) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.made[name] = append([]Exchange(nil), xs...)
}

// Write saves the file: the takes this run recorded replace theirs, and
// the others stay, so that a run of a few tests records only those.
func (r *Recording) Write() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.made) == 0 {
		return nil
	}
	if err := r.load(); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	all := map[string][]Exchange{}
	for name, xs := range r.takes {
		all[name] = xs
	}
	for name, xs := range r.made {
		all[name] = xs
	}
	names := make([]string, 0, len(all))
	for name := range all {
		names = append(names, name)
	}
	sort.Strings(names)
	var b bytes.Buffer
	for _, name := range names {
		fmt.Fprintf(&b, "# %s\n", name)
		for _, x := range all[name] {
			fmt.Fprintf(&b, "%s %s %s\n", x.Conn, strconv.Quote(x.Key), strconv.Quote(x.Reply))
		}
	}
	data := b.Bytes()
	if strings.HasSuffix(r.path, ".gz") {
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		w.Write(data)
		if err := w.Close(); err != nil {
			return err
		}
		data = z.Bytes()
	}
	if err := os.MkdirAll(filepath.Dir(r.path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(r.path, data, 0o644)
}

// load reads the file once; r.mu is held.
func (r *Recording) load() error {
	if r.loaded {
		return r.err
	}
	r.loaded = true
	r.takes = map[string][]Exchange{}
	f, err := os.Open(r.path)
	if err != nil {
		r.err = fmt.Errorf("%w: record it with go test -update against redis-server", err)
		return r.err
	}
	defer f.Close()
	var src io.Reader = f
	if strings.HasSuffix(r.path, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			r.err = fmt.Errorf("%s: %w", r.path, err)
			return r.err
		}
		src = z
	}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	name, n := "", 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "# "); ok {
			name = rest
			r.takes[name] = []Exchange{}
			continue
		}
		x, err := parseExchange(line)
		if err != nil {
			r.err = fmt.Errorf("%s:%d: %v", r.path, n, err)
			return r.err
		}
		r.takes[name] = append(r.takes[name], x)
	}
	if err := sc.Err(); err != nil {
		r.err = fmt.Errorf("%s: %w", r.path, err)
	}
	return r.err
}

// parseExchange reads `conn "key" "reply"`.
func parseExchange(line string) (Exchange, error) {
	conn, rest, ok := strings.Cut(line, " ")
	if !ok {
		return Exchange{}, errors.New("want: conn \"command\" \"reply\"")
	}
	var fields [2]string
	for i := range fields {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return Exchange{}, err
		}
		if fields[i], err = strconv.Unquote(q); err != nil {
			return Exchange{}, err
		}
		rest = strings.TrimPrefix(rest[len(q):], " ")
	}
	return Exchange{Conn: conn, Key: fields[0], Reply: fields[1]}, nil
}

// Main runs a package's tests (from its TestMain) and, after a run with
// -update, writes the recordings the tests made.
func Main(m *testing.M, recs ...*Recording) {
	flag.Parse()
	code := m.Run()
	if Update() {
		for _, r := range recs {
			if err := r.Write(); err != nil {
				fmt.Fprintf(os.Stderr, "redisdiff: writing %s: %v\n", r.path, err)
				code = 1
			}
		}
	}
	os.Exit(code)
}
