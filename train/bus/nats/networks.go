package nats

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/alicezero/alicezero/train/bus"
)

// Networks is the run's object store of networks.
type Networks struct {
	obs jetstream.ObjectStore
}

const (
	networkPattern = "iter-%06d.azck"
	configObject   = "config.yaml"
	// keepNetworks is how many of the newest networks stay in the store.
	keepNetworks = 3
)

// NewNetworks opens the run's object store of networks; create sets it up
// (the learner), otherwise it must exist.
func NewNetworks(ctx context.Context, nc *nats.Conn, names Names, create bool) (*Networks, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	var obs jetstream.ObjectStore
	if create {
		obs, err = js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
			Bucket: names.Bucket, Description: "AliceZero networks of run " + names.Run, Storage: jetstream.FileStorage})
	} else {
		obs, err = js.ObjectStore(ctx, names.Bucket)
	}
	if err != nil {
		return nil, fmt.Errorf("the run's networks %s: %w", names.Bucket, err)
	}
	return &Networks{obs: obs}, nil
}

// PublishNetwork implements bus.NetworkPublisher; networks more than
// keepNetworks-1 iterations older than it are removed.
func (n *Networks) PublishNetwork(ctx context.Context, it int, data []byte) error {
	meta := jetstream.ObjectMeta{Name: fmt.Sprintf(networkPattern, it), Metadata: map[string]string{"iteration": strconv.Itoa(it)}}
	if _, err := n.obs.Put(ctx, meta, bytes.NewReader(data)); err != nil {
		return fmt.Errorf("publishing network %d: %w", it, err)
	}
	infos, err := n.obs.List(ctx)
	if err != nil {
		return nil
	}
	for _, info := range infos {
		if old, ok := iteration(info.Name); ok && old <= it-keepNetworks {
			// Best effort: an old network left behind costs only space.
			_ = n.obs.Delete(ctx, info.Name)
		}
	}
	return nil
}

// NewestNetwork implements bus.NetworkFetcher.
func (n *Networks) NewestNetwork(ctx context.Context) (int, error) {
	infos, err := n.obs.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return 0, bus.ErrNoNetwork
	}
	if err != nil {
		return 0, err
	}
	newest := -1
	for _, info := range infos {
		if it, ok := iteration(info.Name); ok {
			newest = max(newest, it)
		}
	}
	if newest < 0 {
		return 0, bus.ErrNoNetwork
	}
	return newest, nil
}

// FetchNetwork implements bus.NetworkFetcher: the client checks the
// object's SHA-256 digest as it reads.
func (n *Networks) FetchNetwork(ctx context.Context, it int) ([]byte, error) {
	data, err := n.obs.GetBytes(ctx, fmt.Sprintf(networkPattern, it))
	if err != nil {
		return nil, fmt.Errorf("fetching network %d: %w", it, err)
	}
	return data, nil
}

// PublishConfig stores the run's configuration for workers.
func (n *Networks) PublishConfig(ctx context.Context, yaml []byte) error {
	_, err := n.obs.PutBytes(ctx, configObject, yaml)
	return err
}

// Config returns the run's configuration as the learner published it.
func (n *Networks) Config(ctx context.Context) ([]byte, error) {
	data, err := n.obs.GetBytes(ctx, configObject)
	if err != nil {
		return nil, fmt.Errorf("fetching the run's configuration: %w", err)
	}
	return data, nil
}

func iteration(name string) (int, bool) {
	var it int
	if k, _ := fmt.Sscanf(name, networkPattern, &it); k == 1 && name == fmt.Sprintf(networkPattern, it) {
		return it, true
	}
	return 0, false
}
