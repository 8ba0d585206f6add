package main

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"echomq.dev/playground/internal/sitefile"
	"echomq.dev/playground/web/page"
)

// oEmbed is one widget's oEmbed description (oembed.com, a "rich" type):
// what a platform that embeds by URL puts in its page for the embed's
// address. A platform finds it from the embed page's
// <link rel="alternate" type="application/json+oembed">.
type oEmbed struct {
	Version      string `json:"version"`
	Type         string `json:"type"`
	Title        string `json:"title"`
	ProviderName string `json:"provider_name"`
	ProviderURL  string `json:"provider_url"`
	HTML         string `json:"html"`
	Width        int    `json:"width"`
	Height       int    `json:"height"`
}

// oEmbedHeights are each widget's starting height in px on a laptop's
// width: a platform that speaks lti.frameResize (Canvas, Sakai) then fits
// the frame to what the embed reports.
var oEmbedHeights = map[string]int{
	page.WidgetStepper: 900, page.WidgetBeats: 560, page.WidgetVerdicts: 640, page.WidgetRoundTrip: 1200,
	page.WidgetEditor: 1100, page.WidgetConsole: 760, page.WidgetWorkers: 1100,
}

// validSiteURL reports whether u is an absolute http(s) URL of a
// directory, which the embed pages' addresses are made from.
func validSiteURL(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "https" || p.Scheme == "http") && p.Host != "" && strings.HasSuffix(p.Path, "/") && p.RawQuery == "" && p.Fragment == ""
}

// oEmbedOf describes one widget served from site.
func oEmbedOf(site, widget string) oEmbed {
	title := page.WidgetTitle(widget)
	src := site + "embed/" + widget + ".html"
	return oEmbed{
		Version:      "1.0",
		Type:         "rich",
		Title:        title,
		ProviderName: "EchoMQ Playground",
		ProviderURL:  site,
		HTML: fmt.Sprintf(`<iframe src="%s" title="%s" width="100%%" height="%d" loading="lazy" sandbox="%s" allow="%s" style="border:0"></iframe>`,
			html.EscapeString(src), html.EscapeString(title), oEmbedHeights[widget], page.EmbedSandbox, page.EmbedAllow),
		Width:  720,
		Height: oEmbedHeights[widget],
	}
}

// writeOEmbeds writes embed/<widget>.json for every widget.
func writeOEmbeds(site, out string, stdout io.Writer) error {
	for _, w := range page.WidgetNames {
		b, err := json.MarshalIndent(oEmbedOf(site, w), "", "  ")
		if err != nil {
			return err
		}
		path := filepath.Join(out, "embed", w+".json")
		if err := sitefile.Replace(path, append(b, '\n')); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "wrote", path)
	}
	return nil
}
