package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

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
