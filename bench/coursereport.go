// The course pages' figures, summed over loads and written into the report.

package main

import (
	"fmt"
	"path/filepath"
	"strings"
)

// add appends another run's samples to c.
func (c *courseLoads) add(o courseLoads) {
	c.fullStep = append(c.fullStep, o.fullStep...)
	c.fullReady = append(c.fullReady, o.fullReady...)
	c.repeatReady = append(c.repeatReady, o.repeatReady...)
	c.oneReady = append(c.oneReady, o.oneReady...)
	c.fourReady = append(c.fourReady, o.fourReady...)
	c.fourFetches = append(c.fourFetches, o.fourFetches...)
	c.repeatAsked = append(c.repeatAsked, o.repeatAsked...)
	c.repeatSent = append(c.repeatSent, o.repeatSent...)
	c.codeCache = append(c.codeCache, o.codeCache...)
	c.oneMiB = append(c.oneMiB, o.oneMiB...)
	c.fourMiB = append(c.fourMiB, o.fourMiB...)
	c.oneAsked = append(c.oneAsked, o.oneAsked...)
	c.oneOwn = append(c.oneOwn, o.oneOwn...)
	if len(o.onePaths) > 0 {
		c.onePaths = o.onePaths
	}
	if o.twenty != nil {
		c.twenty = o.twenty
	}
	if o.note != "" {
		c.note = strings.TrimSpace(c.note + " " + o.note)
	}
}

// compare prints each figure's median for every site and its ratio to
// the first site's (c).
func (c courseLoads) compare(others []courseLoads, sites []string, p printer) {
	p("### Compared with %s\n\n| figure |", sites[0])
	for _, dir := range sites {
		p(" %s |", filepath.Base(dir))
	}
	p("\n|---|")
	for range sites {
		p("---:|")
	}
	p("\n")
	figures := []struct {
		what string
		get  func(courseLoads) []float64
	}{
		{"full page: navigation → the stepper can step (ms)", func(c courseLoads) []float64 { return c.fullStep }},
		{"full page: navigation → Ready (ms)", func(c courseLoads) []float64 { return c.fullReady }},
		{"repeat visit: navigation → Ready (ms)", func(c courseLoads) []float64 { return c.repeatReady }},
		{"course page, 1 embed: all Ready (ms)", func(c courseLoads) []float64 { return c.oneReady }},
		{"course page, 4 embeds: all Ready (ms)", func(c courseLoads) []float64 { return c.fourReady }},
		{"course page, 4 embeds: memory (MiB)", func(c courseLoads) []float64 { return c.fourMiB }},
	}
	for _, f := range figures {
		base := summarize(f.get(c)).median
		p("| %s | %.0f |", f.what, base)
		for _, o := range others {
			m := summarize(f.get(o)).median
			if base > 0 {
				p(" %.0f (%.2f×) |", m, m/base)
			} else {
				p(" %.0f |", m)
			}
		}
		p("\n")
	}
	p("\n4 embeds against 1:")
	for _, o := range append([]courseLoads{c}, others...) {
		if one := summarize(o.oneReady).median; one > 0 {
			p(" %.2f×", summarize(o.fourReady).median/one)
		}
	}
	p(".\n")
}

// write prints the course-page figures as rows of the page-load section
// (the targets table, writeTargets, sets them on their floors).
func (c courseLoads) write(p printer) {
	if len(c.fullReady) == 0 && len(c.fourReady) == 0 {
		if c.note != "" {
			p("Course pages: %s\n\n", c.note)
		}
		return
	}
	p("### Course pages and repeat visits\n\n")
	p("The project's own server (`web/server`: brotli, hashed names cached as immutable) on 127.0.0.1, with the strict CSP; each load a fresh browser with a fresh profile and a 1280×4000 window, so every embed of a course page is near the viewport (embeds start only then). ")
	p("A course page is `/course.html` with the README's snippet: iframes of `static/embed/` and `embed.js`. *Ready* is when every embed's status line (or the page's) says Ready; *memory* is the PSS of all the browser's processes, over the same browser on `about:blank`. The slow link is 1.5 Mbit/s shared by every response, each waiting one 150 ms round trip.\n\n")
	p("| figure | median | p90 | loads |\n|---|---:|---:|---:|\n")
	row := func(what string, v []float64, unit func(float64) string) {
		if len(v) == 0 {
			return
		}
		s := summarize(v)
		p("| %s | %s | %s | %d |\n", what, unit(s.median), unit(s.p90), s.n)
	}
	mib := func(v float64) string { return fmt.Sprintf("%.0f MiB", v) }
	row("full page: navigation → the stepper can step", c.fullStep, ms)
	row("full page: navigation → Ready", c.fullReady, ms)
	row("repeat visit (same browser): navigation → Ready", c.repeatReady, ms)
	row("course page, 1 embed: all Ready", c.oneReady, ms)
	row("course page, 4 embeds: all Ready", c.fourReady, ms)
	row("course page, 1 embed: memory", c.oneMiB, mib)
	row("course page, 4 embeds: memory", c.fourMiB, mib)
	row("full page at 1.5 Mbit/s: Ready", c.slowFull, ms)
	row("course page, 3 embeds at 1.5 Mbit/s: all Ready", c.slowThree, ms)
	p("\n")
	one, four := summarize(c.oneReady).median, summarize(c.fourReady).median
	if one > 0 && four > 0 {
		p("4 embeds against 1: %.2f× the time to Ready", four/one)
		if m1, m4 := summarize(c.oneMiB).median, summarize(c.fourMiB).median; m1 > 0 && m4 > 0 {
			p(", %+.0f MiB per extra embed", (m4-m1)/3)
		}
		p(". ")
	}
	if f, t := summarize(c.slowFull).median, summarize(c.slowThree).median; f > 0 && t > 0 {
		p("3 embeds at 1.5 Mbit/s against the full page: %.2f×. ", t/f)
	}
	if len(c.fourFetches) > 0 {
		p("Requests for the Go program per 4-embed load: %v. ", c.fourFetches)
	}
	if len(c.repeatAsked) > 0 {
		p("Requests a repeat visit made to the server, per load: %v, of which answered with a body (not 304): %v. ", c.repeatAsked, c.repeatSent)
	}
	if t := c.twenty; t != nil {
		p("A course page with 20 embeds, 17 of them far below the fold, once the top 3 were Ready: %d engine download(s), %d frames Ready, %d not started (no echomq:boot mark), the browser's workers %v. ", t.wasm, t.Ready, t.Waiting, t.workers)
	}
	if len(c.oneOwn) > 0 {
		p("Requests until the 1-embed course page was Ready, per load: %v, of which the embed's own: %v (on the last load: `%s`). ", c.oneAsked, c.oneOwn, strings.Join(c.onePaths, "`, `"))
	}
	if len(c.codeCache) > 0 {
		p("Chromium's cache of compiled WebAssembly in the profile, bytes on leaving the first visit and after the repeat visit, per load: %v.", c.codeCache)
	}
	p("\n\n")
	if c.note != "" {
		p("%s\n\n", c.note)
	}
}
