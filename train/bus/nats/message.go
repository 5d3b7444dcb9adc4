package nats

import (
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/nats-io/nats.go"

	"github.com/alicezero/alicezero/train/bus"
)

// The headers that describe a shard message.
const (
	hdrWorker  = "Alice-Worker"
	hdrSession = "Alice-Session"
	hdrSeq     = "Alice-Seq"
	hdrNetwork = "Alice-Network"
	hdrGames   = "Alice-Games"
	hdrPlayMs  = "Alice-Play-Ms"
)

// sessionBytes is the size of a session id.
const sessionBytes = 8

// validSession checks a worker's session: 8 random bytes drawn when it
// starts, as 16 lowercase hex digits (hex.EncodeToString), so the same
// worker name restarted is a new session, numbering from 1 again. An id,
// not a name: it is valid if it reads back as it was written.
func validSession(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == sessionBytes && hex.EncodeToString(b) == s
}

// maxGames bounds the games one message may claim, so that a forged header
// cannot skew the learner's figures.
const maxGames = 1 << 20

// messageID names a message: the worker, its session, the sequence number.
func messageID(worker, session string, seq uint64) string {
	return fmt.Sprintf("%s/%s/%d", worker, session, seq)
}

// shardHeader is what a message's headers say.
type shardHeader struct {
	info    bus.ShardInfo
	session string // worker/session, the ledger's key
	seq     uint64
}

// parseHeader reads and checks a message's headers.
func parseHeader(h nats.Header) (shardHeader, error) {
	var sh shardHeader
	worker, session := h.Get(hdrWorker), h.Get(hdrSession)
	if err := bus.ValidWorker(worker); err != nil {
		return sh, fmt.Errorf("header %s: %w", hdrWorker, err)
	}
	if !validSession(session) {
		return sh, fmt.Errorf("header %s %q: want 16 hex digits", hdrSession, session)
	}
	num := func(key string, lo, hi int64) (int64, error) {
		v, err := strconv.ParseInt(h.Get(key), 10, 64)
		if err != nil || v < lo || v > hi {
			return 0, fmt.Errorf("header %s %q: want an integer from %d to %d", key, h.Get(key), lo, hi)
		}
		return v, nil
	}
	seq, err := num(hdrSeq, 1, 1<<53)
	if err != nil {
		return sh, err
	}
	network, err := num(hdrNetwork, -1, 1<<31)
	if err != nil {
		return sh, err
	}
	games, err := num(hdrGames, 0, maxGames)
	if err != nil {
		return sh, err
	}
	ms, err := num(hdrPlayMs, 0, 1<<50)
	if err != nil {
		return sh, err
	}
	if id := h.Get(nats.MsgIdHdr); id != messageID(worker, session, uint64(seq)) {
		return sh, fmt.Errorf("header %s %q does not match the worker, session and sequence headers", nats.MsgIdHdr, id)
	}
	sh.info = bus.ShardInfo{Worker: worker, Network: int(network), Games: int(games), PlaySeconds: float64(ms) / 1000}
	sh.session, sh.seq = worker+"/"+session, uint64(seq)
	return sh, nil
}

// header describes a shard message.
func header(info bus.ShardInfo, session string, seq uint64) nats.Header {
	h := nats.Header{}
	h.Set(nats.MsgIdHdr, messageID(info.Worker, session, seq))
	h.Set(hdrWorker, info.Worker)
	h.Set(hdrSession, session)
	h.Set(hdrSeq, strconv.FormatUint(seq, 10))
	h.Set(hdrNetwork, strconv.Itoa(info.Network))
	h.Set(hdrGames, strconv.Itoa(info.Games))
	h.Set(hdrPlayMs, strconv.FormatInt(int64(info.PlaySeconds*1000), 10))
	return h
}
