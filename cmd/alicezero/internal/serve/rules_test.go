package serve

import (
	"net/http"
	"os"
	"strings"
	"testing"
)

// The rule book the page serves is the project's, docs/RULES.md.
func TestRulesCopyCurrent(t *testing.T) {
	want, err := os.ReadFile("../../../../docs/RULES.md")
	if err != nil {
		t.Fatal(err)
	}
	if rulesMarkdown != string(want) {
		t.Fatal("rules.md differs from docs/RULES.md: run go generate ./cmd/alicezero/internal/serve (it copies the rule book)")
	}
}

func TestRenderMarkdown(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"# The rules\n", `<h1 id="the-rules">The rules</h1>` + "\n"},
		{"## The rule set, `alice-ep`\n", `<h2 id="the-rule-set-alice-ep">The rule set, <code>alice-ep</code></h2>` + "\n"},
		{"One **bold** and *one* line\nwrapped, `a|b` & <c>.\n", "<p>One <strong>bold</strong> and <em>one</em> line wrapped, <code>a|b</code> &amp; &lt;c&gt;.</p>\n"},
		{"- **Pawns** move\n  on A.\n- Promotion.\nAfter.\n", "<ul>\n<li><strong>Pawns</strong> move on A.</li>\n<li>Promotion.</li>\n</ul>\n<p>After.</p>\n"},
		{"1. `1. Nf3`: the knight\n   lands.\n2. Mate.\n", "<ol>\n<li><code>1. Nf3</code>: the knight lands.</li>\n<li>Mate.</li>\n</ol>\n"},
		{"| name | FEN |\n|---|---|\n| `x` | `4\\|P3` |\n", "<div class=\"table-wrap\"><table class=\"table\">\n<thead><tr><th>name</th><th>FEN</th></tr></thead>\n<tbody>\n<tr><td><code>x</code></td><td><code>4|P3</code></td></tr>\n</tbody></table></div>\n"},
		{"See [the README](../README.md).\n", `<p>See <a href="../README.md">the README</a>.</p>` + "\n"},
		{"A | in a paragraph and 2 * 3 * 4.\n", "<p>A | in a paragraph and 2 * 3 * 4.</p>\n"},
	} {
		if got, _ := renderMarkdown(tc.in); got != tc.want {
			t.Errorf("renderMarkdown(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// GET /rules is the rule book, whole, as a page.
func TestRulesPage(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	status, body := c.do("GET", "/rules", nil)
	page := string(body)
	if status != http.StatusOK {
		t.Fatalf("GET /rules: %d %s", status, body)
	}
	for _, want := range []string{"<title>The rules of Alice Chess, as AliceZero plays them — AliceZero</title>", `<h2 id="the-boards">The boards</h2>`,
		`<h3 id="alice-3"><code>alice-3</code></h3>`, "<strong>checkmated</strong>", "<td><code>alice-stone</code></td>",
		"<code>4k3/2p5/8/3P|pP2/8/8/8/4K3 w - e6 0 2</code>", `href="style.css"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the rules page lacks %s", want)
		}
	}
	// Every heading and table of the rule book is there, no Markdown left.
	if got, want := strings.Count(page, "<h2 "), strings.Count(rulesMarkdown, "\n## "); got != want {
		t.Errorf("%d sections, the rule book has %d", got, want)
	}
	if got, want := strings.Count(page, "<table"), strings.Count(rulesMarkdown, "\n|---|"); got != want {
		t.Errorf("%d tables, the rule book has %d", got, want)
	}
	for _, left := range []string{"**", "`", "\n## ", "|---|"} {
		if strings.Contains(page, left) {
			t.Errorf("the rules page holds Markdown's %q", left)
		}
	}
}
