package alphabeta

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks the kernel to back the table with huge pages where
// it allows them (transparent huge pages in madvise mode): a random probe
// then misses the TLB far less, and the table is touched in 2 MB faults
// instead of 4 KB ones. A refusal changes nothing but speed.
func adviseHugePages(slots []slot) {
	if len(slots) == 0 {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&slots[0])), len(slots)*slotBytes)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
