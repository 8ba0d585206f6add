package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"echomq.dev/playground/web/server"
)

// The phone-like profile (issue 24): the CPU throttled 4×, one link of
// 1.6 Mbit/s down with 150 ms latency, the site's .br files served. The
// full page is loaded in it beside its own floors, in the same profile and
// in turns: a page whose one module enables a button (the floor under the
// stepper), and a page that only downloads the engine (the floor under
// Ready, which is bound by bytes on such a link).

const (
	phoneRate = 1.6e6 / 8 // bytes per second
	phoneRTT  = 150 * time.Millisecond
	phoneCPU  = 4
)

// phoneLoads are the full page's and its floors' times on the profile.
type phoneLoads struct {
	step, ready       []float64 // the full page: navigation → the stepper can step, → Ready
	module, download  []float64 // floor (a) and the engine's download alone
	loadStart, loadAt string
	note              string
}

// measurePhone loads the full page and its two floors, loads times each,
// in turns, every load a fresh browser with a fresh profile.
func measurePhone(cfg config, bin string, loads int, logf func(string, ...any)) phoneLoads {
	return measurePhoneSites(cfg, []string{cfg.static}, bin, loads, logf)[0]
}

// measurePhoneSites is measurePhone for several built sites (say, two
// ways of starting the engine), the full page of each loaded in turn with
// the others and with the floors, which are measured once and shared.
func measurePhoneSites(cfg config, sites []string, bin string, loads int, logf func(string, ...any)) []phoneLoads {
	all := make([]phoneLoads, len(sites))
	all[0] = measurePhoneTurns(cfg, sites, bin, loads, logf, all)
	return all
}

func measurePhoneTurns(cfg config, sites []string, bin string, loads int, logf func(string, ...any), all []phoneLoads) phoneLoads {
	ph := phoneLoads{loadStart: loadAverage()}
	dir, err := os.MkdirTemp("", "echomq-phone-")
	if err != nil {
		ph.note = "not measured: " + err.Error()
		return ph
	}
	defer os.RemoveAll(dir)
	if err := writeFloorSite(cfg, dir, logf); err != nil {
		ph.note = "not measured: " + err.Error()
		return ph
	}
	floorSite, err := server.New(dir, server.Options{CSP: true})
	if err != nil {
		ph.note = "not measured: " + err.Error()
		return ph
	}
	defer floorSite.Close()
	link := &slowLink{rate: phoneRate, rtt: phoneRTT}
	mux := http.NewServeMux()
	mux.Handle("/floor/", http.StripPrefix("/floor", floorSite))
	for j, dir := range sites {
		site, err := server.New(dir, server.Options{CSP: true})
		if err != nil {
			ph.note = "not measured: " + err.Error()
			return ph
		}
		defer site.Close()
		prefix := fmt.Sprintf("/site%d", j)
		mux.Handle(prefix+"/", http.StripPrefix(prefix, site))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		ph.note = "not measured: " + err.Error()
		return ph
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(link.writer(w), r)
	}), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()

	throttled := func(f func(ctx context.Context) error) error {
		return startBrowser(bin, 4*pageLoadTimeout, courseProbe, func(ctx context.Context, _ string) error {
			if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: phoneCPU}); err != nil {
				return fmt.Errorf("throttle the CPU: %w", err)
			}
			return f(ctx)
		}, chromedp.WindowSize(1280, 4000))
	}
	floor := func(page string) (float64, error) {
		var done float64
		err := throttled(func(ctx context.Context) error {
			if err := chromedp.Do(ctx, chromedp.Navigate(base+"/floor/floor-"+page+".html")); err != nil {
				return err
			}
			got, err := pollFloor(ctx)
			done = got["done"]
			return err
		})
		return done, err
	}
	var failures []string
	for i := range loads {
		if t, err := floor("a"); err == nil {
			ph.module = append(ph.module, t)
		} else {
			failures = append(failures, "floor (a): "+err.Error())
		}
		for j := range sites {
			err := throttled(func(ctx context.Context) error {
				got, err := visit(ctx, fmt.Sprintf("%s/site%d/", base, j))
				if err != nil {
					return err
				}
				if j == 0 {
					ph.step, ph.ready = append(ph.step, got.Step), append(ph.ready, got.Ready)
				} else {
					all[j].step, all[j].ready = append(all[j].step, got.Step), append(all[j].ready, got.Ready)
				}
				if len(sites) > 1 {
					logf("phone %d, %s: step %.0f ms, Ready %.0f ms", i+1, sites[j], got.Step, got.Ready)
				}
				return nil
			})
			if err != nil {
				failures = append(failures, "the full page: "+err.Error())
			}
		}
		if t, err := floor("n"); err == nil {
			ph.download = append(ph.download, t)
		} else {
			failures = append(failures, "the download: "+err.Error())
		}
		last := func(v []float64) float64 {
			if len(v) == 0 {
				return 0
			}
			return v[len(v)-1]
		}
		logf("phone %d: one-module page %.0f ms; full page step %.0f ms, Ready %.0f ms; the engine's download alone %.0f ms",
			i+1, last(ph.module), last(ph.step), last(ph.ready), last(ph.download))
	}
	ph.loadAt = loadAverage()
	if len(failures) > 0 {
		ph.note = fmt.Sprintf("%d loads failed and are left out; the first error: %s", len(failures), firstLine(failures[0]))
	}
	for j := 1; j < len(all); j++ {
		all[j].module, all[j].download, all[j].loadStart, all[j].loadAt = ph.module, ph.download, ph.loadStart, ph.loadAt
	}
	return ph
}

func (ph phoneLoads) write(p printer) {
	if len(ph.ready) == 0 {
		if ph.note != "" {
			p("Phone-like profile: %s\n\n", ph.note)
		}
		return
	}
	p("### The phone-like profile\n\n")
	p("CPU throttled %d× (`Emulation.setCPUThrottlingRate`), every response over one %.1f Mbit/s link with %s latency (shared by all responses, as `bench/pageload.go`'s slowLink does), `web/server` sending the `.br` files; a fresh browser per load; the floors in the same profile, in turns with the full page; load average %s at the start, %s at the end.\n\n", phoneCPU, phoneRate*8/1e6, phoneRTT, ph.loadStart, ph.loadAt)
	p("| page | median | p90 | loads |\n|---|---:|---:|---:|\n")
	for _, r := range []struct {
		what string
		v    []float64
	}{
		{"floor (a): one module enables a button", ph.module},
		{"floor: the engine's own download (`echomq.wasm`, brotli) and nothing else", ph.download},
		{"the full page: navigation → the stepper can step", ph.step},
		{"the full page: navigation → Ready", ph.ready},
	} {
		s := summarize(r.v)
		p("| %s | %s | %s | %d |\n", r.what, ms(s.median), ms(s.p90), s.n)
	}
	p("\n")
	if ph.note != "" {
		p("%s\n\n", ph.note)
	}
}

// measurePhoneOnly takes only the phone-like profile's figures and prints them.
func measurePhoneOnly(cfg config, sites []string, loads int, stdout, stderr io.Writer) error {
	bin, err := needChromium()
	if err != nil {
		return err
	}
	all := measurePhoneSites(cfg, sites, bin, loads, stepLogger(stderr))
	var b strings.Builder
	pr := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	for j, ph := range all {
		if len(sites) > 1 {
			pr("## %s\n\n", sites[j])
		}
		ph.write(pr)
		pr("| target | figure | floor | ratio | target | |\n|---|---:|---|---:|---|---|\n")
		ph.targets(pr)
		pr("\n")
	}
	_, err = fmt.Fprint(stdout, b.String())
	return err
}

// targets prints the profile's two rows of the targets table.
func (ph phoneLoads) targets(p printer) {
	if len(ph.ready) == 0 {
		return
	}
	step, module := summarize(ph.step).median, summarize(ph.module).median
	ready, download := summarize(ph.ready).median, summarize(ph.download).median
	p("| phone-like: the stepper can step | %s | %s, floor (a) in the profile | %.2f× | ≤ 2× | %s |\n", ms(step), ms(module), step/module, verdict(step <= 2*module))
	p("| phone-like: Ready | %s | %s, the engine's download alone | %+.0f ms | ≤ +1,500 ms | %s |\n", ms(ready), ms(download), ready-download, verdict(ready-download <= 1500))
}

// verdict words whether a target is met.
func verdict(met bool) string {
	if met {
		return "met"
	}
	return "**not met**"
}
