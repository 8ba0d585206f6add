package api

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/resp"
)

// The fuzz targets of package api's hand-written codecs: the bridge's
// JSON reader (decodeJSON, readRequest and the requestReader that reuses
// the last call's values) and its JSON writer (appendJSON, replyJSON,
// outcome.appendTo). Their seed corpora are in testdata/fuzz; every
// crasher a run finds is committed there too. `./build.sh test` runs each
// for a few seconds, `./build.sh fuzz` for longer.

// FuzzDecodeJSON holds decodeJSON to encoding/json: the same texts
// accepted, with the same values; and a request's reading of the text
// (which refuses text that is not valid, see unquote) to the same value
// wherever it accepts it.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{
		`["enqueue",["q","JOB-1","{\"to\":\"a@b\"}"]]`, `[1.5,-0,0,-12e3,1E-7,1e400]`, `{"a":[1,"x"],"a":{}}`,
		`"\ud83d\ude00 \ud83d \ude00 \u00e9"`, "\"bad \xff byte\"", `[01]`, `"\u12"`, `[1,]`, ` [ ] `, `nul`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		var want any
		wantErr := json.Unmarshal(text, &want)
		got, err := decodeJSON(text)
		if err != nil && strings.Contains(err.Error(), "nested more than") {
			return // encoding/json's bound is 10,000 levels, ours maxJSONDepth
		}
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%q: error %v, encoding/json's %v", text, err, wantErr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: read %#v, encoding/json reads %#v", text, got, want)
		}
		d := jsonDecoder{b: text, request: true}
		strict, err := d.whole()
		var te *textError
		switch {
		case errors.As(err, &te):
			// Refused either way when the text is not JSON either: which
			// fault is named first is the reader's order.
			if wantErr == nil && !invalidText(text) {
				t.Fatalf("%q: a request's reading refused its text (%v), with nothing invalid in it", text, err)
			}
		case (err != nil) != (wantErr != nil):
			t.Fatalf("%q: a request's reading: error %v, encoding/json's %v", text, err, wantErr)
		case err == nil && !reflect.DeepEqual(strict, want):
			t.Fatalf("%q: a request's reading %#v, encoding/json reads %#v", text, strict, want)
		}
	})
}

// invalidText reports whether text has, inside a string, what a request
// refuses: a byte that is not UTF-8, an escaped lone surrogate, or a
// string past MaxStringBytes. It reads as plainly as it can: a scan of
// the strings, not a decoder.
func invalidText(text []byte) bool {
	for i := 0; i < len(text); i++ {
		if text[i] != '"' {
			continue
		}
		var units []uint16
		var raw bytes.Buffer
		for i++; i < len(text) && text[i] != '"'; i++ {
			if text[i] == '\\' && i+5 < len(text) && text[i+1] == 'u' {
				var u uint16
				if _, err := fmt.Sscanf(string(text[i+2:i+6]), "%04x", &u); err == nil {
					units = append(units, u)
					raw.WriteString("x")
					i += 5
					continue
				}
			}
			if text[i] == '\\' {
				i++
			}
			units = append(units, 'x')
			raw.WriteByte(text[i])
		}
		for j := 0; j < len(units); j++ {
			switch u := units[j]; {
			case u >= 0xd800 && u < 0xdc00 && j+1 < len(units) && units[j+1] >= 0xdc00 && units[j+1] < 0xe000:
				j++
			case u >= 0xd800 && u < 0xe000:
				return true
			}
		}
		if !utf8.Valid(raw.Bytes()) || raw.Len() > MaxStringBytes {
			return true
		}
	}
	return false
}

// FuzzRequestReader holds the module's request reader, which reuses what
// the last request left (its args and, per method and position, the last
// string or number), to readRequest, which reads each text afresh: the
// same method, arguments and error, request after request. The input is
// a sequence of requests, one a line.
func FuzzRequestReader(f *testing.F) {
	for _, s := range []string{
		"[\"enqueue\",[\"q\",\"JOB-1\",\"{}\"]]\n[\"enqueue\",[\"q\",\"JOB-1\",\"{}\"]]\n[\"enqueue\",[\"q\",\"JOB-\\u00e9\",\"x\"]]",
		"[\"claim\",[\"q\",30000]]\n[\"claim\",[\"q\",-0]]\n[\"claim\",[\"q\",0]]\n[\"claim\",[\"q\",\"30000\"]]",
		"[\"exec\",[[\"SET\",\"k\",\"v\"],\"w\"]]\n[\"call\",[\"e\",\"claim\",[\"q\",1]]]\n[\"now\",[],\"thrown\"]",
		"[\"enqueue\",[\"q\",\"JOB-\\ud800\",\"{}\"]]\n[\"enqueue\",[\"q\",\"JOB-\\udfff\",\"{}\"]]",
		"[\"changed\",[{\"o\":{\"\\ud800\":\"0-0\"}}]]\n[\"claim\",[\"q\",{\"n\":\"NaN\"}]]\n[\"now\",[1 2]]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		var r requestReader
		for _, req := range bytes.Split(text, []byte("\n")) {
			method, args, err := r.read(req)
			wantMethod, wantArgs, wantErr := readRequest(req)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) || method != wantMethod || !sameArgs(args, wantArgs) {
				t.Fatalf("%q:\n got %q %#v %v\nwant %q %#v %v", req, method, args, err, wantMethod, wantArgs, wantErr)
			}
			r.done()
		}
	})
}

// values builds JSON-like values, as Call returns them, from a fuzzer's
// bytes: each byte picks a kind, and the bytes after it its content.
type values struct{ b []byte }

func (v *values) byte() byte {
	if len(v.b) == 0 {
		return 0
	}
	c := v.b[0]
	v.b = v.b[1:]
	return c
}

func (v *values) str() string {
	n := min(int(v.byte()%16), len(v.b))
	s := string(v.b[:n])
	v.b = v.b[n:]
	return s
}

func (v *values) number() float64 {
	if len(v.b) < 8 {
		return float64(v.byte()) - 100
	}
	f := math.Float64frombits(binary.LittleEndian.Uint64(v.b))
	v.b = v.b[8:]
	return f
}

func (v *values) value(depth int) any {
	kind := v.byte()
	if depth > 6 {
		kind %= 7
	}
	switch kind % 12 {
	case 0:
		return nil
	case 1:
		return v.byte()%2 == 1
	case 2:
		return v.str()
	case 3, 4:
		return v.number()
	case 5:
		return int(int8(v.byte())) * 1000003
	case 6:
		return int64(v.number())
	case 7:
		o := Object{}
		for n := v.byte() % 4; n > 0; n-- {
			o[v.str()] = v.value(depth + 1)
		}
		return o
	case 8:
		var list []any
		for n := v.byte() % 4; n > 0; n-- {
			list = append(list, v.value(depth+1))
		}
		return list
	case 9:
		var list []string
		for n := v.byte() % 4; n > 0; n-- {
			list = append(list, v.str())
		}
		return list
	case 10:
		list := []Object{}
		for n := v.byte() % 3; n > 0; n-- {
			list = append(list, Object{v.str(): v.value(depth + 1)})
		}
		return list
	}
	r := v.reply(depth)
	w, err := replyJSON(r)
	if err != nil {
		return nil
	}
	return w
}

// reply builds a Redis reply of any kind, as deep as the bytes say.
func (v *values) reply(depth int) resp.Reply {
	kinds := []resp.Kind{resp.Status, resp.Error, resp.Int, resp.Bulk, resp.Nil, resp.Double, resp.Bool, resp.BigNumber, resp.Verbatim, resp.Array, resp.Set, resp.Map}
	kind := kinds[int(v.byte())%len(kinds)]
	r := resp.Reply{Kind: kind}
	switch kind {
	case resp.Int:
		r.Int = int64(v.number())
	case resp.Bool:
		r.Int = int64(v.byte() % 2)
	case resp.Array, resp.Set, resp.Map:
		n := int(v.byte() % 4)
		if c := v.byte(); c >= 250 && depth < 1000 {
			n = 1 // a chain, to reach MaxReplyDepth
		}
		for ; n > 0 && len(v.b) > 0; n-- {
			r.Elems = append(r.Elems, v.reply(depth+1))
		}
	case resp.Verbatim:
		r.Format, r.Str = v.str(), v.str()
	default:
		r.Str = v.str()
	}
	return r
}

// FuzzJSONWriter holds appendJSON to encoding/json: for any value Call
// returns, the same text byte for byte (or an error where encoding/json
// has one), and a text encoding/json parses back to the value
// encoding/json's own text gives.
func FuzzJSONWriter(f *testing.F) {
	for _, s := range []string{"\x07\x03\x01a\x02\x02hi", "\x08\x03\x03\x00\x00\x00\x00\x00\x00\xf0\x7f\x02\x00\x01\x01", "\x02\x05<&>\xff\xe2", "\x0b\x09\x03\x03\x01\xff\x03\x00\x01a"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v := (&values{b: data}).value(0)
		got, err := MarshalJSON(v)
		want, wantErr := json.Marshal(v)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%#v: error %v, encoding/json's %v", v, err, wantErr)
		}
		if err != nil {
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%#v:\n wrote %s\nencoding/json %s", v, got, want)
		}
		var back, wantBack any
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%s does not parse: %v", got, err)
		}
		json.Unmarshal(want, &wantBack)
		if !reflect.DeepEqual(back, wantBack) {
			t.Fatalf("%s parses to %#v, want %#v", got, back, wantBack)
		}
	})
}

// FuzzReplyJSON holds the writers of replies and outcomes, which write
// their JSON straight as text, to the plain path of Options.Reference
// (plainReply, plainOutcome, written by encoding/json): the same bytes,
// or the same tooDeep error, for any reply, nested as deep as it likes.
func FuzzReplyJSON(f *testing.F) {
	for _, s := range []string{"\x09\x03\x03\x02a\x02\x03\xff\xfe\x00", "\x0b\x03\x00\x03\x01k\x02\x02\x01v", "\x08\x03txt\x02\xc3\xa9", "\x09\x01\xff\x09\x01\xff\x09\x01\xff\x04"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v := &values{b: data}
		r := v.reply(0)
		got, err := replyJSON(r)
		plain, plainErr := plainReply(&r, 0)
		if !errors.Is(err, plainErr) && fmt.Sprint(err) != fmt.Sprint(plainErr) {
			t.Fatalf("%+v: error %v, the plain path's %v", r, err, plainErr)
		}
		if err != nil {
			return
		}
		want, _ := json.Marshal(plain)
		if !bytes.Equal(got, want) || !json.Valid(got) {
			t.Fatalf("%+v:\n wrote %s\n plain %s", r, got, want)
		}
		// Under a cap the text passes, the reply is refused with the
		// length of the text it would have been.
		if len(want) > 1 {
			defer func(was int) { resultCap = was }(resultCap)
			resultCap = int(v.byte()) % len(want)
			_, err := replyJSON(r)
			if err != tooLong(len(want)) {
				t.Fatalf("%+v under a cap of %d: error %v, want %v", r, resultCap, err, tooLong(len(want)))
			}
			resultCap = MaxResultBytes
		}
		o := emq.Outcome{Verdict: emq.Verdict(v.str()), Wire: []emq.Exchange{{Command: v.str(), SHA: v.str(), Reply: r}}}
		if v.byte()%2 == 1 {
			o.Job = &emq.Job{ID: v.str(), Payload: v.str(), Attempts: int64(v.number())}
		}
		got, err = appendJSON(nil, outcomeJSON(o))
		want, wantErr := json.Marshal(plainOutcome(o))
		if err != nil || wantErr != nil || !bytes.Equal(got, want) {
			t.Fatalf("%+v:\n wrote %s (%v)\n plain %s (%v)", o, got, err, want, wantErr)
		}
	})
}
