// Command compress writes precompressed siblings for a built site: for every
// .wasm, .js, .css and .html file under -dir it writes NAME.gz (gzip, best
// compression) and NAME.br (brotli, quality 11), which the dev server (and
// any server that knows the convention) sends to clients that accept them.
//
//	go run ./web/cmd/compress -dir /abs/static
//
// A sibling that already decodes to exactly its source's bytes is left alone
// (-force rewrites it anyway), so rebuilding an unchanged wasm does not pay
// for brotli's slowest setting again; file times are not trusted for this
// because go build rewrites its output on every run. Either way each sibling
// ends up at least as new as its source, which is how the dev server tells a
// current sibling from one left over from an earlier build. Siblings whose source
// is gone are removed. Output is deterministic: the gzip header carries no
// name and no time.
package main

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"

	"echomq.dev/playground/internal/cmdline"
	"echomq.dev/playground/internal/sitefile"
)

// compressible are the extensions that get siblings.
var compressible = []string{".wasm", ".js", ".css", ".html"}

// encodings are the siblings written for each file, by suffix.
var encodings = []struct {
	suffix string
	encode func(w io.Writer, data []byte) error
	decode func(r io.Reader) (io.Reader, error)
}{
	{".gz", gzipBytes, func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
	{".br", brotliBytes, func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }},
}

func main() {
	cmdline.Main("compress", 2, run)
}

func run(args []string, stdout, stderr io.Writer) error {
	fl := cmdline.Flags("compress", stderr)
	dir := fl.String("dir", "", "site directory to precompress (required)")
	force := fl.Bool("force", false, "compress every file, even when its siblings are up to date")
	if err := cmdline.Parse(fl, args, "dir"); err != nil {
		return err
	}
	if fi, err := os.Stat(*dir); err != nil {
		return err
	} else if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", *dir)
	}

	var sources, orphans []string
	err := filepath.WalkDir(*dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if src, ok := sourceOf(path); ok {
			if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
				orphans = append(orphans, path)
			}
			return nil
		}
		if slices.Contains(compressible, strings.ToLower(filepath.Ext(path))) {
			sources = append(sources, path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, path := range orphans {
		if err := os.Remove(path); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "removed", path)
	}

	// Brotli at quality 11 is slow on a multi-megabyte wasm, so files are
	// compressed in parallel; the largest go first to finish sooner.
	slices.SortFunc(sources, func(a, b string) int { return cmp.Compare(size(b), size(a)) })
	var (
		mu    sync.Mutex
		errs  []error
		wg    sync.WaitGroup
		queue = make(chan string)
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for path := range queue {
				line, err := compressFile(path, *force)
				mu.Lock()
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", path, err))
				} else {
					fmt.Fprintln(stdout, line)
				}
				mu.Unlock()
			}
		}()
	}
	for _, path := range sources {
		queue <- path
	}
	close(queue)
	wg.Wait()
	return errors.Join(errs...)
}

// sourceOf reports whether path is a sibling this program writes, and the
// file it was made from.
func sourceOf(path string) (string, bool) {
	for _, enc := range encodings {
		if src, ok := strings.CutSuffix(path, enc.suffix); ok &&
			slices.Contains(compressible, strings.ToLower(filepath.Ext(src))) {
			return src, true
		}
	}
	return "", false
}

func size(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// compressFile writes the siblings of path that are missing or stale and
// returns a line for the log.
func compressFile(path string, force bool) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	report := make([]string, 0, len(encodings))
	for _, enc := range encodings {
		sibling := path + enc.suffix
		if !force {
			if n, ok := decodesTo(sibling, enc.decode, data); ok {
				// Touch it: a sibling at least as new as its source is how
				// the dev server tells a current sibling from a stale one.
				now := time.Now()
				if err := os.Chtimes(sibling, now, now); err != nil {
					return "", err
				}
				report = append(report, fmt.Sprintf("%s %d (up to date)", enc.suffix, n))
				continue
			}
		}
		var buf bytes.Buffer
		if err := enc.encode(&buf, data); err != nil {
			return "", err
		}
		if err := sitefile.Replace(sibling, buf.Bytes()); err != nil {
			return "", err
		}
		report = append(report, fmt.Sprintf("%s %d", enc.suffix, buf.Len()))
	}
	return fmt.Sprintf("%s: %d bytes; %s", path, len(data), strings.Join(report, ", ")), nil
}

// decodesTo reports whether the file at sibling decodes to exactly want, and
// the sibling's size. Any error (missing, corrupt, truncated) means no.
func decodesTo(sibling string, decode func(io.Reader) (io.Reader, error), want []byte) (int64, bool) {
	f, err := os.Open(sibling)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	r, err := decode(f)
	if err != nil {
		return 0, false
	}
	// Read one byte more than wanted so that a longer sibling does not match.
	got, err := io.ReadAll(io.LimitReader(r, int64(len(want))+1))
	if err != nil || !bytes.Equal(got, want) {
		return 0, false
	}
	return fi.Size(), true
}

func gzipBytes(w io.Writer, data []byte) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(data); err != nil {
		return err
	}
	return zw.Close()
}

func brotliBytes(w io.Writer, data []byte) error {
	bw := brotli.NewWriterOptions(w, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24})
	if _, err := bw.Write(data); err != nil {
		return err
	}
	return bw.Close()
}
