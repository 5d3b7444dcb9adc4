package nats

import (
	"encoding/json"
	"fmt"
	"slices"
)

// ledger records the messages the run has taken: for each worker session
// ("worker/session"), the sorted, disjoint, inclusive ranges of sequence
// numbers. A worker numbers its messages 1, 2, 3... and they are taken
// nearly in order, so a session costs a range or two.
type ledger map[string][][2]uint64

// ledgerState is the ledger's form inside a checkpoint.
type ledgerState struct {
	Format string `json:"format"`
	Taken  ledger `json:"taken"`
}

const ledgerFormat = "nats-ledger-1"

func (l ledger) has(session string, seq uint64) bool {
	rs := l[session]
	i, _ := slices.BinarySearchFunc(rs, seq, func(r [2]uint64, s uint64) int {
		switch {
		case r[1] < s:
			return -1
		case r[0] > s:
			return 1
		}
		return 0
	})
	return i < len(rs) && rs[i][0] <= seq && seq <= rs[i][1]
}

func (l ledger) add(session string, seq uint64) {
	if l.has(session, seq) {
		return
	}
	rs := append(l[session], [2]uint64{seq, seq})
	slices.SortFunc(rs, func(a, b [2]uint64) int { return compareU64(a[0], b[0]) })
	merged := rs[:1]
	for _, r := range rs[1:] {
		last := &merged[len(merged)-1]
		if r[0] <= last[1]+1 {
			last[1] = max(last[1], r[1])
			continue
		}
		merged = append(merged, r)
	}
	l[session] = merged
}

func compareU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func (l ledger) clone() ledger {
	c := make(ledger, len(l))
	for k, v := range l {
		c[k] = slices.Clone(v)
	}
	return c
}

func (l ledger) marshal() (json.RawMessage, error) {
	return json.Marshal(ledgerState{Format: ledgerFormat, Taken: l})
}

// parseLedger reads a checkpoint's state. A run fed from a shard folder
// before kept a list of files there: it starts an empty ledger.
func parseLedger(state json.RawMessage) (ledger, error) {
	var st ledgerState
	if len(state) == 0 || state[0] == '[' || string(state) == "null" {
		return ledger{}, nil
	}
	if err := json.Unmarshal(state, &st); err != nil {
		return nil, fmt.Errorf("the checkpoint's ledger of taken shards: %w", err)
	}
	if st.Format != ledgerFormat {
		return nil, fmt.Errorf("the checkpoint's ledger of taken shards has format %q, this program reads %q", st.Format, ledgerFormat)
	}
	if st.Taken == nil {
		st.Taken = ledger{}
	}
	for k, rs := range st.Taken {
		for i, r := range rs {
			if r[0] == 0 || r[1] < r[0] || (i > 0 && r[0] <= rs[i-1][1]) {
				return nil, fmt.Errorf("the checkpoint's ledger of taken shards: session %s: ranges out of order", k)
			}
		}
	}
	return st.Taken, nil
}
