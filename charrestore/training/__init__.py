"""Training and export (needs the ``[train]`` extra). The only package that imports TensorFlow."""


def set_threads(threads: int) -> None:
    """Bound TensorFlow's thread pools (0 = TensorFlow's default), so that a run can share the CPU with another.

    TensorFlow fixes its pools when it first builds something; in a process where that has already happened
    (a test session, a notebook), the pools stay as they are.
    """
    if threads:
        import tensorflow as tf

        try:
            tf.config.threading.set_intra_op_parallelism_threads(threads)
            tf.config.threading.set_inter_op_parallelism_threads(threads)
        except RuntimeError:
            pass
