package serve

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"sync"
	"time"

	"github.com/alicezero/alicezero/env"
)

// sessionCookie names the cookie that carries a visitor's session id.
const sessionCookie = "alicezero_session"

// session is one visitor's state: their game and their searches.
type session struct {
	id string

	mu       sync.Mutex // guards everything below
	game     *game
	lastSeen time.Time
	// searches are this visitor's recent searches, oldest first; only the
	// newest may still run.
	searches []*search
}

// maxSearchesKept bounds a session's finished searches kept for their
// event streams.
const maxSearchesKept = 4

// addSearch records sr as the session's newest search, stopping the one
// before it (a visitor has at most one search running) and forgetting
// the oldest.
func (se *session) addSearch(sr *search) {
	se.mu.Lock()
	defer se.mu.Unlock()
	if n := len(se.searches); n > 0 {
		se.searches[n-1].stop(errStopReplaced)
	}
	se.searches = append(se.searches, sr)
	if len(se.searches) > maxSearchesKept {
		se.searches = append(se.searches[:0], se.searches[1:]...)
	}
}

// findSearch returns the session's search with the given id.
func (se *session) findSearch(id string) *search {
	se.mu.Lock()
	defer se.mu.Unlock()
	for _, sr := range se.searches {
		if sr.id == id {
			return sr
		}
	}
	return nil
}

// stopSearches stops every search of the session, which has ended.
func (se *session) stopSearches() {
	se.mu.Lock()
	defer se.mu.Unlock()
	for _, sr := range se.searches {
		sr.stop(errStopSession)
	}
}

// stopSearchesLocked stops every search of the session, whose game has
// changed, with se.mu held.
func (se *session) stopSearchesLocked() {
	for _, sr := range se.searches {
		sr.stop(errStopGame)
	}
}

// sessionStore holds the sessions: at most max of them, each forgotten
// after ttl without a request.
type sessionStore struct {
	max int
	ttl time.Duration
	now func() time.Time

	mu       sync.Mutex
	sessions map[string]*session
}

func newSessionStore(max int, ttl time.Duration, now func() time.Time) *sessionStore {
	return &sessionStore{max: max, ttl: ttl, now: now, sessions: make(map[string]*session)}
}

// get returns the request's session, making a new one (and setting its
// cookie on w) when the request has none or an unknown or expired one.
func (st *sessionStore) get(w http.ResponseWriter, r *http.Request) *session {
	now := st.now()
	st.mu.Lock()
	defer st.mu.Unlock()
	if c, err := r.Cookie(sessionCookie); err == nil {
		if se, ok := st.sessions[c.Value]; ok {
			se.mu.Lock()
			expired := now.Sub(se.lastSeen) > st.ttl
			if !expired {
				se.lastSeen = now
			}
			se.mu.Unlock()
			if !expired {
				return se
			}
		}
	}
	st.pruneLocked(now)
	se := &session{id: newID(), game: newGame(env.NewPosition(env.Alice)), lastSeen: now}
	st.sessions[se.id] = se
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: se.id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	return se
}

// pruneLocked forgets expired sessions and, when the store is full, the
// one idle longest, so that there is room for one more.
func (st *sessionStore) pruneLocked(now time.Time) {
	var oldest *session
	var oldestSeen time.Time
	for id, se := range st.sessions {
		se.mu.Lock()
		seen := se.lastSeen
		se.mu.Unlock()
		if now.Sub(seen) > st.ttl {
			se.stopSearches()
			delete(st.sessions, id)
			continue
		}
		if oldest == nil || seen.Before(oldestSeen) {
			oldest, oldestSeen = se, seen
		}
	}
	if len(st.sessions) >= st.max && oldest != nil {
		oldest.stopSearches()
		delete(st.sessions, oldest.id)
	}
}

// count returns the number of sessions held.
func (st *sessionStore) count() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.sessions)
}

// closeAll stops every session's searches.
func (st *sessionStore) closeAll() {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, se := range st.sessions {
		se.stopSearches()
	}
}

// newID returns a random 128-bit identifier in hex.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (it panics instead)
	return hex.EncodeToString(b[:])
}
