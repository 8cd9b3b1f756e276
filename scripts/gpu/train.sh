# Train char models on a lent GPU (the tool library's device; 15 minutes of device time a session), from the repo root
# there: bash scripts/gpu/train.sh SECONDS_OF_TRAINING
# Before, here: python scripts/gpu/pack_data.py LANG --corpus ... --dev ... for each language (runs/gpu/data/), and
# the wheels that the GPU's image lacks (keras==3.15.1 namex optree, for cp312) in .whl/ (README of device). The
# tracked tree (~62 MiB) leaves no room to carry data under the 64 MiB limit: run from a throwaway branch that
# removes models/, tests/, web/, docs/, reports/ and the states no arm resumes from, carrying runs/gpu/data, .whl.
# Each arm (scripts/gpu/stages.py) resumes training_state/<lang>-char under KERAS_BACKEND=torch (cuDNN LSTM) with
# batches of GPU_BATCH (1024) windows; ONLY="gw-es ..." runs those arms alone; W is the width of the gw arms (320).
# What comes back: $OUT/<arm>-<lang>.tar (the last three stages' weights-only states and the log), progress.txt.
# Here: a state goes to training_state/<lang>-char-<arm>; MEMBER=<arm> bash scripts/train_char.sh <lang> 0 1 exports it.
set -u
T0=$(date +%s); train_s=${1:-480}
export PYTHONUNBUFFERED=1 KERAS_BACKEND=torch OMP_NUM_THREADS=2
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 3
  export PYTHONPATH=/tmp/site:$PWD
else export PYTHONPATH=$PWD; fi
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv 2>&1 | tail -1
python3 -c "import keras, torch; print('keras', keras.__version__, keras.backend.backend(), 'torch', torch.__version__, torch.cuda.is_available())" || exit 4
python3 scripts/gpu/unpack_data.py || exit 5
echo "setup $(( $(date +%s) - T0 ))s"
deadline=$(( T0 + train_s ))
C=../shared/corpora
pids=(); arm() {  # ONLY="gw-de ..." runs those arms alone
  [[ " ${ONLY:-$1-$2} " == *" $1-$2 "* ]] || return 0
  python3 scripts/gpu/stages.py "$@" $deadline "$CORPUS" "$DEV" & pids+=($!); }
CORPUS=$C/es/es_congreso_train.tsv.xz DEV=$C/es/es_congreso_dev.tsv.xz; arm g es keep; arm gw es ${W:-320}
CORPUS=$C/ru/ruslit_prose_train.tsv.xz DEV=$C/ru/ruslit_prose_dev.tsv.xz; arm g ru keep; arm gw ru ${W:-320}
CORPUS=$C/vi/viwiki_train.tsv.xz@0.4,$C/vi/dantri_train.tsv.xz@0.3,$C/vi/baomoisapo_train.tsv.xz@0.3
DEV=$C/vi/viwiki_dev.tsv.xz; arm gw vi ${W:-320}
CORPUS=$C/de/de_bundestag_train.tsv.xz DEV=$C/de/de_bundestag_dev.tsv.xz; arm gw de ${W:-320}
( while sleep 20; do { date; nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader; tail -n 3 runs/gpu/*.log; } > $OUT/progress.txt 2>&1; done ) &
prog=$!; wait "${pids[@]}"; kill $prog
sleep 1; { date; tail -n 40 runs/gpu/*.log; } > $OUT/progress.txt 2>&1
echo "all arms done at $(( $(date +%s) - T0 ))s"; ls -la $OUT
