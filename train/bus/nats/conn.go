package nats

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/alicezero/alicezero/internal/sleep"
)

// ConnOptions configures Connect.
type ConnOptions struct {
	// URL is the server, nats://HOST:PORT (tls://HOST:PORT for TLS).
	URL string
	// Server, if set, is the embedded server: the connection then stays
	// inside the process and URL is ignored.
	Server *Server
	// Token is the server's secret.
	Token string
	// CAFile is a PEM file of the certificate authority that signed the
	// server's certificate (for a self-signed one).
	CAFile string
	// Name describes this client to the server.
	Name string
	// Out receives notices about lost and regained connections.
	Out io.Writer
}

// Connect connects to the server, and reconnects for ever once connected.
// A refused token or an unreachable server is an error that says so.
func Connect(o ConnOptions) (*nats.Conn, error) {
	if o.Out == nil {
		o.Out = io.Discard
	}
	opts := []nats.Option{
		nats.Name(o.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(time.Second),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				fmt.Fprintf(o.Out, "warning: lost the connection to the NATS server (%v); reconnecting\n", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			fmt.Fprintf(o.Out, "reconnected to the NATS server at %s\n", nc.ConnectedUrlRedacted())
		}),
	}
	if o.Token != "" {
		opts = append(opts, nats.Token(o.Token))
	}
	if o.CAFile != "" {
		opts = append(opts, nats.RootCAs(o.CAFile))
	}
	url, dial := o.URL, o.URL
	if o.Server != nil {
		opts = append(opts, o.Server.InProcess())
		// Never tls://: the client would insist on TLS inside the process,
		// and check the server's certificate against authorities the
		// learner need not have.
		url, dial = "the embedded server", o.Server.plainURL()
	}
	nc, err := nats.Connect(dial, opts...)
	if err == nil {
		return nc, nil
	}
	var certErr *tls.CertificateVerificationError
	switch {
	case errors.As(err, &certErr):
		return nil, fmt.Errorf("the TLS certificate of the NATS server at %s is not trusted (give --tls-ca with the PEM file of the authority that signed it; for a self-signed certificate, the certificate itself): %w", url, err)
	case errors.Is(err, nats.ErrAuthorization) || strings.Contains(strings.ToLower(err.Error()), "authorization violation"):
		return nil, fmt.Errorf("the NATS server at %s refused the connection: wrong or missing token (give the learner's --token, or set ALICEZERO_TOKEN): %w", url, err)
	case errors.Is(err, nats.ErrNoServers):
		return nil, fmt.Errorf("cannot reach a NATS server at %s (is the learner running with --listen, and the port open?): %w", url, err)
	}
	return nil, fmt.Errorf("connecting to the NATS server at %s: %w", url, err)
}

// ConnectWait is Connect for a worker that may start before its learner:
// while no server answers it waits (saying so on o.Out, once) and tries
// again every two seconds, until ctx ends. Other errors (a refused token)
// return at once.
func ConnectWait(ctx context.Context, o ConnOptions) (*nats.Conn, error) {
	said := false
	for {
		nc, err := Connect(o)
		if err == nil || !errors.Is(err, nats.ErrNoServers) {
			return nc, err
		}
		if !said && o.Out != nil {
			fmt.Fprintf(o.Out, "waiting for the learner: %v\n", err)
			said = true
		}
		if serr := sleep.For(ctx, 2*time.Second); serr != nil {
			return nil, err
		}
	}
}
