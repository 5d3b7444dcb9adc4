package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/alicezero/alicezero/train"
	natsbus "github.com/alicezero/alicezero/train/bus/nats"
)

// natsLearner is how 'learn' reaches its NATS server: one it embeds
// (listen) or an external one (url).
type natsLearner struct {
	listen, url     string
	token           string
	tlsCert, tlsKey string
	tlsCA           string
	ackWait         time.Duration
	maxShardBytes   int
	out, logs       io.Writer
}

// natsLearnBus opens the learner's side of a NATS bus for a run: the
// embedded server keeps its data in the run folder's "jetstream" folder.
func natsLearnBus(l natsLearner) func(context.Context, string) (*train.LearnBus, error) {
	return func(ctx context.Context, runDir string) (*train.LearnBus, error) {
		var srv *natsbus.Server
		url := l.url
		if l.listen != "" {
			var err error
			srv, err = natsbus.StartServer(natsbus.ServerOptions{Listen: l.listen, StoreDir: filepath.Join(runDir, "jetstream"), Token: l.token,
				TLSCert: l.tlsCert, TLSKey: l.tlsKey, MaxPayload: l.maxShardBytes, Out: l.logs})
			if err != nil {
				return nil, err
			}
			url = srv.URL()
		}
		closeAll := func() {
			if srv != nil {
				srv.Shutdown()
			}
		}
		nc, err := natsbus.Connect(natsbus.ConnOptions{URL: url, Server: srv, Token: l.token, CAFile: l.tlsCA, Name: "alicezero learner", Out: l.out})
		if err != nil {
			closeAll()
			return nil, err
		}
		closeAll = func() {
			nc.Close()
			if srv != nil {
				srv.Shutdown()
			}
		}
		names := natsbus.NamesFor(filepath.Base(runDir))
		src, err := natsbus.NewSource(ctx, nc, names, natsbus.SourceOptions{AckWait: l.ackWait, MaxShardBytes: l.maxShardBytes, Out: l.out})
		if err != nil {
			closeAll()
			return nil, err
		}
		nets, err := natsbus.NewNetworks(ctx, nc, names, true)
		if err == nil {
			var cfg []byte
			if cfg, err = os.ReadFile(filepath.Join(runDir, "config.yaml")); err == nil {
				err = nets.PublishConfig(ctx, cfg)
			}
		}
		if err != nil {
			src.Close()
			closeAll()
			return nil, err
		}
		if srv != nil {
			fmt.Fprintf(l.out, "listening for workers on %s (run %s): alicezero selfplay --connect nats://%s\n", l.listen, names.Run, l.listen)
		} else {
			fmt.Fprintf(l.out, "taking shards through %s (run %s)\n", nc.ConnectedUrlRedacted(), names.Run)
		}
		return &train.LearnBus{Source: src, Networks: nets, Close: closeAll}, nil
	}
}

// defaultWorkerName is HOST-PID, made a valid worker name.
func defaultWorkerName() string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "worker"
	}
	host = replaceUnsafe(host)
	if len(host) > 40 {
		host = host[:40]
	}
	if host[0] == '-' || host[0] == '.' || host[0] == '_' {
		host = "w" + host
	}
	return fmt.Sprintf("%s-%d", host, os.Getpid())
}

// replaceUnsafe replaces each run of characters outside [A-Za-z0-9_.-] by
// one '-' (by hand rather than a package-level regexp, which every process
// would compile at start).
func replaceUnsafe(s string) string {
	var b strings.Builder
	unsafe := false
	for _, r := range s {
		if r < utf8.RuneSelf && (r == '_' || r == '.' || r == '-' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			b.WriteRune(r)
			unsafe = false
			continue
		}
		if !unsafe {
			b.WriteByte('-')
		}
		unsafe = true
	}
	return b.String()
}

// randomSeed draws a seed, so that workers started alike play different
// games.
func randomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b[:]) >> 1 // fits --seed's int64
}

// terminal returns w if it is a terminal (progress bars), else nil (plain
// progress lines).
func terminal(w io.Writer) io.Writer {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return w
	}
	return nil
}

// quietCancel turns an interruption into the error main reports as exit
// 130 without a message.
func quietCancel(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return ctx.Err()
	}
	return err
}
