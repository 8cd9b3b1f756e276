"""The C extension of the NB segmenter's Viterbi; optional, so that installing without a compiler still works
(the segmenter then decodes in Python). Everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("charrestore._viterbi", ["charrestore/_viterbi.c"], optional=True)])
