package onnx

import (
	"encoding/binary"
	"math"

	"google.golang.org/protobuf/encoding/protowire"
)

// This file hand-encodes the few ONNX protobuf messages an exported model
// needs, with field numbers from onnx/onnx.proto (IR version 8). onnx.proto
// uses proto2 syntax, so repeated scalars are written unpacked (one tag per
// element), which every protobuf parser accepts.

// Field numbers, by message.
const (
	// ModelProto
	modelIRVersion     = 1  // int64
	modelProducerName  = 2  // string
	modelProducerVer   = 3  // string
	modelDomain        = 4  // string
	modelModelVersion  = 5  // int64
	modelDocString     = 6  // string
	modelGraph         = 7  // GraphProto
	modelOpsetImport   = 8  // repeated OperatorSetIdProto
	modelMetadataProps = 14 // repeated StringStringEntryProto

	// OperatorSetIdProto
	opsetDomain  = 1 // string
	opsetVersion = 2 // int64

	// StringStringEntryProto
	entryKey   = 1 // string
	entryValue = 2 // string

	// GraphProto
	graphNode        = 1  // repeated NodeProto
	graphName        = 2  // string
	graphInitializer = 5  // repeated TensorProto
	graphDocString   = 10 // string
	graphInput       = 11 // repeated ValueInfoProto
	graphOutput      = 12 // repeated ValueInfoProto

	// NodeProto
	nodeInput     = 1 // repeated string
	nodeOutput    = 2 // repeated string
	nodeName      = 3 // string
	nodeOpType    = 4 // string
	nodeAttribute = 5 // repeated AttributeProto

	// AttributeProto
	attrName = 1  // string
	attrF    = 2  // float
	attrI    = 3  // int64
	attrInts = 8  // repeated int64
	attrType = 20 // AttributeType enum

	// TensorProto
	tensorDims     = 1 // repeated int64
	tensorDataType = 2 // int32 (DataType enum)
	tensorName     = 8 // string
	tensorRawData  = 9 // bytes

	// ValueInfoProto
	valueInfoName = 1 // string
	valueInfoType = 2 // TypeProto

	// TypeProto
	typeTensorType = 1 // TypeProto.Tensor
	// TypeProto.Tensor
	tensorTypeElemType = 1 // int32 (DataType enum)
	tensorTypeShape    = 2 // TensorShapeProto
	// TensorShapeProto
	shapeDim = 1 // repeated Dimension
	// TensorShapeProto.Dimension
	dimValue = 1 // int64
	dimParam = 2 // string
)

// Enum values.
const (
	dataTypeFloat = 1 // TensorProto.DataType.FLOAT

	attrTypeFloat = 1 // AttributeProto.AttributeType.FLOAT
	attrTypeInt   = 2 // INT
	attrTypeInts  = 7 // INTS
)

// msg is a protobuf message under construction.
type msg []byte

func (m msg) varint(num protowire.Number, v uint64) msg {
	m = protowire.AppendTag(m, num, protowire.VarintType)
	return protowire.AppendVarint(m, v)
}

func (m msg) int64(num protowire.Number, v int64) msg { return m.varint(num, uint64(v)) }

func (m msg) bytes(num protowire.Number, b []byte) msg {
	m = protowire.AppendTag(m, num, protowire.BytesType)
	return protowire.AppendBytes(m, b)
}

func (m msg) string(num protowire.Number, s string) msg {
	m = protowire.AppendTag(m, num, protowire.BytesType)
	return protowire.AppendString(m, s)
}

func (m msg) float(num protowire.Number, f float32) msg {
	m = protowire.AppendTag(m, num, protowire.Fixed32Type)
	return protowire.AppendFixed32(m, math.Float32bits(f))
}

func (m msg) message(num protowire.Number, sub msg) msg { return m.bytes(num, sub) }

// Attribute is one node attribute: an int, a list of ints or a float.
type attribute struct {
	name string
	kind int // attrTypeInt, attrTypeInts or attrTypeFloat
	i    int64
	ints []int64
	f    float32
}

func intAttr(name string, v int64) attribute { return attribute{name: name, kind: attrTypeInt, i: v} }
func intsAttr(name string, v ...int64) attribute {
	return attribute{name: name, kind: attrTypeInts, ints: v}
}

func (a attribute) encode() msg {
	var m msg
	m = m.string(attrName, a.name)
	switch a.kind {
	case attrTypeInt:
		m = m.int64(attrI, a.i)
	case attrTypeInts:
		for _, v := range a.ints {
			m = m.int64(attrInts, v)
		}
	case attrTypeFloat:
		m = m.float(attrF, a.f)
	}
	return m.varint(attrType, uint64(a.kind))
}

// node is one NodeProto.
type node struct {
	name    string
	opType  string
	inputs  []string
	outputs []string
	attrs   []attribute
}

func (n node) encode() msg {
	var m msg
	for _, s := range n.inputs {
		m = m.string(nodeInput, s)
	}
	for _, s := range n.outputs {
		m = m.string(nodeOutput, s)
	}
	m = m.string(nodeName, n.name)
	m = m.string(nodeOpType, n.opType)
	for _, a := range n.attrs {
		m = m.message(nodeAttribute, a.encode())
	}
	return m
}

// initializer is one float32 TensorProto stored as little-endian raw_data.
type initializer struct {
	name string
	dims []int
	data []float32
}

func (t initializer) encode() msg {
	var m msg
	for _, d := range t.dims {
		m = m.int64(tensorDims, int64(d))
	}
	m = m.varint(tensorDataType, dataTypeFloat)
	m = m.string(tensorName, t.name)
	raw := make([]byte, 4*len(t.data))
	for i, v := range t.data {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(v))
	}
	return m.bytes(tensorRawData, raw)
}

// valueInfo is a float32 graph input or output; a dimension of -1 is the
// symbolic batch dimension.
type valueInfo struct {
	name string
	dims []int
}

// batchDim names the symbolic batch dimension of inputs and outputs.
const batchDim = "batch"

func (v valueInfo) encode() msg {
	var shape msg
	for _, d := range v.dims {
		var dim msg
		if d < 0 {
			dim = dim.string(dimParam, batchDim)
		} else {
			dim = dim.int64(dimValue, int64(d))
		}
		shape = shape.message(shapeDim, dim)
	}
	var tt msg
	tt = tt.varint(tensorTypeElemType, dataTypeFloat)
	tt = tt.message(tensorTypeShape, shape)
	var typ msg
	typ = typ.message(typeTensorType, tt)
	var m msg
	m = m.string(valueInfoName, v.name)
	return m.message(valueInfoType, typ)
}

// graph is a GraphProto.
type graph struct {
	name         string
	doc          string
	nodes        []node
	initializers []initializer
	inputs       []valueInfo
	outputs      []valueInfo
}

func (g *graph) encode() msg {
	var m msg
	for _, n := range g.nodes {
		m = m.message(graphNode, n.encode())
	}
	m = m.string(graphName, g.name)
	for _, t := range g.initializers {
		m = m.message(graphInitializer, t.encode())
	}
	if g.doc != "" {
		m = m.string(graphDocString, g.doc)
	}
	for _, v := range g.inputs {
		m = m.message(graphInput, v.encode())
	}
	for _, v := range g.outputs {
		m = m.message(graphOutput, v.encode())
	}
	return m
}

// metadataEntry is one StringStringEntryProto of metadata_props.
type metadataEntry struct{ key, value string }

// modelProto is a ModelProto.
type modelProto struct {
	irVersion       int64
	opset           int64
	producerName    string
	producerVersion string
	domain          string
	modelVersion    int64
	doc             string
	graph           *graph
	metadata        []metadataEntry
}

func (p *modelProto) encode() []byte {
	var m msg
	m = m.int64(modelIRVersion, p.irVersion)
	m = m.string(modelProducerName, p.producerName)
	if p.producerVersion != "" {
		m = m.string(modelProducerVer, p.producerVersion)
	}
	if p.domain != "" {
		m = m.string(modelDomain, p.domain)
	}
	m = m.int64(modelModelVersion, p.modelVersion)
	if p.doc != "" {
		m = m.string(modelDocString, p.doc)
	}
	m = m.message(modelGraph, p.graph.encode())
	var op msg
	op = op.string(opsetDomain, "") // the default ONNX operator set
	op = op.int64(opsetVersion, p.opset)
	m = m.message(modelOpsetImport, op)
	for _, e := range p.metadata {
		var kv msg
		kv = kv.string(entryKey, e.key)
		kv = kv.string(entryValue, e.value)
		m = m.message(modelMetadataProps, kv)
	}
	return m
}
