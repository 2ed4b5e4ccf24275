// SPDX-License-Identifier: Apache-2.0
// A minimal ONNX protobuf writer: just enough of ModelProto to build the one-node (Transpose)
// and three-node (Reshape -> Transpose -> Reshape) models that peers.js feeds to
// onnxruntime-web. Field numbers are those of onnx/onnx.proto (IR version 8, opset 13).

class Writer {
  constructor() {
    this.bytes = [];
  }

  varint(value) {
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.bytes.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.bytes.push(Number(v));
    return this;
  }

  key(field, wireType) {
    return this.varint((field << 3) | wireType);
  }

  int(field, value) {
    return this.key(field, 0).varint(value); // int32/int64/enum, wire type 0
  }

  raw(field, u8) {
    this.key(field, 2).varint(u8.length); // length-delimited, wire type 2
    for (const b of u8) this.bytes.push(b);
    return this;
  }

  str(field, s) {
    return this.raw(field, new TextEncoder().encode(s));
  }

  msg(field, writer) {
    return this.raw(field, writer.finish());
  }

  finish() {
    return Uint8Array.from(this.bytes);
  }
}

const FLOAT = 1; // TensorProto.DataType
const INT64 = 7;
const ATTR_INTS = 7; // AttributeProto.AttributeType

// ValueInfoProto { name = 1; type = 2 }, TypeProto { tensor_type = 1 },
// TypeProto.Tensor { elem_type = 1; shape = 2 }, TensorShapeProto { dim = 1 },
// TensorShapeProto.Dimension { dim_value = 1 }
function valueInfo(name, shape) {
  const shapeProto = new Writer();
  for (const d of shape) shapeProto.msg(1, new Writer().int(1, d));
  const tensorType = new Writer().int(1, FLOAT).msg(2, shapeProto);
  return new Writer().str(1, name).msg(2, new Writer().msg(1, tensorType));
}

// TensorProto { dims = 1; data_type = 2; name = 8; raw_data = 9 } (raw_data is little endian)
function int64Initializer(name, values) {
  const raw = new Uint8Array(8 * values.length);
  const view = new DataView(raw.buffer);
  values.forEach((v, i) => view.setBigInt64(8 * i, BigInt(v), true));
  return new Writer().int(1, values.length).int(2, INT64).str(8, name).raw(9, raw);
}

// AttributeProto { name = 1; ints = 8; type = 20 }
function intsAttribute(name, values) {
  const a = new Writer().str(1, name);
  for (const v of values) a.int(8, v);
  return a.int(20, ATTR_INTS);
}

// NodeProto { input = 1; output = 2; name = 3; op_type = 4; attribute = 5 }
function node(opType, inputs, outputs, name, attributes = []) {
  const n = new Writer();
  for (const i of inputs) n.str(1, i);
  for (const o of outputs) n.str(2, o);
  n.str(3, name).str(4, opType);
  for (const a of attributes) n.msg(5, a);
  return n;
}

// GraphProto { node = 1; name = 2; initializer = 5; input = 11; output = 12 }
// ModelProto { ir_version = 1; producer_name = 2; graph = 7; opset_import = 8 },
// OperatorSetIdProto { domain = 1; version = 2 }
function model({ nodes, initializers = [], inputs, outputs }) {
  const graph = new Writer();
  for (const n of nodes) graph.msg(1, n);
  graph.str(2, 'relayout_peers');
  for (const t of initializers) graph.msg(5, t);
  for (const v of inputs) graph.msg(11, v);
  for (const v of outputs) graph.msg(12, v);
  return new Writer()
    .int(1, 8)
    .str(2, 'relayout-bench-peers')
    .msg(7, graph)
    .msg(8, new Writer().str(1, '').int(2, 13))
    .finish();
}

/** y = Transpose(x, perm); x and y are float tensors with static shapes. */
export function transposeModel(inShape, perm) {
  const outShape = perm.map((p) => inShape[p]);
  return model({
    nodes: [node('Transpose', ['x'], ['y'], 'transpose', [intsAttribute('perm', perm)])],
    inputs: [valueInfo('x', inShape)],
    outputs: [valueInfo('y', outShape)],
  });
}

/** Channel shuffle of a float NCHW tensor: Reshape [N,G,C/G,H,W] -> Transpose [0,2,1,3,4] -> Reshape [N,C,H,W]. */
export function shuffleModel(shape, groups) {
  const [n, c, h, w] = shape;
  return model({
    nodes: [
      node('Reshape', ['x', 'split_shape'], ['split'], 'reshape_split'),
      node('Transpose', ['split'], ['swapped'], 'transpose', [intsAttribute('perm', [0, 2, 1, 3, 4])]),
      node('Reshape', ['swapped', 'merge_shape'], ['y'], 'reshape_merge'),
    ],
    initializers: [int64Initializer('split_shape', [n, groups, c / groups, h, w]), int64Initializer('merge_shape', shape)],
    inputs: [valueInfo('x', shape)],
    outputs: [valueInfo('y', shape)],
  });
}

/** y = MatMul(a, b) with a, b of shape [n, n]; used only to check that the ORT thread pool works. */
export function matmulModel(n) {
  return model({
    nodes: [node('MatMul', ['a', 'b'], ['y'], 'matmul')],
    inputs: [valueInfo('a', [n, n]), valueInfo('b', [n, n])],
    outputs: [valueInfo('y', [n, n])],
  });
}
