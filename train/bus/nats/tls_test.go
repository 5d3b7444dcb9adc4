package nats

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/alicezero/alicezero/train/bus"
	"github.com/alicezero/alicezero/train/bus/bustest"
	"github.com/alicezero/alicezero/train/replay"
)

// selfSigned writes a self-signed certificate for 127.0.0.1, ::1 and
// localhost and its key into dir, and returns their paths; the
// certificate is its own authority, as a user's would be.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: "alicezero learner"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// TestTLS: a learner serving TLS ('learn --listen --tls-cert --tls-key')
// reaches its own embedded server, workers that trust its certificate
// ('selfplay --tls-ca') send shards and fetch networks over TLS, and
// workers that do not, or that do not speak TLS at all, are refused.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	cert, key := selfSigned(t, filepath.Join(dir, "learner"))
	otherCA, _ := selfSigned(t, filepath.Join(dir, "other"))
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: filepath.Join(dir, "js"), TLSCert: cert, TLSKey: key})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	u, err := url.Parse(srv.URL())
	if err != nil || u.Scheme != "tls" {
		t.Fatalf("server URL %q (%v), want tls://", srv.URL(), err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	// The learner connects as 'learn' does: inside the process, with the
	// server's tls:// URL and no authority of its own.
	learner, err := Connect(ConnOptions{URL: srv.URL(), Server: srv, Name: "learner"})
	if err != nil {
		t.Fatalf("the learner cannot reach its own TLS server: %v", err)
	}
	defer learner.Close()
	names := NamesFor("tls")
	src, err := NewSource(ctx, learner, names, SourceOptions{AckWait: testAckWait})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	pub, err := NewNetworks(ctx, learner, names, true)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("TrustedWorker", func(t *testing.T) {
		// nats:// works too: the server requires TLS and the client
		// follows (the URL the learner prints may say either).
		for i, addr := range []string{srv.URL(), "tls://localhost:" + u.Port(), "nats://" + u.Host} {
			nc, err := Connect(ConnOptions{URL: addr, CAFile: cert, Name: "worker"})
			if err != nil {
				t.Fatalf("%s with the authority: %v", addr, err)
			}
			defer nc.Close()
			if st, err := nc.TLSConnectionState(); err != nil || !st.HandshakeComplete {
				t.Fatalf("%s: not a TLS connection: %v", addr, err)
			}
			worker := []string{"w0", "w1", "w2"}[i]
			sink, err := NewSink(ctx, nc, names, worker, nil)
			if err != nil {
				t.Fatal(err)
			}
			samples := bustest.Samples(t, uint64(i+1), 7)
			if err := sink.Send(ctx, bus.ShardInfo{Worker: worker, Network: 0, Games: 1, PlaySeconds: 2}, samples); err != nil {
				t.Fatalf("%s: send: %v", addr, err)
			}
			ds, err := src.Next(ctx, 10*time.Second)
			if err != nil || len(ds) != 1 || ds[0].Err != nil || ds[0].Info.Worker != worker {
				t.Fatalf("%s: the learner got %v, %v; want the one shard of %s", addr, ds, err, worker)
			}
			got, err := replay.DecodeShard(ds[0].Data, ds[0].ID)
			if err != nil || len(got) != len(samples) || got[0].Position != samples[0].Position {
				t.Fatalf("%s: shard of %d positions (%v), sent %d", addr, len(got), err, len(samples))
			}
			if _, err := src.Commit(ds); err != nil {
				t.Fatal(err)
			}
			if err := src.Ack(ctx, ds); err != nil {
				t.Fatal(err)
			}

			weights := []byte("network over TLS " + addr)
			if err := pub.PublishNetwork(ctx, i, weights); err != nil {
				t.Fatal(err)
			}
			fetch, err := NewNetworks(ctx, nc, names, false)
			if err != nil {
				t.Fatal(err)
			}
			if newest, err := fetch.NewestNetwork(ctx); err != nil || newest != i {
				t.Fatalf("%s: newest network %d, %v; want %d", addr, newest, err, i)
			}
			if data, err := fetch.FetchNetwork(ctx, i); err != nil || string(data) != string(weights) {
				t.Fatalf("%s: network %q, %v", addr, data, err)
			}
		}
	})

	t.Run("UntrustedWorker", func(t *testing.T) {
		for _, tc := range []struct{ name, ca string }{
			{"no authority", ""},
			{"another authority", otherCA},
		} {
			// ConnectWait, as 'selfplay --connect' uses: a refused
			// certificate must end it at once, not look like a learner
			// that has not started yet.
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			start := time.Now()
			nc, err := ConnectWait(wctx, ConnOptions{URL: srv.URL(), CAFile: tc.ca, Name: "worker"})
			cancel()
			if err == nil {
				nc.Close()
				t.Fatalf("%s: connected", tc.name)
			}
			if !errors.Is(err, nats.ErrTLS) || !strings.Contains(err.Error(), "not trusted") || !strings.Contains(err.Error(), "--tls-ca") {
				t.Errorf("%s: unclear error: %v", tc.name, err)
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("%s: ConnectWait kept waiting (%v) for a refused certificate", tc.name, time.Since(start))
			}
		}
	})

	t.Run("PlainClient", func(t *testing.T) {
		// A client that does not speak TLS: the server announces that TLS
		// is required and answers nothing sent in plain text.
		c, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		r := bufio.NewReader(c)
		info, err := r.ReadString('\n')
		if err != nil || !strings.HasPrefix(info, "INFO ") || !strings.Contains(info, `"tls_required":true`) {
			t.Fatalf("server greeting %q, %v; want INFO with tls_required", info, err)
		}
		if _, err := c.Write([]byte("CONNECT {\"verbose\":false,\"pedantic\":false}\r\nPING\r\n")); err != nil {
			t.Fatal(err)
		}
		for {
			line, err := r.ReadString('\n')
			if strings.HasPrefix(line, "PONG") {
				t.Fatal("the server answered a plain-text client")
			}
			if err != nil {
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					t.Fatal("the server kept the plain-text connection open")
				}
				break // closed: refused
			}
		}
	})
}
