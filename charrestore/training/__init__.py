"""Training and export (needs the ``[train]`` extra). The only package that imports TensorFlow.

``runs`` keeps a training run's folder and resumable state, ``export`` the Keras -> ONNX int8 -> card flow;
``train_<kind>`` and ``export_<kind>`` are what ``charrestore train|export <kind>`` call.
"""
