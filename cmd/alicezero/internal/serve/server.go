package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/sourcegraph/conc/pool"
)

// Options configure a Server. Zero fields take the defaults named.
type Options struct {
	// Load builds engines; required.
	Load Loader
	// DefaultWeights is what the weights choice "default" loads: a
	// checkpoint file or run folder, engine.BuiltinWeights, or
	// PlainWeights for the plain search. "" is the plain search too,
	// unless DefaultLabel is set. The plain search is offered beside a
	// default that is a network as "none", the built-in network beside any
	// other as "builtin".
	DefaultWeights string
	// DefaultLabel, if set, is the page's name for the "default" choice,
	// and DefaultWeights "" then goes to the Loader as it is (the Loader's
	// own default engine, which plays no network).
	DefaultLabel string
	// RunsDir is the folder of training runs; "" hides the training view.
	RunsDir string
	// Token, when set, is required with every request (see docs/API.md).
	Token string
	// Searchers is the number of searches run at once (default 1); Queue
	// the number that may wait for one (default 16). More are refused
	// with 503.
	Searchers int
	Queue     int
	// MaxSessions bounds the visitors remembered (default 256); a session
	// is forgotten after SessionTTL without a request (default 2 h).
	MaxSessions int
	SessionTTL  time.Duration
	// MaxVisits and MaxTime bound one search (defaults 100000 and 60 s);
	// DefaultVisits is a search's budget when a request sets none
	// (default 400).
	MaxVisits     int
	MaxTime       time.Duration
	DefaultVisits int
	// MaxIdleEngines bounds the loaded engines kept between searches
	// (default 2).
	MaxIdleEngines int
	// MaxBody bounds a request body (default 2 MiB).
	MaxBody int64
	// MaxStreams bounds the event streams open at once (default 64).
	MaxStreams int
	// Logger receives the server's log: failed searches and requests,
	// panics (nil discards it).
	Logger *slog.Logger
	// Now is the time that times games and sessions (default time.Now);
	// tests set a fake one to move the clocks at will.
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.Searchers, 1)
	def(&o.Queue, 16)
	def(&o.MaxSessions, 256)
	def(&o.MaxVisits, 100000)
	def(&o.DefaultVisits, 400)
	def(&o.MaxIdleEngines, 2)
	def(&o.MaxStreams, 64)
	if o.SessionTTL == 0 {
		o.SessionTTL = 2 * time.Hour
	}
	if o.MaxTime == 0 {
		o.MaxTime = time.Minute
	}
	if o.MaxBody == 0 {
		o.MaxBody = 2 << 20
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

func (o Options) validate() error {
	switch {
	case o.Load == nil:
		return errors.New("serve: no engine loader")
	case o.Searchers < 1 || o.Searchers > 4*runtime.NumCPU()+4:
		return fmt.Errorf("serve: searchers must lie in 1..%d, got %d", 4*runtime.NumCPU()+4, o.Searchers)
	case o.Queue < 1, o.MaxSessions < 1, o.MaxVisits < 1, o.DefaultVisits < 1, o.MaxIdleEngines < 0, o.MaxStreams < 1:
		return fmt.Errorf("serve: queue, sessions, visits and streams must be positive (queue %d, sessions %d, max visits %d, default visits %d, streams %d)",
			o.Queue, o.MaxSessions, o.MaxVisits, o.DefaultVisits, o.MaxStreams)
	case o.SessionTTL < 0 || o.MaxTime < 0 || o.MaxBody < 1:
		return errors.New("serve: session lifetime, search time and body size must be positive")
	}
	return nil
}

// Server is the web frontend: build it with New, serve its Handler (or
// call ListenAndServe), and Close it when done.
type Server struct {
	opts     Options
	log      *slog.Logger
	runs     runsFolder
	sessions *sessionStore
	engines  *enginePool
	queue    chan *search
	streams  chan struct{} // a slot per open event stream
	handler  http.Handler
	// anyHost turns off the Host header check, for a server that listens
	// on an address other machines reach.
	anyHost bool

	ctx     context.Context // ends at Close
	cancel  context.CancelFunc
	workers *pool.Pool
	once    sync.Once
}

// New returns a server whose search workers are running.
func New(opts Options) (*Server, error) {
	opts = opts.withDefaults()
	if err := opts.validate(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		opts:     opts,
		log:      opts.Logger,
		runs:     runsFolder{dir: opts.RunsDir},
		sessions: newSessionStore(opts.MaxSessions, opts.SessionTTL, opts.Now),
		engines:  &enginePool{load: opts.Load, maxIdle: opts.MaxIdleEngines},
		queue:    make(chan *search, opts.Queue),
		streams:  make(chan struct{}, opts.MaxStreams),
		ctx:      ctx,
		cancel:   cancel,
		workers:  pool.New().WithMaxGoroutines(opts.Searchers),
	}
	h, err := s.routes()
	if err != nil {
		cancel()
		return nil, err
	}
	s.handler = h
	for range opts.Searchers {
		s.workers.Go(s.worker)
	}
	return s, nil
}

// Close stops every search, waits for the workers and closes the engines.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		s.cancel()
		s.sessions.closeAll()
		s.workers.Wait()
		err = s.engines.closeAll()
	})
	return err
}

// now is the server's time, the one authority on the games' clocks.
func (s *Server) now() time.Time { return s.opts.Now() }

// Handler returns the server's HTTP handler: the page, its assets and the
// API.
func (s *Server) Handler() http.Handler { return s.handler }

// ListenAndServe serves on addr until ctx ends, then shuts down
// gracefully and closes the server. It refuses an address that other
// machines can reach unless a token is set or insecure is true (then it
// warns loudly on w). It writes the address to open on w.
func (s *Server) ListenAndServe(ctx context.Context, addr string, insecure bool, w io.Writer) error {
	defer s.Close()
	loopback, err := IsLoopback(addr)
	if err != nil {
		return err
	}
	if !loopback && s.opts.Token == "" {
		if !insecure {
			return fmt.Errorf("refusing to listen on %s without --token: anyone who can reach this machine could use the server; "+
				"set --token T (and open the page with ?token=T), bind to 127.0.0.1, or pass --insecure if you really mean it", addr)
		}
		fmt.Fprintf(w, "\n!!! WARNING: serving on %s WITHOUT A TOKEN (--insecure): anyone who can reach this machine can use the server and its CPU. !!!\n\n", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	s.anyHost = !loopback
	hs := s.httpServer()
	url := "http://" + ln.Addr().String() + "/"
	if s.opts.Token != "" {
		url += "?token=" + s.opts.Token
	}
	fmt.Fprintf(w, "AliceZero is serving on %s\n", url)
	done := make(chan struct{})
	p := pool.New().WithErrors()
	p.Go(func() error {
		defer close(done)
		if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	select {
	case <-ctx.Done():
	case <-done:
	}
	s.cancel() // ends the event streams, which Shutdown would wait for
	shutCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	shutErr := hs.Shutdown(shutCtx)
	srvErr := p.Wait()
	return errors.Join(srvErr, shutErr)
}

// httpServer returns the http.Server with the timeouts that keep slow or
// stuck clients from holding connections (event streams extend their own
// write deadline).
func (s *Server) httpServer() *http.Server {
	return &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// IsLoopback reports whether addr (host:port) listens on the loopback
// interface only. An empty host or an unspecified address listens
// everywhere; a host name other than localhost is taken as reachable.
func IsLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("address %q: %w (want host:port, e.g. 127.0.0.1:8080)", addr, err)
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}
