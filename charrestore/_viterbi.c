/* The NB segmenter's Viterbi in C: the same states, scores, order and ties as Segmenter._viterbi in Python.
 *
 * fast_viterbi.py finds the seen words of the text (hits) with numpy and passes flat arrays; this loop does
 * the rest. States at a position are the seen words ending there (shortest first), then the unseen word, or
 * only the start state after punctuation (kind 4). Pairs are looked up by binary search in per-word sorted
 * slices. Scores are IEEE doubles computed in the Python code's order, so both give the same boundaries.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct {
    const uint8_t *kind;
    const double *bonus;
    const int64_t *hit_ptr, *hit_start, *hit_wid;
    const double *hit_lp;
    const int64_t *ctx_ptr, *ctx_wid;
    const double *ctx_lp;
} Lattice;

/* log10 P(w | prev) if the pair was seen, else NAN (prev < 0: no pairs). */
static double pair(const Lattice *t, int64_t prev, int64_t w) {
    if (prev < 0) return NAN;
    int64_t lo = t->ctx_ptr[prev], hi = t->ctx_ptr[prev + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        int64_t v = t->ctx_wid[mid];
        if (v == w) return t->ctx_lp[mid];
        if (v < w) lo = mid + 1; else hi = mid;
    }
    return NAN;
}

static int get(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t count) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->itemsize != itemsize || view->len != itemsize * count) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "viterbi: an array has the wrong item size or length");
        return -1;
    }
    return 0;
}

static PyObject *viterbi(PyObject *self, PyObject *args) {
    PyObject *o[9];
    Py_ssize_t n, n_hits, n_words, n_pairs, L;
    int64_t start_wid;
    double unk0, unk1;
    if (!PyArg_ParseTuple(args, "nnnnnLddOOOOOOOOO", &n, &n_hits, &n_words, &n_pairs, &L, &start_wid, &unk0,
                          &unk1, &o[0], &o[1], &o[2], &o[3], &o[4], &o[5], &o[6], &o[7], &o[8]))
        return NULL;
    Py_buffer b[9];
    const Py_ssize_t size[9] = {1, 8, 8, 8, 8, 8, 8, 8, 8};
    const Py_ssize_t count[9] = {n + 1, n + 1, n + 2, n_hits, n_hits, n_hits, n_words + 1, n_pairs, n_pairs};
    int got = 0;
    for (; got < 9; got++)
        if (get(o[got], &b[got], size[got], count[got]) < 0) break;
    PyObject *result = NULL;
    double *top = NULL, *hscore = NULL, *uscore = NULL, *value = NULL;
    int64_t *top_id = NULL, *back_len = NULL, *back_prev = NULL;
    if (got < 9) goto done;
    Lattice t = {b[0].buf, b[1].buf, b[2].buf, b[3].buf, b[4].buf, b[5].buf, b[6].buf, b[7].buf, b[8].buf};

    top = malloc(sizeof(double) * (n + 1));        /* position -> best score (bonus included) */
    value = malloc(sizeof(double) * (n + 1));      /* position -> top + unk1 * position */
    uscore = malloc(sizeof(double) * (n + 1));     /* position -> the unseen word's state score */
    hscore = malloc(sizeof(double) * (n_hits + 1)); /* hit -> its state score (NAN: none) */
    top_id = malloc(sizeof(int64_t) * (n + 1));
    /* state ids: hit h is h, the unseen word ending at j is n_hits + j */
    back_len = malloc(sizeof(int64_t) * (n_hits + n + 1));
    back_prev = malloc(sizeof(int64_t) * (n_hits + n + 1));
    if (!top || !value || !uscore || !hscore || !top_id || !back_len || !back_prev) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t h = 0; h < n_hits; h++) hscore[h] = NAN;
    top[0] = 0.0;
    top_id[0] = -1;
    value[0] = 0.0;
    Py_ssize_t floor_ = 0, last_open = 0;
    for (Py_ssize_t j = 1; j <= n; j++) {
        uint8_t kj = t.kind[j];
        if (!kj) continue;
        Py_ssize_t lo = j - L > floor_ ? j - L : floor_;
        /* the unseen word: from the latest position of highest value in [lo, j) */
        Py_ssize_t from = -1;
        for (Py_ssize_t i = j - 1; i >= lo; i--)
            if ((i == 0 || t.kind[i]) && (from < 0 || value[i] > value[from])) from = i;
        double unk_best;
        if (from >= 0) {
            unk_best = value[from] + unk0 - unk1 * (double)j;
        } else {
            from = last_open;
            unk_best = top[from] + unk0 - unk1 * (double)(j - from);
        }
        int64_t unk_id = n_hits + j;
        back_len[unk_id] = j - from;
        back_prev[unk_id] = top_id[from];
        double extra = t.bonus[j], best_top = -INFINITY;
        int64_t best_top_id = -1;
        for (int64_t h = t.hit_ptr[j]; h < t.hit_ptr[j + 1]; h++) {
            Py_ssize_t i = t.hit_start[h];
            if (i < lo || (i && !t.kind[i])) continue;
            int64_t w = t.hit_wid[h];
            double lp = t.hit_lp[h], best = -INFINITY;
            int64_t best_from = -1;
            if (i == 0 || t.kind[i] == 4) { /* the start state only */
                double p = pair(&t, start_wid, w);
                double sc = top[i] + (isnan(p) ? lp : p);
                if (sc > best) { best = sc; best_from = top_id[i]; }
            } else {
                for (int64_t g = t.hit_ptr[i]; g < t.hit_ptr[i + 1]; g++) {
                    if (isnan(hscore[g])) continue; /* not a state: it crossed a cut or followed no state */
                    double p = pair(&t, t.hit_wid[g], w);
                    double sc = hscore[g] + (isnan(p) ? lp : p);
                    if (sc > best) { best = sc; best_from = g; }
                }
                double sc = uscore[i] + lp;
                if (sc > best) { best = sc; best_from = n_hits + i; }
            }
            back_len[h] = j - i;
            back_prev[h] = best_from;
            hscore[h] = best + extra;
            if (best > best_top) { best_top = best; best_top_id = h; }
        }
        uscore[j] = unk_best + extra;
        if (unk_best >= best_top) { best_top = unk_best; best_top_id = unk_id; }
        top[j] = best_top + extra;
        top_id[j] = best_top_id;
        last_open = j;
        if (kj >= 2) floor_ = j;
        value[j] = top[j] + unk1 * (double)j;
    }
    result = PyList_New(0);
    if (!result) goto done;
    int64_t sid = top_id[n];
    Py_ssize_t pos = n;
    while (sid != -1) {
        pos -= back_len[sid];
        if (pos > 0) {
            PyObject *k = PyLong_FromSsize_t(pos);
            if (!k || PyList_Append(result, k) < 0) { Py_XDECREF(k); Py_CLEAR(result); goto done; }
            Py_DECREF(k);
        }
        sid = back_prev[sid];
    }
    if (PyList_Reverse(result) < 0) Py_CLEAR(result);
done:
    for (int k = 0; k < got; k++) PyBuffer_Release(&b[k]);
    free(top); free(value); free(uscore); free(hscore); free(top_id); free(back_len); free(back_prev);
    return result;
}

static PyMethodDef methods[] = {
    {"viterbi", viterbi, METH_VARARGS,
     "viterbi(n, n_hits, n_words, n_pairs, L, start_wid, unk0, unk1, kind, bonus, hit_ptr, hit_start, hit_wid, "
     "hit_lp, ctx_ptr, ctx_wid, ctx_lp) -> word boundaries"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_viterbi", "The NB segmenter's Viterbi loop in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__viterbi(void) { return PyModule_Create(&module); }
