package serve

import (
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/sourcegraph/conc/panics"
)

// tokenCookie carries the access token once a visitor has presented it.
const tokenCookie = "alicezero_token"

// apiHandler answers one API request for the visitor's session; an error
// is answered as JSON with its status.
type apiHandler func(w http.ResponseWriter, r *http.Request, se *session) error

// routes builds the handler: the API under /api/, the page elsewhere,
// all behind the checks of guard.
func (s *Server) routes() (http.Handler, error) {
	mux := http.NewServeMux()
	byPath := map[string]map[string]apiHandler{}
	var paths []string
	add := func(method, path string, h apiHandler) {
		if byPath[path] == nil {
			byPath[path] = map[string]apiHandler{}
			paths = append(paths, path)
		}
		byPath[path][method] = h
	}
	add(http.MethodGet, "/api/info", s.handleServer)
	add(http.MethodGet, "/api/game", s.handleGame)
	add(http.MethodPost, "/api/game/new", s.handleNewGame)
	add(http.MethodPost, "/api/game/move", s.handleMove)
	add(http.MethodPost, "/api/game/undo", s.handleUndo)
	add(http.MethodPost, "/api/game/resign", s.handleResign)
	add(http.MethodPost, "/api/game/draw", s.handleDraw)
	add(http.MethodPost, "/api/game/load", s.handleLoad)
	add(http.MethodGet, "/api/game/pgn", s.handleGamePGN)
	add(http.MethodGet, "/api/game/legal", s.handleGameLegal)
	add(http.MethodPost, "/api/position", s.handlePosition)
	add(http.MethodPost, "/api/pgn", s.handlePGN)
	add(http.MethodPost, "/api/search", s.handleSearch)
	add(http.MethodGet, "/api/search/{id}", s.handleSearchStatus)
	add(http.MethodGet, "/api/search/{id}/events", s.handleSearchEvents)
	add(http.MethodPost, "/api/search/{id}/stop", s.handleSearchStop)
	add(http.MethodGet, "/api/runs", s.handleRuns)
	add(http.MethodGet, "/api/runs/{run}", s.handleRun)
	add(http.MethodGet, "/api/runs/{run}/metrics", s.handleMetrics)
	add(http.MethodGet, "/api/runs/{run}/games", s.handleRunGames)
	add(http.MethodGet, "/api/runs/{run}/games/{file}", s.handleRunGame)
	add(http.MethodGet, "/api/runs/{run}/checkpoints", s.handleCheckpoints)
	for _, path := range paths {
		methods := byPath[path]
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			h, ok := methods[r.Method]
			if !ok && r.Method == http.MethodHead {
				h, ok = methods[http.MethodGet]
			}
			if !ok {
				allowed := make([]string, 0, len(methods))
				for m := range methods {
					allowed = append(allowed, m)
				}
				sort.Strings(allowed)
				w.Header().Set("Allow", strings.Join(allowed, ", "))
				writeError(w, &apiError{status: http.StatusMethodNotAllowed, msg: fmt.Sprintf("%s %s: method not allowed (use %s)", r.Method, path, strings.Join(allowed, ", "))})
				return
			}
			r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBody)
			se := s.sessions.get(w, r)
			if err := h(w, r, se); err != nil {
				writeError(w, s.publicError(r, err))
			}
		})
	}
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, notFound("no API endpoint %s (see docs/API.md)", r.URL.Path))
	})
	files, err := assets()
	if err != nil {
		return nil, err
	}
	mux.Handle("/", files)
	mux.Handle("/rules", rulesHandler(rulesPage()))
	return s.guard(mux), nil
}

// guard wraps h with what every request goes through: panics answered as
// 500, security headers, the host check against DNS rebinding, the token,
// and for requests that change state a same-origin check.
func (s *Server) guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var pc panics.Catcher
		pc.Try(func() { s.guarded(h, w, r) })
		if rec := pc.Recovered(); rec != nil {
			s.log.Error("serve: panic in a request", "method", r.Method, "path", r.URL.Path, "panic", rec.Value, "stack", string(rec.Stack))
			writeError(w, fmt.Errorf("internal error: %v", rec.Value))
		}
	})
}

func (s *Server) guarded(h http.Handler, w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
	if !s.anyHost && !loopbackHost(r.Host) {
		writeError(w, &apiError{status: http.StatusForbidden, msg: fmt.Sprintf("host %q: this server answers to localhost only", r.Host)})
		return
	}
	if s.opts.Token != "" && !s.authorised(w, r) {
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host) {
			writeError(w, &apiError{status: http.StatusForbidden, msg: fmt.Sprintf("origin %q may not change this server's state", o)})
			return
		}
	}
	h.ServeHTTP(w, r)
}

// authorised checks the token, from the request's cookie, an
// "Authorization: Bearer T" header or a "token" query parameter (which
// sets the cookie; a page request is then redirected to the address
// without it). It answers the request itself when it returns false.
func (s *Server) authorised(w http.ResponseWriter, r *http.Request) bool {
	want := []byte(s.opts.Token)
	match := func(got string) bool { return subtle.ConstantTimeCompare([]byte(got), want) == 1 }
	if c, err := r.Cookie(tokenCookie); err == nil && match(c.Value) {
		return true
	}
	if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && match(auth) {
		return true
	}
	if q := r.URL.Query(); q.Has("token") && match(q.Get("token")) {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: s.opts.Token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		if r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/api/") {
			q.Del("token")
			u := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
			http.Redirect(w, r, u.String(), http.StatusSeeOther)
			return false
		}
		return true
	}
	if strings.HasPrefix(r.URL.Path, "/api/") {
		writeError(w, &apiError{status: http.StatusUnauthorized, msg: "missing or wrong token: send 'Authorization: Bearer T' or open the page with ?token=T"})
		return false
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusUnauthorized)
	fmt.Fprintln(w, "This AliceZero server needs its token: open the address that 'alicezero serve' printed, which ends in ?token=...")
	return false
}

// loopbackHost reports whether a Host header names this machine's
// loopback interface.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// sameOrigin reports whether an Origin header names the host the request
// was sent to.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, host)
}
