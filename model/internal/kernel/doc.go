// Package kernel holds the network's numeric inner loops: Winograd's
// F(2×2, 3×3) convolution on the lane layout (eight positions side by side
// as vector lanes; wino.go), its transforms' adjoints, the matrix products
// and the layout conversions, in Go assembly (AVX-512 products, AVX2/FMA
// elsewhere) with a pure-Go twin of each, which the assembly is tested
// against and which the purego build tag or an older CPU selects.
//
// It is internal to package model: model's FastEvaluator runs the forward
// kernels, and model/training's gorgonia ops run the same kernels and their
// adjoints, so that training computes what inference computes. ByName picks
// a Set, the kernels of one instruction set; a Layer is one convolution's
// filters in the layouts the kernels read. The kernels allocate nothing and
// start no goroutines: callers share the work out.
package kernel
