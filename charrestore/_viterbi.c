/* The NB segmenter's Viterbi in C: the same states, scores, order and ties as Segmenter._viterbi in Python.
 *
 * ``vocab_index`` hashes the vocabulary once into an open-addressing table; ``hits`` finds every seen word of a
 * text with it (a polynomial hash per substring, each candidate checked character by character, so a collision
 * never makes a word); ``viterbi`` does the rest on flat arrays. States at a position are the seen words ending there (shortest first), then the unseen word, or
 * only the start state after punctuation (kind 4). Pairs are looked up by binary search in per-word sorted
 * slices. Scores are IEEE doubles computed in the Python code's order, so both give the same boundaries.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

#define BASE 0x9E3779B97F4A7C15ULL /* odd: the polynomial hash's multiplier (arithmetic wraps at 2**64) */

static uint64_t slot(uint64_t h, unsigned bits) { return ((h ^ (h >> 31)) * 0xBF58476D1CE4E5B9ULL) >> (64 - bits); }

static unsigned table_bits(Py_ssize_t n_words) {
    unsigned bits = 4;
    while (((Py_ssize_t)1 << bits) < 2 * n_words + 1) bits++;
    return bits;
}

/* vocab_index(codes uint32[chars], offsets int64[n_words + 1]) -> table uint64[2 * 2^bits + 2^suffix_bits / 64] as
 * bytes: (hash, word id + 1) pairs by hash slot, (0, 0) for an empty slot (linear probing), then a bit set of the
 * hashes of every suffix of every word (a text position whose suffix is in no word ends the look-up early). The
 * hash of c_0..c_{m-1} (code points + 1) is sum c_i * BASE^(m-1-i). */
static PyObject *vocab_index(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *o[2];
    Py_ssize_t n_chars, n_words;
    if (!PyArg_ParseTuple(args, "nnOO", &n_chars, &n_words, &o[0], &o[1])) return NULL;
    Py_buffer b[2];
    if (get(o[0], &b[0], 4, n_chars) < 0) return NULL;
    if (get(o[1], &b[1], 8, n_words + 1) < 0) { PyBuffer_Release(&b[0]); return NULL; }
    const uint32_t *codes = b[0].buf;
    const int64_t *off = b[1].buf;
    unsigned bits = table_bits(n_words), sbits = table_bits(4 * n_chars);
    Py_ssize_t size = (Py_ssize_t)1 << bits, words64 = ((Py_ssize_t)1 << sbits) / 64;
    PyObject *table = PyBytes_FromStringAndSize(NULL, 8 * (2 * size + words64));
    if (table) {
        uint64_t *t = (uint64_t *)PyBytes_AS_STRING(table), *suffix = t + 2 * size;
        memset(t, 0, 8 * (2 * size + words64));
        for (Py_ssize_t w = 0; w < n_words; w++) {
            uint64_t v = 0, power = 1;
            for (int64_t i = off[w + 1] - 1; i >= off[w]; i--) { /* from the end: each suffix's hash on the way */
                v += ((uint64_t)codes[i] + 1) * power;
                power *= BASE;
                uint64_t k = slot(v, sbits);
                suffix[k >> 6] |= 1ULL << (k & 63);
            }
            uint64_t k = slot(v, bits);
            while (t[2 * k + 1]) k = (k + 1) & (size - 1);
            t[2 * k] = v;
            t[2 * k + 1] = (uint64_t)w + 1;
        }
    }
    PyBuffer_Release(&b[0]);
    PyBuffer_Release(&b[1]);
    if (!table) return NULL;
    PyObject *result = Py_BuildValue("(Onn)", table, (Py_ssize_t)bits, (Py_ssize_t)sbits);
    Py_DECREF(table);
    return result;
}

/* Grow an array of int64 or double to hold at least ``need`` items. */
static int reserve(void **buf, Py_ssize_t *cap, Py_ssize_t need, size_t item) {
    if (need <= *cap) return 0;
    Py_ssize_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *p = realloc(*buf, c * item);
    if (!p) { PyErr_NoMemory(); return -1; }
    *buf = p;
    *cap = c;
    return 0;
}

/* hits(n, L, n_chars, n_words, bits, sbits, text uint32[n], codes, offsets, table, logp) -> (ptr int64[n+2],
 * start int64[], wid int64[], lp double[]) as bytes: every seen word of at most L characters, by end position (CSR:
 * the hits ending at j are ptr[j]..ptr[j+1]), shortest first at each end. */
static PyObject *hits(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *o[5];
    Py_ssize_t n, L, n_chars, n_words, bits, sbits;
    if (!PyArg_ParseTuple(args, "nnnnnnOOOOO", &n, &L, &n_chars, &n_words, &bits, &sbits, &o[0], &o[1], &o[2], &o[3],
                          &o[4]))
        return NULL;
    if (bits < 1 || bits > 40 || sbits < 6 || sbits > 40) {
        PyErr_SetString(PyExc_ValueError, "hits: table bits");
        return NULL;
    }
    Py_ssize_t size = (Py_ssize_t)1 << bits;
    Py_buffer b[5];
    const Py_ssize_t isize[5] = {4, 4, 8, 8, 8};
    const Py_ssize_t count[5] = {n, n_chars, n_words + 1, 2 * size + ((Py_ssize_t)1 << sbits) / 64, n_words};
    int got = 0;
    for (; got < 5; got++)
        if (get(o[got], &b[got], isize[got], count[got]) < 0) break;
    PyObject *result = NULL, *ptr_b = NULL;
    int64_t *start = NULL, *wid = NULL;
    double *lp = NULL;
    Py_ssize_t cap_s = 0, cap_w = 0, cap_l = 0, cnt = 0;
    if (got < 5) goto done;
    const uint32_t *text = b[0].buf, *codes = b[1].buf;
    const int64_t *off = b[2].buf;
    const uint64_t *table = b[3].buf, *suffix = table + 2 * size;
    const double *logp = b[4].buf;
    ptr_b = PyBytes_FromStringAndSize(NULL, 8 * (n + 2));
    if (!ptr_b) goto done;
    int64_t *ptr = (int64_t *)PyBytes_AS_STRING(ptr_b);
    ptr[0] = 0;
    for (Py_ssize_t j = 1; j <= n; j++) {
        ptr[j] = cnt;
        uint64_t h = 0, power = 1;
        for (Py_ssize_t len = 1; len <= L && len <= j; len++) {
            Py_ssize_t i = j - len;
            h += ((uint64_t)text[i] + 1) * power;
            power *= BASE;
            uint64_t s = slot(h, (unsigned)sbits);
            if (!(suffix[s >> 6] >> (s & 63) & 1)) break; /* no word ends with s[i:j]: none longer either */
            for (uint64_t k = slot(h, (unsigned)bits); table[2 * k + 1]; k = (k + 1) & (size - 1)) {
                if (table[2 * k] != h) continue;
                int64_t w = (int64_t)table[2 * k + 1] - 1;
                if (off[w + 1] - off[w] != len) continue;
                const uint32_t *c = codes + off[w];
                Py_ssize_t m = 0;
                while (m < len && c[m] == text[i + m]) m++;
                if (m < len) continue;
                if (reserve((void **)&start, &cap_s, cnt + 1, 8) < 0 || reserve((void **)&wid, &cap_w, cnt + 1, 8) < 0
                    || reserve((void **)&lp, &cap_l, cnt + 1, sizeof(double)) < 0)
                    goto done;
                start[cnt] = i;
                wid[cnt] = w;
                lp[cnt] = logp[w];
                cnt++;
                break; /* the vocabulary's words are distinct: one word at most */
            }
        }
    }
    ptr[n + 1] = cnt;
    result = Py_BuildValue("(Oy#y#y#)", ptr_b, start ? (const char *)start : "", (Py_ssize_t)(8 * cnt),
                           wid ? (const char *)wid : "", (Py_ssize_t)(8 * cnt), lp ? (const char *)lp : "",
                           (Py_ssize_t)(sizeof(double) * cnt));
done:
    Py_XDECREF(ptr_b);
    for (int k = 0; k < got; k++) PyBuffer_Release(&b[k]);
    free(start); free(wid); free(lp);
    return result;
}

static PyObject *viterbi(PyObject *self, PyObject *args) {
    (void)self;
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
    {"vocab_index", vocab_index, METH_VARARGS, "vocab_index(n_chars, n_words, codes, offsets) -> (table, bits, sbits)"},
    {"hits", hits, METH_VARARGS,
     "hits(n, L, n_chars, n_words, bits, sbits, text, codes, offsets, table, logp) -> (ptr, start, wid, lp)"},
    {"viterbi", viterbi, METH_VARARGS,
     "viterbi(n, n_hits, n_words, n_pairs, L, start_wid, unk0, unk1, kind, bonus, hit_ptr, hit_start, hit_wid, "
     "hit_lp, ctx_ptr, ctx_wid, ctx_lp) -> word boundaries"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_viterbi", "The NB segmenter's Viterbi loop in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__viterbi(void) { return PyModule_Create(&module); }
