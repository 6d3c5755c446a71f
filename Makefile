# Every target creates .venv when it is missing and installs what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNS := $(VENV)/.installed-run
TESTS := $(VENV)/.installed-test

.PHONY: run test lint bench wiring install-service pi-check clean

# What running needs; on a Pi, companion/host/installing.py also chooses where lgpio comes from.
$(RUNS): pyproject.toml companion/host/installing.py
	$(PYTHON) companion/host/installing.py $(VENV)
	@touch $@

# ... and the test tools.
$(TESTS): $(RUNS) firmware/pod/requirements.txt
	$(PYTHON) companion/host/installing.py $(VENV) test
	@touch $@

# make run: the simulated table; make run SENSORS=none: phones only (AIR_C=24: the room's air).
run: $(RUNS)
	$(BIN)/companion run $(if $(filter none,$(SENSORS)),--no-sensors,--simulate)$(if $(PORT), --port $(PORT))$(if $(SPEED), --speed $(SPEED))$(if $(STATE_DIR), --state-dir $(STATE_DIR))$(if $(AIR_C), --air-c $(AIR_C))

lint: $(TESTS)
	$(BIN)/ruff check companion tests bench
	$(BIN)/ruff format --check companion tests bench
	$(BIN)/mypy

# Four pytest-xdist workers, each test given to the first one free (worksteal): the tests
# wait for daemons, brokers and browsers as much as they compute, so four keep two cores busy
# (docs/developing.md). make test WORKERS=0: one process, in order.
WORKERS ?= 4
# Python's bytecode cache, even where the environment turns it off: without it each of the
# tests' daemons compiles every module again, a third of its start.
test: export PYTHONDONTWRITEBYTECODE =
test: lint
	$(BIN)/python -m pytest -n $(WORKERS) $(if $(filter-out 0,$(WORKERS)),--dist worksteal)

bench: $(TESTS)
	$(BIN)/python -m bench

install-service: $(RUNS)
	sudo $(BIN)/companion install-service

wiring: $(RUNS)
	$(BIN)/companion wiring --svg wiring/header.svg > wiring/pins.md
	$(BIN)/companion wiring --config wiring/pod-build.toml --svg wiring/header-pod-build.svg \
		--pod-table wiring/pod-pins.md --pod-svg wiring/pod.svg > wiring/pins-pod-build.md

# Not part of `make test`: emulated Raspberry Pi OS bases, as root, and a long while (README).
pi-check:
	pi-check/run

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .ruff_cache .mypy_cache
