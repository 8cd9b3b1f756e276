#!/usr/bin/env bash
# Train (or continue) the char E2E model of one language, then export it, tune decoding and evaluate on dev.
#   bash scripts/train_char.sh en 120      # language, minutes of training in this stage
#   bash scripts/train_char.sh en 0        # no training: export, tune and evaluate the current state
#   bash scripts/train_char.sh gu 60 1     # optional third argument: TensorFlow threads (to share the CPU)
#   bash scripts/train_char.sh gu 60 1 5e-4  # optional fourth: continue at this learning rate (a manual decay stage)
#   MEMBER=b bash scripts/train_char.sh gu 68 1   # a further ensemble member (runs/char-gu-b, its own seed)
#   MEMBER=student TEACHER=models/gu/char.onnx HARD=0.5 bash scripts/train_char.sh gu 90 1
#       # a distilled student (runs/char-gu-student): targets HARD * gold + (1 - HARD) * the teacher's probabilities
#   bash scripts/train_char.sh deru 60 1   # a multilingual recipe: one model that several packs share, exported
#       once into runs/char-deru/data-root/models/deru (not shipped; there the packs name deru/char), tuned and
#       evaluated per pack (the card's section of each)
#   TRAIN_ONLY=1 bash scripts/train_char.sh de 40 1 2e-3   # train only (its state is left for a later stage's
#       export, tune and evaluation)
#   FROM=STATE warm-starts a run (or MEMBER) that has no state yet from another state's weights and vocabulary
# Each stage resumes from training_state/<lang>-char[-<member>]/ (committed, weights-only: the last epoch's
# weights, RNG, vocabulary; Adam restarts at the saved learning rate, see models/README.md) and leaves the new
# state there. Corpora come from ../shared/corpora and are never committed.
# The export takes the main run plus every trained member that the language lists: one averaged model.
# Any other MEMBER (a student) is exported, tuned and evaluated alone in its own models root, runs/char-<lang>-<member>/
# models (beside a link to the shipped NB segmenter), never into models/. TEACHER (HARD defaults to 0.5) needs such
# a MEMBER: the teacher must not be overwritten by, or averaged with, its student.
set -euo pipefail
cd "$(dirname "$0")/.."
lang=${1:?language}; minutes=${2:-120}; threads=${3:-0}; set_lr=${4:-}
C=../shared/corpora
main=runs/char-$lang
run=$main${MEMBER:+-$MEMBER}; state=training_state/$lang-char${MEMBER:+-$MEMBER}
members=(); declare -A member_opts=()  # a member's options, added to the language's
langs=("$lang"); multi=  # a multilingual recipe names its packs
declare -A devof=([de]=$C/de/de_bundestag_dev.tsv.xz [ru]=$C/ru/ruslit_prose_dev.tsv.xz)
case $lang in
  # en: the token model's mix and weights (docs/results.md, learning curve), every spoken corpus of the new data
  # included; the first 28 epochs (training_state/en-char before issue 21) had only the first five corpora
  en) corpus=("$C/en/ted_train.tsv@8" "$C/en/public_domain/gutenberg_books.tsv@0.6"
              "$C/en/public_domain/state_of_the_union_1945_2006.tsv@0.6"
              "$C/en/public_domain/inaugural_addresses_1789_2021.tsv@0.3" "$C/en/brown_train_docs.tsv@0.5"
              "$C/en/ted_extra.tsv@0.7" "$C/en/scotus_oral_arguments.tsv@1.78333"
              "$C/en/earnings_calls.tsv@0.891667" "$C/en/ami_meetings.tsv@0.891667")
      data=(--dev "$C/en/ted_dev.tsv"); opts=(--spaced 0.2 --conv 160 --lstm 192)
      tune=(--dev "$C/en/ted_dev.tsv"); evals=("ted_dev --dev $C/en/ted_dev.tsv") ;;
  ja) corpus=("$C/ja/asdc_train.tsv@3" "$C/ja/jaquad_wiki_paragraphs_train.tsv@3" "$C/ja/jaquad_questions_train.txt@1")
      data=(--dev "$C/ja/asdc_dev.tsv" "$C/ja/jaquad_wiki_paragraphs_dev.tsv" "$C/ja/jaquad_questions_dev.txt")
      opts=(--min-count 3 --conv 96)
      tune=(--dev "$C/ja/asdc_dev.tsv")
      evals=("asdc_dev --dev $C/ja/asdc_dev.tsv" "jaquad_dev --dev $C/ja/jaquad_wiki_paragraphs_dev.tsv $C/ja/jaquad_questions_dev.txt"
             "ud_gsd_dev --dev $C/ja/ud_gsd_dev.txt") ;;
  gu) corpus=("$C/gu/gu_wiki_train.tsv@1" "$C/gu/gu_wiki_village_stubs.tsv@0.05")
      data=(--dev-holdout 50); opts=(--min-count 3 --conv 96)
      members=(b); member_opts=([b]="--dropout 0.2 --seed 2" [student]="--conv 160 --lstm 192 --seed 3")
      # the held-out articles (id % 50 == 0) in two halves: decoding is tuned on one, the numbers come from the other
      tune=(--dev "$C/gu/gu_wiki_train.tsv" --holdout 100)
      evals=("gu_wiki_test --dev $C/gu/gu_wiki_train.tsv --holdout 100:50"
             "gu_wiki_tune --dev $C/gu/gu_wiki_train.tsv --holdout 100") ;;
  # de, ru: the per-language arms of issue 46's pilot (one training file each, xz; dev: whole sessions or works)
  de) corpus=("$C/de/de_bundestag_train.tsv.xz"); dev=${devof[de]}
      data=(--dev "$dev"); opts=(--min-count 3 --conv 160 --lstm 192); tune=(--dev "$dev"); evals=("de_dev --dev $dev")
      member_opts=([gw]="--set-lstm 320") ;;
  # ru epochs 38-39 (session 42): MEMBER=e FROM=training_state/ru-char (epoch 37), the pack reading "!" and "…"
  # before a small letter as a comma ([map_before_lower]); e shipped and its state became training_state/ru-char
  ru) corpus=("$C/ru/ruslit_prose_train.tsv.xz"); dev=${devof[ru]}
      data=(--dev "$dev"); opts=(--min-count 3 --conv 160 --lstm 192); tune=(--dev "$dev"); evals=("ru_dev --dev $dev")
      member_opts=([e]="" [w]="--set-lstm 256" [g]="" [gw]="--set-lstm 320" [m]="--set-batch 256")
      # session 67's m (not shipped: docs/results.md): FROM= the epoch-67 state (git checkout a30c7b6 --
      # training_state/ru-char), modern text beside the prose: nine in ten of Debian's Russian fortunes
      # (runs/fortunes/ru-train.tsv; every 10th is the sample that measures) and Debian's books
      # (scripts/handbook_text.py --lang ru); runs/, never committed
      [ "${MEMBER:-}" = m ] && corpus=("$C/ru/ruslit_prose_train.tsv.xz@0.85" "runs/fortunes/ru-train.tsv@0.1"
                                       "runs/handbook/ru_train.tsv@0.05") ;;
  # ru and es, session 44's w: FROM=training_state/<lang>-char (ru epoch 45, es epoch 25), the BiLSTM widened from
  # 192 to 256 units a direction (the new units start silent: training/widen.py); session 46's second cycle of ru's w
  # (epochs 52-55) and vi's wide (35-38): the same member FROM= the shipped state, one epoch each at 5e-4, 2.5e-4,
  # 1.25e-4 and 6.25e-5 (--set-lstm on a state that has 256 units changes nothing); session 47: two such cycles of
  # es's w (epochs 32-35 from the shipped epoch 31, then 36-39 from its own state)
  # es, fr, vi (issue 46): per-language arms as de and ru (vi: the openly licensed Wikipedia text trains; the news
  # sets, research use only, were dev sets at first and train from epoch 15 on, below)
  # es from epoch 5 on: a tenth of the windows begin at a sentence's start (the input's start opened no question)
  es) corpus=("$C/es/es_congreso_train.tsv.xz"); dev=$C/es/es_congreso_dev.tsv.xz
      data=(--dev "$dev"); opts=(--min-count 3 --conv 160 --lstm 192 --starts 0.1); tune=(--dev "$dev")
      evals=("es_dev --dev $dev"); member_opts=([w]="--set-lstm 256" [g]="" [gw]="--set-lstm 320") ;;
  # fr: the novels are memorised after 21 epochs (train loss 0.103, dev 0.173); session 41's dropout arm d:
  # FROM=training_state/fr-char (epoch 21), dropout 0.3 from epoch 22 on; it lost to no dropout (docs/results.md);
  # session 42's e and f: FROM= the epoch-18 state (commit 8533756), one epoch at 5e-4 and one at 2.5e-4; e read by a
  # copy of the pack (CHARRESTORE_DATA) with ru's [map_before_lower], f by the pack as it is; both lost;
  # session 43's g: as e, the copy also with ru's [map_after_sentence_end]; g shipped (the pack took both tables)
  # and its state became training_state/fr-char
  fr) corpus=("$C/fr/eltec_novels_train.tsv.xz"); dev=$C/fr/eltec_novels_dev.tsv.xz
      data=(--dev "$dev"); opts=(--min-count 3 --conv 160 --lstm 192); tune=(--dev "$dev"); evals=("fr_dev --dev $dev")
      # session 67's m (not shipped: docs/results.md): FROM= the epoch-20 state (git checkout 06ec305 --
      # training_state/fr-char), a tenth of the windows from modern prose (Debian's books,
      # scripts/handbook_text.py --lang fr; runs/, never committed)
      member_opts=([d]="--set-dropout 0.3" [e]="" [f]="" [g]="" [m]="")
      [ "${MEMBER:-}" = m ] && corpus=("$C/fr/eltec_novels_train.tsv.xz@0.9" "runs/handbook/fr_train.tsv@0.1") ;;
  # vi: Wikipedia alone for epochs 1-14; from epoch 15 on, session 39's pilot (do the news sets matter? their README:
  # only where a learning curve shows it) chose a fifth each of the two news sets: from the epoch-14 state
  # (FROM=training_state/vi-char at commit 9abdc13), w went on with Wikipedia alone, n with the news; n shipped
  vi) wiki=$C/vi/viwiki_train.tsv.xz
      corpus=("$wiki@0.6" "$C/vi/dantri_train.tsv.xz@0.2" "$C/vi/baomoisapo_train.tsv.xz@0.2")
      dev=("$C/vi/viwiki_dev.tsv.xz" "$C/vi/dantri_dev.tsv.xz" "$C/vi/baomoisapo_dev.tsv.xz")
      # the bias grid goes on to 4: the default grid's top (2.0) was once the choice for "," and "?";
      # decoding is tuned on the three dev sets (session 45: for the epoch-29 model, Wikipedia's choice is theirs too)
      data=(--dev "${dev[0]}"); opts=(--min-count 3 --conv 160 --lstm 192)
      tune=(--dev "${dev[@]}" --biases -1 -0.5 0 0.25 0.5 0.75 1 1.5 2 2.5 3 4)
      evals=("viwiki_dev --dev ${dev[0]}" "dantri_dev --dev ${dev[1]}" "baomoi_dev --dev ${dev[2]}")
      # session 45's wide: FROM=training_state/vi-char (epoch 29), the BiLSTM widened from 192 to 256 as ru and es
      # (epochs 30-34); session 46's second cycle of wide, epochs 35-38, as ru's (above)
      # session 47's nw: FROM= the epoch-38 state, the news sets weighed up to 0.3 each (Wikipedia 0.4), one cycle
      # (epochs 39-42, shipped; a second, 43-46, scored lower: docs/results.md)
      member_opts=([w]="" [n]="" [wide]="--set-lstm 256" [nw]="" [gw]="--set-lstm 320"); [ "${MEMBER:-}" = w ] && corpus=("$wiki")
      [[ "${MEMBER:-}" == nw || "${MEMBER:-}" == gw ]] && corpus=("$wiki@0.4" "$C/vi/dantri_train.tsv.xz@0.3" "$C/vi/baomoisapo_train.tsv.xz@0.3") ;;
  # session 48, a lent GPU (scripts/gpu/train.sh): from each shipped state, KERAS_BACKEND=torch, batches of
  # 1024, one stage each at 1e-3, 5e-4, 2.5e-4, 1.25e-4 and 6.25e-5 (Adam kept between stages); g keeps the width,
  # gw widens to 320 units (es, ru, vi with nw's weights, de from 192); a state that came back goes to
  # training_state/<lang>-char-g|gw, and MEMBER=g|gw bash scripts/train_char.sh <lang> 0 1 seeds, exports, tunes, scores it
  # ko, zh, th (issue 47): source weights are sampling shares; the small spoken or news-like files are weighted up
  # ko epochs 13-19 (session 49): from the epoch-12 state, 2e-3 then 5e-4 and 2.5e-4 (the state: models/README.md)
  ko) corpus=("$C/ko/kowiki_train.tsv.xz@0.75" "$C/ko/boddari_train.tsv.xz@0.17" "$C/ko/petitions_train.tsv.xz@0.08")
      dev=("$C/ko/kowiki_dev.tsv.xz" "$C/ko/boddari_dev.tsv.xz" "$C/ko/petitions_dev.tsv.xz")
      data=(--dev "${dev[@]}"); opts=(--min-count 3 --conv 160 --lstm 192); tune=(--dev "${dev[@]}")
      # session 51's wide: FROM= the epoch-19 state (git checkout 2ec8b16 -- training_state/ko-char), 192 -> 256 units
      member_opts=([wide]="--set-lstm 256")
      evals=("kowiki_dev --dev ${dev[0]}" "boddari_dev --dev ${dev[1]}" "petitions_dev --dev ${dev[2]}") ;;
  # zh: law 0.45, wiki 0.35, dialogue 0.2 for epochs 1-4; from epoch 5 wiki and dialogue weigh more (wiki "。" 0.487)
  zh) corpus=("$C/zh/law_train.tsv.xz@0.35" "$C/zh/wiki_train.tsv.xz@0.4" "$C/zh/dialogue_train.tsv.xz@0.25")
      dev=("$C/zh/law_dev.tsv.xz" "$C/zh/wiki_dev.tsv.xz" "$C/zh/dialogue_dev.tsv.xz")
      # decoding is tuned on wiki and dialogue (law, 85% of the dev text, pulled "。" down to 0.34 on wiki)
      data=(--dev "${dev[@]}"); opts=(--min-count 3 --conv 160 --lstm 192); tune=(--dev "${dev[@]:1}")
      # the dropout pilot of session 38 (Wikipedia is memorised; docs/results.md): MEMBER=c|d FROM= the epoch-8 state,
      # the same windows; d's state then became training_state/zh-char (dropout 0.3 from epoch 9 on)
      # session 45's wide: FROM= the epoch-16 state (git checkout c659eab -- training_state/zh-char), 192 -> 256 units
      member_opts=([c]="" [d]="--set-dropout 0.3" [wide]="--set-lstm 256")
      evals=("law_dev --dev ${dev[0]}" "wiki_dev --dev ${dev[1]}" "dialogue_dev --dev ${dev[2]}") ;;
  # th epochs 5-16 (session 50): from the epoch-4 state, TRAIN_ONLY=1 ... th 50 2 2e-3 (epochs 5-14), then th 1 2 5e-4
  # and th 1 2 2.5e-4; epochs 17-21: th 12 2 1e-3 (17-19), th 1 2 5e-4, th 1 2 2.5e-4; epochs 22-26 (session 51) the
  # same, then th 0 2 (the state: models/README.md)
  th) corpus=("$C/th/thaigov_train.tsv.xz"); dev=$C/th/thaigov_dev.tsv.xz
      data=(--dev "$dev"); opts=(--min-count 3 --conv 160 --lstm 192); tune=(--dev "$dev"); evals=("thaigov_dev --dev $dev") ;;
  # the pilot's multilingual arm: one model (one vocabulary) for de and ru, the two training files at equal weight
  # (issue 46's pilot: docs/results.md)
  deru) langs=(de ru); multi=1
      corpus=("de:$C/de/de_bundestag_train.tsv.xz" "ru:$C/ru/ruslit_prose_train.tsv.xz")
      data=(--dev "de:${devof[de]}" "ru:${devof[ru]}"); opts=(--min-count 3 --conv 160 --lstm 192) ;;
  *) echo "no recipe for $lang" >&2; exit 2 ;;
esac
alone=; teach=()
if [ -n "${MEMBER:-}" ]; then
  [ -n "${member_opts[$MEMBER]+set}" ] || { echo "no recipe for member $MEMBER of $lang" >&2; exit 2; }
  [[ " ${members[*]} " == *" $MEMBER "* ]] || alone=1
  # a member shares the main run's vocabulary (its meta.json), so that the two can be averaged; a student reads
  # the vocabulary of its teacher, the shipped model of the main run and its members
  opts+=(${member_opts[$MEMBER]}); mkdir -p "$run/data"
  # (gu ships its student: its own state holds that vocabulary; the members' states are in the history, models/README.md)
  # (FROM, a state out of the tree, brings its own)
  vocab=training_state/$lang-char; [ -f "${FROM:-}/meta.json" ] && vocab=$FROM; [ -f "$state/meta.json" ] && vocab=$state
  [ -f "$run/data/meta.json" ] || cp "$vocab/meta.json" "$run/data/meta.json"
fi
if [ -n "${TEACHER:-}" ]; then
  [ -n "$alone" ] || { echo "TEACHER needs a MEMBER outside the ensemble (${members[*]:-none})" >&2; exit 2; }
  teach=(--teacher "$TEACHER" --hard "${HARD:-0.5}")
fi
if [ "$minutes" != 0 ]; then
  resume=(); [ -f "$state/state.json" ] && resume=(--resume-from "$state")
  [ -z "${resume[*]}" ] && [ -n "${FROM:-}" ] && resume=(--resume-from "$FROM")
  [ -n "$set_lr" ] && resume+=(--set-lr "$set_lr")
  charrestore train char --lang "${langs[@]}" --corpus "${corpus[@]}" "${data[@]}" "${opts[@]}" \
    "${teach[@]}" --out "$run" --max-minutes "$minutes" --threads "$threads" --save-state "$state" \
    --state-weights-only "${resume[@]}"
elif [ -n "${MEMBER:-}" ] && [ -f "$state/state.json" ]; then  # export only: the member's folder takes its committed
  # state (one trained elsewhere, on a lent GPU, has no folder here yet), no epoch trained
  charrestore train char --lang "${langs[@]}" --corpus "${corpus[@]}" "${data[@]}" "${opts[@]}" --out "$run" \
    --epochs 0 --threads "$threads" --resume-from "$state"
fi
[ -n "${TRAIN_ONLY:-}" ] && exit 0
if [ -n "$multi" ]; then  # not shipped: one model that the packs share, in a data folder of its own (runs/char-
  # <recipe>/data-root: the packs copied to name <recipe>/char, their NB counts linked), tuned and scored per pack
  root=$run/data-root; export CHARRESTORE_DATA=$PWD/$root; scratch=(--out "$run/eval" --reports "$run/reports")
  for l in "${langs[@]}"; do
    mkdir -p "$root/languages/$l" "$root/models/$l"; ln -sf "$PWD"/models/"$l"/nb.* "$root/models/$l/"
    sed "s|^char = .*|char = \"$lang/char\"|" "languages/$l/pack.toml" > "$root/languages/$l/pack.toml"
  done
  charrestore export char --run "$run" --lang "${langs[@]}" --out "$root/models/$lang"
  python scripts/dequantize_models.py "$root/models/$lang/char.onnx"
  for l in "${langs[@]}"; do
    charrestore tune char --lang "$l" --dev "${devof[$l]}" --write-card
    python scripts/eval_char.py --lang "$l" --set "${l}_dev" --dev "${devof[$l]}" "${scratch[@]}" --card
  done
  exit 0
fi
if [ -n "$alone" ]; then
  root=$run/models; runs=("$run"); mkdir -p "$root/$lang"
  for f in models/"$lang"/nb.* models/"$lang"/proper.*; do if [ -f "$f" ]; then ln -sf "$PWD/$f" "$root/$lang/"; fi; done
  where=(--models-dir "$root"); scratch=(--out "$run/eval" --reports "$run/reports")
else
  root=models; runs=("$main"); where=(); scratch=()
  for m in "${members[@]}"; do [ -f "$main-$m/state.json" ] && runs+=("$main-$m"); done
fi
charrestore export char --run "${runs[@]}" --lang "$lang" --out "$root/$lang"
python scripts/dequantize_models.py "$root/$lang/char.onnx"  # per-window int8, as shipped (batch-independent)
charrestore tune char --lang "$lang" "${tune[@]}" "${where[@]}" --write-card
for e in "${evals[@]}"; do
  set -- $e; name=$1; shift
  python scripts/eval_char.py --lang "$lang" --set "$name" "$@" "${where[@]}" "${scratch[@]}" --card
done
