"""Training and export (needs the ``[train]`` extra). The only package that imports TensorFlow."""


def set_threads(threads: int) -> None:
    """Bound TensorFlow's thread pools (0 = TensorFlow's default), so that a run can share the CPU with another.

    Must run before TensorFlow builds anything.
    """
    if threads:
        import tensorflow as tf

        tf.config.threading.set_intra_op_parallelism_threads(threads)
        tf.config.threading.set_inter_op_parallelism_threads(threads)
