//go:build !linux

package alphabeta

// adviseHugePages does nothing where the kernel takes no such advice.
func adviseHugePages([]slot) {}
