package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/conc"
)

func TestHTTPErrorsAreJSON(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{MaxBody: 1024}, nil))
	c.fails("GET", "/api/nope", nil, http.StatusNotFound, "/api/nope")
	c.fails("DELETE", "/api/game", nil, http.StatusMethodNotAllowed, "GET")
	c.fails("GET", "/api/game/move", nil, http.StatusMethodNotAllowed, "POST")
	c.fails("POST", "/api/game/move", `{"move": "e4"`, http.StatusBadRequest, "malformed JSON")
	c.fails("POST", "/api/game/move", `{"move": "e4", "colour": "white"}`, http.StatusBadRequest, "colour")
	c.fails("POST", "/api/game/move", `["e4"]`, http.StatusBadRequest, "object")
	c.fails("POST", "/api/game/move", `{"move": "e4"} {"move": "d4"}`, http.StatusBadRequest, "more than one")
	c.fails("POST", "/api/pgn", `{"pgn": "`+strings.Repeat("1. e4 e5 ", 200)+`"}`, http.StatusRequestEntityTooLarge, "1024 bytes")

	req, _ := http.NewRequest("POST", c.base+"/api/game/move", strings.NewReader("move=e4"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("a form post: status %d, want 415", resp.StatusCode)
	}
}

func TestPageIsServed(t *testing.T) {
	c := newClient(t, newTestServer(t, Options{}, nil))
	for _, path := range []string{"/", "/js/app.js", "/js/board.js", "/style.css", "/favicon.svg"} {
		resp, err := c.hc.Get(c.base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || len(b) == 0 {
			t.Errorf("%s: status %d, %d bytes", path, resp.StatusCode, len(b))
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
	}
	status, _ := c.do("POST", "/", "{}")
	if status != http.StatusMethodNotAllowed {
		t.Errorf("POST /: status %d", status)
	}
}

func TestHostAndOriginChecks(t *testing.T) {
	ts := newTestServer(t, Options{}, nil)
	c := newClient(t, ts)
	// A page on another site that resolves its own name to 127.0.0.1 (DNS
	// rebinding) sends its own Host.
	req, _ := http.NewRequest("GET", ts.URL+"/api/game", nil)
	req.Host = "evil.example:8080"
	resp, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Host: status %d, want 403", resp.StatusCode)
	}
	req, _ = http.NewRequest("POST", ts.URL+"/api/game/move", strings.NewReader(`{"move":"e4"}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://evil.example")
	resp, err = c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Origin: status %d, want 403", resp.StatusCode)
	}
	req.Header.Set("Origin", ts.URL)
	req.Body = io.NopCloser(strings.NewReader(`{"move":"e4"}`))
	resp, err = c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("own Origin: status %d, want 200", resp.StatusCode)
	}
	for host, want := range map[string]bool{"localhost:80": true, "127.0.0.1": true, "[::1]:8080": true, "127.9.9.9:1": true, "example.com": false, "10.0.0.1:80": false, "": false} {
		if got := loopbackHost(host); got != want {
			t.Errorf("loopbackHost(%q) = %v", host, got)
		}
	}
}

func TestToken(t *testing.T) {
	ts := newTestServer(t, Options{Token: "s3cret"}, nil)
	c := newClient(t, ts)
	c.fails("GET", "/api/game", nil, http.StatusUnauthorized, "token")
	status, body := c.do("GET", "/", nil)
	if status != http.StatusUnauthorized || !strings.Contains(string(body), "token") {
		t.Errorf("page without token: %d %s", status, body)
	}
	// The header works for scripts...
	req, _ := http.NewRequest("GET", ts.URL+"/api/game", nil)
	req.Header.Set("Authorization", "Bearer s3cret")
	resp, err := c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("bearer token: status %d", resp.StatusCode)
	}
	req.Header.Set("Authorization", "Bearer s3cre")
	resp, err = c.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong token: status %d", resp.StatusCode)
	}
	// ...and the page's address with ?token= sets a cookie and drops the
	// token from the address bar.
	resp, err = c.hc.Get(ts.URL + "/?token=s3cret")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Request.URL.RawQuery != "" {
		t.Errorf("?token=: status %d, landed on %s", resp.StatusCode, resp.Request.URL)
	}
	c.call("GET", "/api/game", nil, http.StatusOK, nil)
}

func TestSessionsAreSeparateAndBounded(t *testing.T) {
	ts := newTestServer(t, Options{MaxSessions: 2}, nil)
	a, b := newClient(t, ts), newClient(t, ts)
	var g gameJSON
	a.call("POST", "/api/game/move", map[string]any{"move": "e4"}, http.StatusOK, &g)
	b.call("GET", "/api/game", nil, http.StatusOK, &g)
	if g.Ply != 0 {
		t.Fatalf("b sees a's game: ply %d", g.Ply)
	}
	a.call("GET", "/api/game", nil, http.StatusOK, &g)
	if g.Ply != 1 {
		t.Fatalf("a lost its game: ply %d", g.Ply)
	}
	// A third visitor pushes out the one idle longest: b.
	time.Sleep(5 * time.Millisecond)
	a.call("GET", "/api/game", nil, http.StatusOK, nil)
	newClient(t, ts).call("GET", "/api/game", nil, http.StatusOK, nil)
	a.call("GET", "/api/game", nil, http.StatusOK, &g)
	if g.Ply != 1 {
		t.Errorf("a was forgotten instead of b")
	}
}

func TestSessionExpiry(t *testing.T) {
	now := time.Unix(1e9, 0)
	st := newSessionStore(10, time.Hour, func() time.Time { return now })
	get := func(cookie string) (*session, string) {
		w := httptest.NewRecorder()
		r := httptest.NewRequest("GET", "/api/game", nil)
		if cookie != "" {
			r.AddCookie(&http.Cookie{Name: sessionCookie, Value: cookie})
		}
		se := st.get(w, r)
		for _, c := range w.Result().Cookies() {
			if c.Name == sessionCookie {
				cookie = c.Value
			}
		}
		return se, cookie
	}
	s1, id := get("")
	now = now.Add(59 * time.Minute)
	if s2, _ := get(id); s2 != s1 {
		t.Fatal("session lost within its lifetime")
	}
	now = now.Add(61 * time.Minute)
	if s3, id3 := get(id); s3 == s1 || id3 == id {
		t.Fatal("expired session kept")
	}
	if n := st.count(); n != 1 {
		t.Errorf("%d sessions, want 1 (the expired one pruned)", n)
	}
	if _, id4 := get("forged"); id4 == "forged" {
		t.Error("a forged session id was adopted")
	}
}

func TestListenAndServe(t *testing.T) {
	fl := &fakeLoader{}
	s, err := New(Options{Load: fl.load})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = s.ListenAndServe(context.Background(), "0.0.0.0:0", false, &out)
	if err == nil || !strings.Contains(err.Error(), "--token") {
		t.Fatalf("a public address without a token: %v", err)
	}
	if _, err := IsLoopback("8080"); err == nil {
		t.Error("an address without a port was accepted")
	}
	for addr, want := range map[string]bool{"127.0.0.1:80": true, "localhost:1": true, "[::1]:9": true, ":8080": false, "0.0.0.0:80": false, "example.com:80": false} {
		if got, _ := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v", addr, got)
		}
	}

	s, err = New(Options{Load: fl.load})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	errc := make(chan error, 1)
	var wg conc.WaitGroup
	defer wg.Wait()
	wg.Go(func() { errc <- s.ListenAndServe(ctx, "127.0.0.1:0", false, pw); pw.Close() })
	line, err := readLine(pr)
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSpace(strings.TrimPrefix(line, "AliceZero is serving on "))
	wg.Go(func() { _, _ = io.Copy(io.Discard, pr) })
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	resp, err := hc.Get(url + "api/game")
	if err != nil {
		t.Fatal(err)
	}
	var g gameJSON
	err = json.NewDecoder(resp.Body).Decode(&g)
	resp.Body.Close()
	if err != nil || len(g.Legal) != 20 {
		t.Fatalf("GET /api/game: %v, %d moves", err, len(g.Legal))
	}
	cancel()
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("ListenAndServe: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ListenAndServe did not return after its context ended")
	}
}

// readLine reads one line from r.
func readLine(r io.Reader) (string, error) {
	var sb strings.Builder
	b := make([]byte, 1)
	for {
		if _, err := r.Read(b); err != nil {
			return sb.String(), fmt.Errorf("after %q: %w", sb.String(), err)
		}
		if b[0] == '\n' {
			return sb.String(), nil
		}
		sb.WriteByte(b[0])
	}
}
