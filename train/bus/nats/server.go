package nats

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// ServerOptions configures StartServer.
type ServerOptions struct {
	// Listen is HOST:PORT for workers (port 0: any free port).
	Listen string
	// StoreDir holds the JetStream data (inside the run folder).
	StoreDir string
	// Token is the secret clients must present; required unless Listen is
	// a loopback address.
	Token string
	// TLSCert and TLSKey, if set, are PEM files: clients then connect with
	// TLS.
	TLSCert, TLSKey string
	// MaxPayload caps a message, headers included (default
	// DefaultMaxShardBytes).
	MaxPayload int
	// Out receives the server's warnings and errors (default: none).
	Out io.Writer
}

// Server is a NATS server with JetStream embedded in the learner.
type Server struct {
	ns  *server.Server
	log *serverLog
}

// StartServer starts an embedded server and waits until it accepts
// connections.
func StartServer(o ServerOptions) (*Server, error) {
	host, portText, err := net.SplitHostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: want HOST:PORT: %w", o.Listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("listen address %q: bad port", o.Listen)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	if !IsLoopback(host) && o.Token == "" {
		return nil, fmt.Errorf("listening on %s, reachable from other machines, needs a token (--token or ALICEZERO_TOKEN) that workers must present", o.Listen)
	}
	if o.MaxPayload <= 0 {
		o.MaxPayload = DefaultMaxShardBytes
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	opts := &server.Options{
		ServerName: "alicezero", Host: host, Port: port,
		JetStream: true, StoreDir: o.StoreDir,
		// A stored shard or network survives a crash of the machine too:
		// messages are few and large, so the cost is small.
		SyncAlways:    true,
		Authorization: o.Token,
		MaxPayload:    int32(o.MaxPayload),
		NoSigs:        true,
	}
	if o.TLSCert != "" || o.TLSKey != "" {
		tc, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: o.TLSCert, KeyFile: o.TLSKey})
		if err != nil {
			return nil, fmt.Errorf("TLS certificate: %w", err)
		}
		opts.TLSConfig, opts.TLS = tc, true
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("NATS server: %w", err)
	}
	log := &serverLog{out: o.Out}
	ns.SetLogger(log, false, false)
	ns.Start()
	if !ns.ReadyForConnections(20 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("NATS server on %s did not start: %v", o.Listen, log.failure())
	}
	return &Server{ns: ns, log: log}, nil
}

// IsLoopback reports whether host (a name or an address) is this machine
// only.
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// URL is the address workers connect to.
func (s *Server) URL() string { return s.ns.ClientURL() }

// plainURL is URL with the nats:// scheme, for the in-process connection,
// which needs no TLS.
func (s *Server) plainURL() string {
	_, hostPort, _ := strings.Cut(s.ns.ClientURL(), "://")
	return "nats://" + hostPort
}

// InProcess is the option that connects a client inside this process
// without the network.
func (s *Server) InProcess() nats.Option { return nats.InProcessServer(s.ns) }

// Shutdown stops the server; its data stays on disk.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}

// serverLog passes the server's warnings and errors on, and keeps the
// last error to explain a failed start.
type serverLog struct {
	mu   sync.Mutex
	out  io.Writer
	last string
}

func (l *serverLog) print(level, format string, v ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	msg := fmt.Sprintf(format, v...)
	if level != "warning" {
		l.last = msg
	}
	fmt.Fprintf(l.out, "nats %s: %s\n", level, msg)
}

func (l *serverLog) failure() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.last == "" {
		return errors.New("no error reported")
	}
	return errors.New(l.last)
}

func (l *serverLog) Noticef(string, ...any)         {}
func (l *serverLog) Debugf(string, ...any)          {}
func (l *serverLog) Tracef(string, ...any)          {}
func (l *serverLog) Warnf(format string, v ...any)  { l.print("warning", format, v...) }
func (l *serverLog) Errorf(format string, v ...any) { l.print("error", format, v...) }
func (l *serverLog) Fatalf(format string, v ...any) { l.print("fatal", format, v...) }
