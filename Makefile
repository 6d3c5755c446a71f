# Every target creates .venv when it is missing and installs what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench wiring install-service clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/companion run --simulate $(if $(PORT),--port $(PORT)) $(if $(SPEED),--speed $(SPEED))

lint: $(STAMP)
	$(BIN)/ruff check companion tests bench
	$(BIN)/ruff format --check companion tests bench
	$(BIN)/mypy

test: lint
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m bench

install-service: $(STAMP)
	sudo $(BIN)/companion install-service

wiring: $(STAMP)
	$(BIN)/companion wiring --svg wiring/header.svg > wiring/pins.md
	$(BIN)/companion wiring --config wiring/pod-build.toml --svg wiring/header-pod-build.svg \
		--pod-table wiring/pod-pins.md --pod-svg wiring/pod.svg > wiring/pins-pod-build.md

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache .mypy_cache
