# The commands a newcomer runs:  make run  and  make test  (make test-fast: the tests that need no JVM)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
# The notebook and peers extras (make notebook, make models).
NOTEBOOK_STAMP := $(VENV)/.notebook-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
# The lint extra (make lint).
LINT_STAMP := $(VENV)/.lint-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run extract test test-fast lint install check-java clean models samples

install: $(STAMP)

# pip builds the compiled core (webclean/_core.pyx with its .pxi files, setup.py) into webclean/; again when it changes.
$(STAMP): pyproject.toml setup.py $(wildcard webclean/_core*.pyx webclean/_core*.pxi)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[spark,test]'
	@$(BIN)/webclean --version | tail -n 1
	@rm -f $(VENV)/.installed-* && touch $@

check-java:
	@scripts/check-java

# ruff (the rules of pyproject.toml) over the repository and mypy over webclean/, as CI runs them.
lint: $(LINT_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

$(LINT_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[lint]'
	@rm -f $(VENV)/.lint-* && touch $@

# How every job is submitted on this machine: scripts/submit, pip's spark-submit from
# the venv with the venv's Python and the settings of conf/ (README, "The Spark jobs").
SUBMIT = WEBCLEAN_VENV=$(abspath $(VENV)) scripts/submit

# make extract INPUT=... OUTPUT=... [RUN_DATE=YYYY-MM-DD] [ARGS='--max-error-share 0.05 ...']
# Without RUN_DATE the job writes today's date (UTC). When the job fails, make exits 2
# whatever the job's code, and names that code in its last line ("make: *** [Makefile:...:
# extract] Error 3"); the command it prints, scripts/submit ..., exits with the code itself.
extract: install check-java
	@test -n "$(INPUT)" -a -n "$(OUTPUT)" || { echo "make extract: give INPUT=... and OUTPUT=..." \
	    "(and RUN_DATE=YYYY-MM-DD, ARGS='...' for the job's other options)" >&2; exit 2; }
	$(SUBMIT) jobs/extract.py --input $(INPUT) --output $(OUTPUT) $(if $(RUN_DATE),--run-date $(RUN_DATE)) $(ARGS)

# The extract job on the bundled sample WARC.
run: INPUT = samples/sample.warc.gz
run: OUTPUT = out/sample
run: RUN_DATE = 2026-01-01
run: extract

# The whole suite, as CI runs it (about five minutes on two cores, four of them Spark).
test: install check-java
	PYSPARK_PYTHON=$(abspath $(BIN)/python) $(BIN)/python -m pytest

# Every test that needs no JVM: the library, and the Spark glue's listing and reading of
# inputs (tests/spark/ without the mark spark); no quality gate on the dev data (about a minute).
test-fast: install
	$(BIN)/python -m pytest -m 'not spark and not quality'

clean:
	rm -rf $(VENV) out .pytest_cache webclean/_core.c webclean/_core.*.so build/temp.* build/lib.*

# Rebuild the packaged models from the team's dev data (../shared/data); see webclean/models/README.md.
# Method svm also learns from weak labels: the peers' texts of the snippet pages, which
# scripts/peer_texts.py adds (it needs the peers extra, installed here as for the notebook).
DATA ?= ../shared/data
MODEL_DATA := $(DATA)/cwced_cleaneval.jsonl.gz $(DATA)/cwced_modern.jsonl.gz $(DATA)/readability.jsonl.gz $(DATA)/trafilatura.jsonl.gz
# The default model (svm) learns from every dev set whose licence allows shipping it, the
# modern English and Chinese sets included; not from dragnet, which lowers other sets
# held out when trained on (webclean/models/README.md), nor cleaneval_zh.
MODERN_DATA := $(DATA)/wcxb_dev.jsonl.gz $(DATA)/gne_zh_dev.jsonl.gz $(DATA)/tt_zh_dev.jsonl.gz
WEAK_DATA := build/weak/trafilatura.jsonl.gz
models: install $(NOTEBOOK_STAMP)
	$(BIN)/python scripts/peer_texts.py --input $(DATA)/trafilatura.jsonl.gz --output $(WEAK_DATA)
	$(BIN)/webclean train --method svm --input $(filter-out %/trafilatura.jsonl.gz,$(MODEL_DATA)) $(WEAK_DATA) \
	    $(MODERN_DATA) --output webclean/models/svm
	$(BIN)/webclean train --method paper --input $(MODEL_DATA) --output webclean/models/paper
	$(BIN)/webclean train --method mlp --input $(MODEL_DATA) --output webclean/models/mlp

# Rebuild samples/sample.warc.gz from the dev data (Apache-2.0 and MIT pages); see samples/README.md.
samples: install
	$(BIN)/python samples/build_sample_warc.py --data $(DATA)

# Execute notebooks/evaluation.ipynb in place on the dev data in $(DATA), so that its saved
# outputs are those of this run (its leave-one-set-out comparison with the peers takes most
# of it; the last cell prints the time). Installs the notebook and peers extras into the
# venv, adds the peers' texts to the snippet pages once (as make models does); stops with
# a message when the data are not there.
DEV_SETS := cleaneval_zh cwced_cleaneval cwced_modern readability gne_zh_dev dragnet wcxb_dev trafilatura
.PHONY: notebook
notebook: $(NOTEBOOK_STAMP)
	@for set in $(DEV_SETS); do test -f $(DATA)/$$set.jsonl.gz || { \
	    echo "make notebook: $(DATA)/$$set.jsonl.gz not found; the notebook needs the dev data of ../shared/data" \
	         "beside the repository (or DATA=/path/to/data make notebook). Nothing was run." >&2; exit 2; }; done
	test -f $(WEAK_DATA) || $(BIN)/python scripts/peer_texts.py --input $(DATA)/trafilatura.jsonl.gz --output $(WEAK_DATA)
	WEBCLEAN_DATA=$(abspath $(DATA)) nice -n 10 $(BIN)/jupyter nbconvert --execute --to notebook --inplace \
	    --ExecutePreprocessor.timeout=7200 --ExecutePreprocessor.kernel_name=python3 notebooks/evaluation.ipynb

$(NOTEBOOK_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[notebook,peers]'
	@rm -f $(VENV)/.notebook-* && touch $@
