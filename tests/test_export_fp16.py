"""export.store_conv_weights_fp16: Conv kernels stored in half the bytes, the arithmetic still fp32."""

import shutil

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from charrestore import runtime  # noqa: E402
from charrestore.training.export import store_conv_weights_fp16  # noqa: E402


def conv_model(path, kernel: np.ndarray) -> None:
    """x [1, C, T] -> Conv(kernel) -> MatMul by a fp32 matrix (which must stay as it is)."""
    c_out, c_in, k = kernel.shape
    mat = np.linspace(-1, 1, c_out * 3, dtype=np.float32).reshape(1, c_out, 3)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["h"], pads=[k // 2, k // 2]),
         helper.make_node("Transpose", ["h"], ["ht"], perm=[0, 2, 1]),
         helper.make_node("MatMul", ["ht", "m"], ["y"])],
        "conv", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, c_in, None])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, None, 3])],
        initializer=[numpy_helper.from_array(kernel, "w"), numpy_helper.from_array(mat[0], "m")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))


def test_conv_kernels_are_stored_fp16_and_outputs_barely_move(tmp_path):
    rng = np.random.default_rng(0)
    kernel = rng.normal(size=(64, 32, 3)).astype(np.float32)
    full, path = tmp_path / "fp32.onnx", tmp_path / "half.onnx"  # two files: sessions are cached by path
    conv_model(full, kernel)
    shutil.copyfile(full, path)
    x = rng.normal(size=(1, 32, 20)).astype(np.float32)
    before = runtime.session(full, 1).run(None, {"x": x})[0]
    size = path.stat().st_size

    assert store_conv_weights_fp16(path) == 1
    model = onnx.load(str(path))
    dtypes = {t.name: t.data_type for t in model.graph.initializer}
    assert dtypes == {"w_fp16": TensorProto.FLOAT16, "m": TensorProto.FLOAT}
    assert path.stat().st_size < size - kernel.nbytes // 2 + 1024
    after = runtime.session(path, 1).run(None, {"x": x})[0]
    assert not np.array_equal(after, before)  # the kernels were rounded ...
    assert np.abs(after - before).max() < 1e-3 * np.abs(before).max()  # ... to fp16 precision only
    assert store_conv_weights_fp16(path) == 0  # nothing left to convert
