# Running an ensemble and talking to it (make run, make cli).
.PHONY: run run-single run1 run5 cli run-bins

# The Service the peers run: IMPL if given (make run IMPL=assignment runs
# your own code), else the reference solution where the tree has it and
# the student's where it does not (a student's copy has only theirs). Its own
# variable, since grade.mk's IMPL defaults to assignment.
RUN_IMPL = $(if $(filter command line environment,$(origin IMPL)),$(IMPL),$(if $(wildcard solutions/aufgabe5),solution,assignment))
# Where make cli connects: the client ports of testdata/ensemble3.
SERVER ?= 127.0.0.1:13181,127.0.0.1:13281,127.0.0.1:13381

run-bins:
	@mkdir -p bin
	$(GO) build -o bin/ ./cmd/mwzk-server ./cmd/mwzk-run ./cmd/mwzk-cli # the banner offers ./bin/mwzk-cli

run: run-bins ## 3-peer MWZooKeeper ensemble of testdata/ensemble3 in the foreground (Ctrl-C stops it); IMPL=assignment runs your own Service (the default where there is no reference); TRACE=1 traces it
	./bin/mwzk-run --ensemble testdata/ensemble3 --bin bin/mwzk-server --impl $(RUN_IMPL) $(RUN_TRACE)

run-single: run-bins ## one replica on its own (SingleZab: what A5.1 needs) of testdata/standalone (client port 10181)
	./bin/mwzk-run --ensemble testdata/standalone --bin bin/mwzk-server --impl $(RUN_IMPL)

run1: run-bins ## the 1-peer ensemble of testdata/ensemble1 (client port 11181)
	./bin/mwzk-run --ensemble testdata/ensemble1 --bin bin/mwzk-server --impl $(RUN_IMPL)

run5: run-bins ## the 5-peer ensemble of testdata/ensemble5 (client ports 15181..15581)
	./bin/mwzk-run --ensemble testdata/ensemble5 --bin bin/mwzk-server --impl $(RUN_IMPL)

cli: ## the mwzk-cli shell on make run's ensemble; CMD="ls /" runs one command, SERVER=host:port,... another ensemble
	@mkdir -p bin
	@$(GO) build -o bin/ ./cmd/mwzk-cli
	@./bin/mwzk-cli -server $(SERVER) $(CMD)
