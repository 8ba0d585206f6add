package main

import "strings"

// The start-up targets (issue 24), each beside the floor it is set on,
// both from the same run: a team decision that start-up targets are
// ratios to floors measured together, never absolute times, since the
// machine is small and shared and its figures move by a third from run to
// run.

// writeTargets prints the targets table of the page-load section.
func (pl pageLoad) writeTargets(p printer) {
	c, fl := pl.course, pl.floors
	p("### Start-up targets on their floors\n\n")
	p("Each figure beside its floor, both measured in this run (the sections below say how). A floor is what this browser on this machine takes for the part alone.\n\n")
	p("| target | figure | floor | ratio | target | |\n|---|---:|---|---:|---|---|\n")
	if fl != nil && len(fl.step) > 0 && len(fl.done["a"]) > 0 {
		step, module := summarize(fl.step).median, summarize(fl.done["a"]).median
		p("| full page: the stepper can step | %s | %s, floor (a): one module enables a button | %.2f× | ≤ 2× | %s |\n", ms(step), ms(module), step/module, verdict(step <= 2*module))
	}
	pl.phone.targets(p)
	if one, four := summarize(c.oneReady).median, summarize(c.fourReady).median; one > 0 && four > 0 {
		p("| 4 embeds on a course page: all Ready | %s | %s, one embed alone | %.2f× | ≤ 1.3× | %s |\n", ms(four), ms(one), four/one, verdict(four <= 1.3*one))
		if m1, m4 := summarize(c.oneMiB).median, summarize(c.fourMiB).median; m1 > 0 && m4 > 0 {
			per := (m4 - m1) / 3
			p("| 4 embeds: memory per extra embed | %+.1f MiB | %.0f MiB, one embed alone | | ≤ +15 MiB | %s |\n", per, m1, verdict(per <= 15))
		}
	}
	if cc, wc := summarize(pl.warm.coldCompile).median, summarize(pl.warm.warmCompile).median; cc > 0 {
		p("| warm visit: compile | %s | %s, the cold visit's | %.2f× | ≤ 0.6× | %s |\n", ms(wc), ms(cc), wc/cc, verdict(wc <= 0.6*cc))
	}
	if len(c.oneOwn) > 0 {
		n := maxInt(c.oneOwn)
		p("| one embed: its requests until Ready (most of %d loads) | %d | | | ≤ 8 | %s |\n", len(c.oneOwn), n, verdict(n <= 8))
	}
	if t := c.twenty; t != nil {
		p("| 20 embeds, 17 far below the fold: engine downloads | %d | | | 1 | %s |\n", t.wasm, verdict(t.wasm == 1))
		p("| the same: embeds far below not started (no `echomq:boot`) | %d of 17 | | | 17 of 17 | %s |\n", t.Waiting, verdict(t.Waiting == 17))
	}
	p("\n")
	if len(c.onePaths) > 0 {
		p("One embed's requests until Ready, on the last load: `%s`.\n\n", strings.Join(c.onePaths, "`, `"))
	}
	if t := c.twenty; t != nil {
		p("20 embeds: %d frames, %d Ready, %d waiting; the browser's workers: %v.\n\n", t.Frames, t.Ready, t.Waiting, t.workers)
	}
}

func maxInt(v []int) int {
	m := 0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}
