package serve

import (
	_ "embed"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strings"
)

// rulesMarkdown is docs/RULES.md, the project's rule book, which the page
// links to: a copy, since an embedded file must lie in the package's
// folder (TestRulesCopyCurrent keeps it the same; go generate copies it).
//
//go:generate cp ../../../../docs/RULES.md rules.md
//go:embed rules.md
var rulesMarkdown string

// rulesPage is the rule book as a page of its own, in the page's style.
func rulesPage() string {
	body, title := renderMarkdown(rulesMarkdown)
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>` + html.EscapeString(title) + ` — AliceZero</title>
<link rel="icon" href="favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="style.css">
</head>
<body data-view="rules">
<header class="top"><h1>AliceZero</h1><nav id="tabs"><a class="tab" href="./#play">Play</a><a class="tab" href="./#review">Review</a></nav></header>
<main class="rules">
` + body + `</main>
</body>
</html>
`
}

// rulesHandler serves the rule book, body its page.
func rulesHandler(body string) http.Handler {
	return page(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
}

// renderMarkdown writes the Markdown the rule book uses as HTML: headings,
// paragraphs, lists (items continued on indented lines), tables (with \|
// for a bar in a cell), code spans, bold, italics and links. It returns
// the HTML and the first heading's text.
func renderMarkdown(src string) (string, string) {
	var b strings.Builder
	title := ""
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); {
		line := lines[i]
		switch {
		case strings.TrimSpace(line) == "":
			i++
		case headingRE.MatchString(line):
			m := headingRE.FindStringSubmatch(line)
			n := len(m[1])
			if title == "" {
				title = m[2]
			}
			fmt.Fprintf(&b, "<h%d id=%q>%s</h%d>\n", n, slug(m[2]), inline(m[2]), n)
			i++
		case strings.HasPrefix(line, "|") && i+1 < len(lines) && tableRuleRE.MatchString(lines[i+1]):
			i = renderTable(&b, lines, i)
		case listItemRE.MatchString(line):
			i = renderList(&b, lines, i)
		default:
			var para []string
			for ; i < len(lines) && strings.TrimSpace(lines[i]) != "" && !blockStart(lines, i); i++ {
				para = append(para, strings.TrimSpace(lines[i]))
			}
			fmt.Fprintf(&b, "<p>%s</p>\n", inline(strings.Join(para, " ")))
		}
	}
	return b.String(), title
}

var (
	headingRE   = regexp.MustCompile(`^(#{1,6})\s+(.*)$`)
	tableRuleRE = regexp.MustCompile(`^\|[-:| ]+\|\s*$`)
	listItemRE  = regexp.MustCompile(`^(-|\d+\.)\s+`)
)

// blockStart reports whether line i starts a block other than a
// paragraph.
func blockStart(lines []string, i int) bool {
	l := lines[i]
	return headingRE.MatchString(l) || listItemRE.MatchString(l) ||
		strings.HasPrefix(l, "|") && i+1 < len(lines) && tableRuleRE.MatchString(lines[i+1])
}

// renderList writes the list starting at line i, its items' indented
// lines joined to them, and returns the line after it.
func renderList(b *strings.Builder, lines []string, i int) int {
	tag := "ul"
	if !strings.HasPrefix(lines[i], "-") {
		tag = "ol"
	}
	fmt.Fprintf(b, "<%s>\n", tag)
	for i < len(lines) && listItemRE.MatchString(lines[i]) {
		item := []string{listItemRE.ReplaceAllString(lines[i], "")}
		for i++; i < len(lines) && strings.HasPrefix(lines[i], " ") && strings.TrimSpace(lines[i]) != ""; i++ {
			item = append(item, strings.TrimSpace(lines[i]))
		}
		fmt.Fprintf(b, "<li>%s</li>\n", inline(strings.Join(item, " ")))
	}
	fmt.Fprintf(b, "</%s>\n", tag)
	return i
}

// renderTable writes the table starting at line i (its header, the rule,
// its rows) and returns the line after it. A wide table scrolls in its
// box rather than widen the page.
func renderTable(b *strings.Builder, lines []string, i int) int {
	b.WriteString("<div class=\"table-wrap\"><table class=\"table\">\n<thead><tr>")
	for _, c := range tableCells(lines[i]) {
		fmt.Fprintf(b, "<th>%s</th>", inline(c))
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	for i += 2; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
		b.WriteString("<tr>")
		for _, c := range tableCells(lines[i]) {
			fmt.Fprintf(b, "<td>%s</td>", inline(c))
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("</tbody></table></div>\n")
	return i
}

// tableCells splits a table row at its bars, "\|" standing for a bar in a
// cell.
func tableCells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			cell.WriteByte('|')
			i++
		case row[i] == '|':
			cells = append(cells, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(row[i])
		}
	}
	return append(cells, strings.TrimSpace(cell.String()))
}

var (
	linkRE   = regexp.MustCompile(`\[([^\]]+)\]\(([^)\s]+)\)`)
	strongRE = regexp.MustCompile(`\*\*(.+?)\*\*`)
	emRE     = regexp.MustCompile(`\*([^*\s](?:[^*]*[^*\s])?)\*`)
)

// inline writes a line's text as HTML: code spans as they are, and
// outside them bold, italics and links.
func inline(text string) string {
	var b strings.Builder
	for {
		start := strings.IndexByte(text, '`')
		end := -1
		if start >= 0 {
			end = strings.IndexByte(text[start+1:], '`')
		}
		if end < 0 {
			b.WriteString(emphasis(text))
			return b.String()
		}
		b.WriteString(emphasis(text[:start]))
		b.WriteString("<code>" + html.EscapeString(text[start+1:start+1+end]) + "</code>")
		text = text[start+end+2:]
	}
}

// emphasis escapes text and marks its bold, italics and links.
func emphasis(text string) string {
	s := html.EscapeString(text)
	s = linkRE.ReplaceAllString(s, `<a href="$2">$1</a>`)
	s = strongRE.ReplaceAllString(s, "<strong>$1</strong>")
	return emRE.ReplaceAllString(s, "<em>$1</em>")
}

// slug is a heading's anchor, as GitHub makes it: lower case, spaces to
// hyphens, other punctuation dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
