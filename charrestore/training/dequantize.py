"""Int8 weights, float activations: a graph rewrite that makes a dynamically quantized model batch-independent.

``onnxruntime.quantization.quantize_dynamic`` quantizes each activation tensor with ONE scale computed at run time
over the whole batch tensor (``DynamicQuantizeLinear``, and inside ``DynamicQuantizeLSTM``), so a window's logits
depend on the other windows of its batch (and on their padding). This rewrite keeps the int8 weight initializers
(the file stays int8-sized) and replaces the integer arithmetic by float arithmetic on the dequantized weights:

* ``DynamicQuantizeLinear(x) -> MatMulInteger(x_q, W_q, x_zp, W_zp) -> Cast -> Mul(x_scale * W_scale)``
  becomes ``MatMul(x, DequantizeLinear(W_q, W_scale, W_zp))``;
* ``com.microsoft.DynamicQuantizeLSTM(X, W_q, R_q, B, ..., W_scale, W_zp, R_scale, R_zp)`` becomes a standard
  ``LSTM(X, DequantizeLinear(W_q'), DequantizeLinear(R_q'), B, ...)``. DynamicQuantizeLSTM stores W as
  [num_directions, input_size, 4*hidden] and R as [num_directions, hidden, 4*hidden]; ONNX LSTM wants
  [num_directions, 4*hidden, input_size|hidden]. The int8 arrays are transposed here, once (a lossless permutation
  of int8 values), so the graph needs no Transpose; scales/zero points per direction stay per-axis on axis 0.

No activation is quantized any more, but that alone does not make a window batch-independent: MLAS float GEMMs
tile rows, and a row computed alone or as the odd row of a tile takes another kernel (measured: batch 1, even and
odd batches give three different results). ``loop_over_windows`` settles it: the graph runs once per window, a
batch of one, whatever batch the caller sends; with it the dynamic int8 activations are batch-independent too
(their scale is taken over one window), and as fast as before, which is what ships (the float LSTM of ORT is
1.5-2.5x slower on CPU).

    python scripts/dequantize_models.py models/en/char.onnx                       # Loop, int8 activations
    python scripts/dequantize_models.py models/en/char.onnx --float-activations   # Loop, float activations
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

MS = "com.microsoft"


class DequantizeError(ValueError):
    """The graph holds a dynamic-quantization pattern this rewrite does not know."""


def _index(graph):
    inits = {t.name: t for t in graph.initializer}
    producer = {o: n for n in graph.node for o in n.output if o}
    consumers: dict[str, list] = {}
    for n in graph.node:
        for i in n.input:
            if i:
                consumers.setdefault(i, []).append(n)
    return inits, producer, consumers


def _only_consumer(consumers, name: str, op_type: str):
    users = consumers.get(name, [])
    if len(users) != 1 or users[0].op_type != op_type:
        raise DequantizeError(f"{name}: expected one {op_type} consumer, found {[u.op_type for u in users]}")
    return users[0]


def _rewrite_matmul(graph, mmi, inits, producer, consumers, helper):
    """One MatMulInteger (with its DynamicQuantizeLinear, Cast and scale Mul) -> DequantizeLinear + MatMul.
    Returns the new nodes and the nodes they replace."""
    a_q, w_q, a_zp, w_zp = (list(mmi.input) + ["", "", "", ""])[:4]
    dql = producer.get(a_q)
    if dql is None or dql.op_type != "DynamicQuantizeLinear":
        raise DequantizeError(f"{mmi.name}: input A is not produced by DynamicQuantizeLinear")
    if a_zp and a_zp != dql.output[2]:
        raise DequantizeError(f"{mmi.name}: A zero point is not the DynamicQuantizeLinear's")
    if w_q not in inits:
        raise DequantizeError(f"{mmi.name}: weight {w_q} is not an initializer")
    cast = _only_consumer(consumers, mmi.output[0], "Cast")
    mul = _only_consumer(consumers, cast.output[0], "Mul")
    other = [i for i in mul.input if i != cast.output[0]]
    scales = producer.get(other[0]) if len(other) == 1 else None
    if scales is None or scales.op_type != "Mul" or dql.output[1] not in scales.input:
        raise DequantizeError(f"{mmi.name}: output is not scaled by (activation scale * weight scale)")
    w_scale = [i for i in scales.input if i != dql.output[1]]
    w_scale = w_scale[0] if w_scale else dql.output[1]  # both inputs equal only in a degenerate graph
    if w_scale not in inits:
        raise DequantizeError(f"{mmi.name}: weight scale {w_scale} is not an initializer")
    if w_zp and w_zp not in inits:
        raise DequantizeError(f"{mmi.name}: weight zero point {w_zp} is not an initializer")
    base = mmi.name or mmi.output[0]
    w_float = f"{w_q}_dequantized"
    new = []
    if w_float not in producer:  # a weight shared by two MatMuls is dequantized once
        new.append(helper.make_node("DequantizeLinear", [w_q, w_scale] + ([w_zp] if w_zp else []), [w_float],
                                    name=f"{w_q}_DequantizeLinear_f"))
    new.append(helper.make_node("MatMul", [dql.input[0], w_float], [mul.output[0]], name=f"{base}_float"))
    return new, [mmi, cast, mul], [dql, scales]


def _transposed_int8(graph, inits, name: str, numpy_helper) -> str:
    """An initializer holding ``name`` [dirs, a, b] as [dirs, b, a] (same int8 values); returns its name."""
    new_name = f"{name}_onnx_layout"
    if new_name not in inits:
        arr = numpy_helper.to_array(inits[name])
        if arr.ndim != 3:
            raise DequantizeError(f"{name}: LSTM weight of rank {arr.ndim}, expected 3")
        t = numpy_helper.from_array(np.ascontiguousarray(arr.transpose(0, 2, 1)), new_name)
        graph.initializer.append(t)
        inits[new_name] = t
    return new_name


def _rewrite_lstm(graph, node, inits, helper, numpy_helper):
    """DynamicQuantizeLSTM -> DequantizeLinear (W, R, onnx layout) + LSTM."""
    ins = (list(node.input) + [""] * 12)[:12]
    x, w_q, r_q, b, seq, h0, c0, p, w_scale, w_zp, r_scale, r_zp = ins
    new, weights = [], []
    for q, scale, zp, tag in ((w_q, w_scale, w_zp, "W"), (r_q, r_scale, r_zp, "R")):
        for need in (q, scale) + ((zp,) if zp else ()):
            if need not in inits:
                raise DequantizeError(f"{node.name}: {tag} input {need} is not an initializer")
        dims = list(inits[scale].dims)
        if len(dims) > 1:
            raise DequantizeError(f"{node.name}: {tag} scale of shape {dims} (per-gate scales are not supported)")
        q_onnx = _transposed_int8(graph, inits, q, numpy_helper)
        out = f"{q}_dequantized"
        attrs = {"axis": 0} if dims else {}
        new.append(helper.make_node("DequantizeLinear", [q_onnx, scale] + ([zp] if zp else []), [out],
                                    name=f"{q}_DequantizeLinear_f", **attrs))
        weights.append(out)
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    inputs = [x, weights[0], weights[1], b, seq, h0, c0, p]
    while inputs and not inputs[-1]:
        inputs.pop()
    new.append(helper.make_node("LSTM", inputs, list(node.output), name=f"{node.name or 'LSTM'}_float", **attrs))
    return new


def _prune(graph) -> None:
    """Drop nodes whose outputs nobody reads (repeatedly) and initializers nobody reads."""
    keep = {o.name for o in graph.output}
    while True:
        used = set(keep) | {i for n in graph.node for i in n.input}
        dead = [n for n in graph.node if not any(o in used for o in n.output if o)]
        if not dead:
            break
        for n in dead:
            graph.node.remove(n)
    used = {i for n in graph.node for i in n.input} | keep
    for t in [t for t in graph.initializer if t.name not in used]:
        graph.initializer.remove(t)


def _toposort(graph) -> None:
    """Order the nodes so that each comes after the producers of its inputs (new nodes were appended)."""
    known = {t.name for t in graph.initializer} | {i.name for i in graph.input} | {""}
    nodes, ordered = list(graph.node), []
    while nodes:
        ready = [n for n in nodes if all(i in known for i in n.input)]
        if not ready:
            raise DequantizeError("graph has a cycle or an undefined input after the rewrite")
        for n in ready:
            ordered.append(n)
            known.update(n.output)
        nodes = [n for n in nodes if n not in ready]
    del graph.node[:]
    graph.node.extend(ordered)


def dequantize_model(model):
    """The rewritten ModelProto (``model`` is changed in place and returned); counts in ``model.doc_string``
    are left alone. Raises DequantizeError for a pattern it does not know, so nothing half-rewritten ships."""
    from onnx import helper, numpy_helper

    graph = model.graph
    if any(n.op_type in ("If", "Loop", "Scan") for n in graph.node):
        raise DequantizeError("subgraphs are not supported")
    inits, producer, consumers = _index(graph)
    new_nodes, gone, maybe_gone = [], [], []
    for node in list(graph.node):
        if node.op_type == "MatMulInteger" and node.domain in ("", "ai.onnx"):
            new, replaced, shared = _rewrite_matmul(graph, node, inits, producer, consumers, helper)
            new_nodes += new
            gone += replaced
            maybe_gone += shared
            for n in new:
                producer.update({o: n for o in n.output})
        elif node.op_type == "DynamicQuantizeLSTM" and node.domain == MS:
            new_nodes += _rewrite_lstm(graph, node, inits, helper, numpy_helper)
            gone.append(node)
    for n in gone:
        graph.node.remove(n)
    graph.node.extend(new_nodes)
    _prune(graph)
    _toposort(graph)
    left = [n.op_type for n in graph.node if n.op_type in ("DynamicQuantizeLinear", "MatMulInteger",
                                                           "DynamicQuantizeMatMul", "DynamicQuantizeLSTM")]
    if left:
        raise DequantizeError(f"dynamic quantization left in the graph: {sorted(set(left))}")
    if not any(n.domain == MS for n in graph.node):
        for i, op in enumerate(model.opset_import):
            if op.domain == MS:
                del model.opset_import[i]
                break
    opset = next(op.version for op in model.opset_import if op.domain in ("", "ai.onnx"))
    if opset < 13:  # per-axis DequantizeLinear
        raise DequantizeError(f"opset {opset} < 13")
    return model


SEVEN_BITS = 64  # |w| <= 64: a pair of u8 x s8 products (2 * 255 * 64) fits in int16


def seven_bit_weights(model) -> int:
    """Requantize the int8 weights of every MatMulInteger and DynamicQuantizeLSTM (subgraphs included) to
    [-64, 64], each scale widened by max|w| / 64 on its own axis; returns the number of tensors changed.

    Why: x86 CPUs without AVX-512 VNNI multiply u8 x s8 with VPMADDUBSW, which saturates the sum of a pair of
    products at int16 (2 * 255 * 127 > 32767), so their results drift from the exact integer GEMM that VNNI and
    WebAssembly compute (issue 52: the page matched Python on 89% of English lines on such a CPU). With 7-bit
    weights no pair saturates: every kernel computes the same integers, on every machine."""
    from onnx import numpy_helper

    graphs, inits, pairs = [model.graph], {}, []
    while graphs:
        graph = graphs.pop()
        inits.update({t.name: t for t in graph.initializer})
        for n in graph.node:
            graphs += [a.g for a in n.attribute if a.g is not None and a.g.node]
            if n.op_type == "MatMulInteger":
                name = n.input[1]
                if not name.endswith("_quantized"):
                    raise DequantizeError(f"{name}: a MatMulInteger weight without its _scale beside it")
                pairs.append((name, name[: -len("_quantized")] + "_scale", n.input[3]))
            elif n.op_type == "DynamicQuantizeLSTM":
                pairs += [(n.input[1], n.input[8], n.input[9]), (n.input[2], n.input[10], n.input[11])]
    changed = 0
    for weight, scale, zero in dict.fromkeys(pairs):
        q = numpy_helper.to_array(inits[weight])
        s = numpy_helper.to_array(inits[scale]).astype(np.float32)
        if q.dtype != np.int8 or (zero and numpy_helper.to_array(inits[zero]).any()):
            raise DequantizeError(f"{weight}: not symmetric int8")
        groups = q.reshape(s.size, -1) if s.ndim else q.reshape(1, -1)
        top = np.maximum(np.abs(groups.astype(np.int32)).max(axis=1), 1).astype(np.float32)
        if top.max() <= SEVEN_BITS:
            continue
        wide = np.maximum(top / SEVEN_BITS, 1).astype(np.float32)
        new = np.clip(np.round(groups / wide[:, None]), -SEVEN_BITS, SEVEN_BITS).astype(np.int8).reshape(q.shape)
        inits[weight].CopyFrom(numpy_helper.from_array(new, weight))
        inits[scale].CopyFrom(numpy_helper.from_array((s * wide.reshape(s.shape)).astype(np.float32), scale))
        changed += 1
    return changed


def dequantize_file(src: Path, dst: Path) -> dict:
    """Rewrite ``src`` into ``dst`` and check it (onnx.checker with shape inference); returns op counts."""
    import onnx

    model = onnx.load(str(src))
    before = _count(model)
    dequantize_model(model)
    model.producer_name = "charrestore.dequantize"
    onnx.checker.check_model(model, full_check=True)
    Path(dst).parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(dst))
    return {"before": before, "after": _count(model)}


def _count(model) -> dict:
    out: dict[str, int] = {}
    for n in model.graph.node:
        if n.op_type in ("DynamicQuantizeLinear", "MatMulInteger", "DynamicQuantizeLSTM", "DequantizeLinear",
                         "MatMul", "LSTM"):
            out[n.op_type] = out.get(n.op_type, 0) + 1
    return out


def loop_over_windows(model, strip_padding: str | None = None):
    """Run the graph once per window: the part that depends on the inputs becomes the body of a ``Loop`` over
    the batch axis, which sees one window ([1, ...]) per iteration and stacks the outputs back into [B, ...].

    A window's arithmetic is then exactly that of a batch of one, whatever the batch size and thread count:
    float GEMMs are not row-independent in MLAS (a GEMM of M rows tiles them, and a row computed alone (M=1)
    or as the odd row of a tile takes another kernel and another summation order; the LSTM's recurrent GEMM has
    M = batch, or the rows of one thread). Nodes that depend only on initializers stay outside the loop.

    ``strip_padding`` names an int input whose trailing 0 ids are padding (the token model's ``ids``, padded to
    the longest window of its batch); they are cut off before the body runs, so a padded window is computed
    exactly as the same window alone. Outputs must keep their shape per window (the token model's are per word)."""
    from onnx import TensorProto, helper, numpy_helper

    graph = model.graph
    inputs = [i.name for i in graph.input if i.name not in {t.name for t in graph.initializer}]
    dependent = set(inputs)
    body_nodes, outer_nodes = [], []
    for n in graph.node:  # topological order
        if any(i in dependent for i in n.input):
            body_nodes.append(n)
            dependent.update(o for o in n.output if o)
        else:
            outer_nodes.append(n)
    consts = {
        "loop__axis0": numpy_helper.from_array(np.array([0], np.int64), "loop__axis0"),
        "loop__axis1": numpy_helper.from_array(np.array([1], np.int64), "loop__axis1"),
        "loop__zero": numpy_helper.from_array(np.array(0, np.int64), "loop__zero"),
        "loop__zero1": numpy_helper.from_array(np.array([0], np.int64), "loop__zero1"),
        "loop__one1": numpy_helper.from_array(np.array([1], np.int64), "loop__one1"),
        "loop__true": numpy_helper.from_array(np.array(True), "loop__true"),
    }
    graph.initializer.extend(consts.values())
    rename, pre = {}, []
    for name in inputs:
        row = f"{name}__row"
        pre.append(helper.make_node("Gather", [name, "loop__iter"], [f"{name}__g"], axis=0))
        pre.append(helper.make_node("Unsqueeze", [f"{name}__g", "loop__axis0"], [row]))
        if name == strip_padding:  # keep [0, last non-zero id]; at least one position
            pre += [
                helper.make_node("Shape", [row], [f"{name}__shape"]),
                helper.make_node("Gather", [f"{name}__shape", "loop__one1"], [f"{name}__len"], axis=0),
                helper.make_node("Squeeze", [f"{name}__len", "loop__axis0"], [f"{name}__len0"]),
                helper.make_node("Range", ["loop__zero", f"{name}__len0", "loop__one"], [f"{name}__pos"]),
                helper.make_node("Cast", [f"{name}__g"], [f"{name}__ne"], to=TensorProto.BOOL),
                helper.make_node("Add", [f"{name}__pos", "loop__one"], [f"{name}__pos1"]),
                helper.make_node("Where", [f"{name}__ne", f"{name}__pos1", "loop__zero"], [f"{name}__ends"]),
                helper.make_node("ReduceMax", [f"{name}__ends"], [f"{name}__end"], keepdims=1),
                helper.make_node("Max", [f"{name}__end", "loop__one1"], [f"{name}__end1"]),
                helper.make_node("Slice", [row, "loop__zero1", f"{name}__end1", "loop__axis1"], [f"{row}s"]),
            ]
            row = f"{row}s"
        rename[name] = row
    if strip_padding:
        graph.initializer.append(numpy_helper.from_array(np.array(1, np.int64), "loop__one"))
    for n in body_nodes:
        for k, i in enumerate(n.input):
            if i in rename:
                n.input[k] = rename[i]
    outs = list(graph.output)
    post = [helper.make_node("Squeeze", [o.name, "loop__axis0"], [f"{o.name}__row"]) for o in outs]
    body = helper.make_graph(
        pre + body_nodes + post + [helper.make_node("Identity", ["loop__cond"], ["loop__cond_out"])],
        "window",
        [helper.make_tensor_value_info("loop__iter", TensorProto.INT64, []),
         helper.make_tensor_value_info("loop__cond", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("loop__cond_out", TensorProto.BOOL, [])]
        + [helper.make_tensor_value_info(f"{o.name}__row", o.type.tensor_type.elem_type, None) for o in outs])
    first = inputs[0]
    loop = [
        helper.make_node("Shape", [first], ["loop__in_shape"]),
        helper.make_node("Gather", ["loop__in_shape", "loop__zero"], ["loop__trips"], axis=0),
        helper.make_node("Loop", ["loop__trips", "loop__true"], [o.name for o in outs], name="windows", body=body),
    ]
    del graph.node[:]
    graph.node.extend(outer_nodes + loop)
    del graph.value_info[:]
    return model
