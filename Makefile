# The two commands a newcomer runs:  make run  and  make test
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
# The notebook and peers extras (make notebook, make models).
NOTEBOOK_STAMP := $(VENV)/.notebook-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test install check-java clean models samples

install: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[spark,test]'
	@rm -f $(VENV)/.installed-* && touch $@

check-java:
	@scripts/check-java

run: install check-java
	PYSPARK_PYTHON=$(abspath $(BIN)/python) $(BIN)/spark-submit --properties-file conf/spark-defaults.conf \
	    --driver-java-options "-Dlog4j.configurationFile=conf/log4j2.properties" \
	    jobs/extract.py --input samples/sample.warc.gz --output out/sample --run-date 2026-01-01

test: install check-java
	PYSPARK_PYTHON=$(abspath $(BIN)/python) $(BIN)/python -m pytest

clean:
	rm -rf $(VENV) out .pytest_cache

# Rebuild the packaged models from the team's dev data (../shared/data); see webclean/models/README.md.
# Method svm also learns from weak labels: the peers' texts of the snippet pages, which
# scripts/peer_texts.py adds (it needs the peers extra, installed here as for the notebook).
DATA ?= ../shared/data
MODEL_DATA := $(DATA)/cwced_cleaneval.jsonl.gz $(DATA)/cwced_modern.jsonl.gz $(DATA)/readability.jsonl.gz $(DATA)/trafilatura.jsonl.gz
WEAK_DATA := build/weak/trafilatura.jsonl.gz
models: install $(NOTEBOOK_STAMP)
	$(BIN)/python scripts/peer_texts.py --input $(DATA)/trafilatura.jsonl.gz --output $(WEAK_DATA)
	$(BIN)/webclean train --method svm --input $(filter-out %/trafilatura.jsonl.gz,$(MODEL_DATA)) $(WEAK_DATA) \
	    --output webclean/models/svm
	$(BIN)/webclean train --method paper --input $(MODEL_DATA) --output webclean/models/paper
	$(BIN)/webclean train --method mlp --input $(MODEL_DATA) --output webclean/models/mlp

# Rebuild samples/sample.warc.gz from the dev data (Apache-2.0 and MIT pages); see samples/README.md.
samples: install
	$(BIN)/python samples/build_sample_warc.py --data $(DATA)

# Execute notebooks/evaluation.ipynb in place on the dev data in $(DATA), so that its saved
# outputs are those of this run (about twelve minutes, one core). Installs the notebook and
# peers extras into the venv; stops with a message when the data are not there.
DEV_SETS := cleaneval_zh cwced_cleaneval cwced_modern readability trafilatura
.PHONY: notebook
notebook: $(NOTEBOOK_STAMP)
	@for set in $(DEV_SETS); do test -f $(DATA)/$$set.jsonl.gz || { \
	    echo "make notebook: $(DATA)/$$set.jsonl.gz not found; the notebook needs the dev data of ../shared/data" \
	         "beside the repository (or DATA=/path/to/data make notebook). Nothing was run." >&2; exit 2; }; done
	WEBCLEAN_DATA=$(abspath $(DATA)) nice -n 10 $(BIN)/jupyter nbconvert --execute --to notebook --inplace \
	    --ExecutePreprocessor.timeout=3600 --ExecutePreprocessor.kernel_name=python3 notebooks/evaluation.ipynb

$(NOTEBOOK_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[notebook,peers]'
	@rm -f $(VENV)/.notebook-* && touch $@
