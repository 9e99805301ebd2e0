# Pictures of Zab runs (docs/pictures.md): a simulator schedule or a real
# run drawn as a timeline page to step through in a browser.
.PHONY: sim-html trace-html pictures pictures-bins

SEED      ?=
BUG       ?=
VOTERS    ?=
OBSERVERS ?=
STEPS     ?=
SILENT_CRASHES ?=
FINALIZE_WAIT  ?=
SIM_HTML  ?= data/sim/$(if $(SEED),seed$(SEED),first-failing)$(if $(BUG),-$(BUG)).html
# make run TRACE=1: every peer writes its Zab trace to TRACE_DIR.
TRACE     ?=
TRACE_DIR ?= data/trace
RUN_TRACE  = $(if $(filter 1 yes true,$(TRACE)),--trace-dir $(TRACE_DIR))

pictures-bins:
	@mkdir -p bin
	$(GO) build -o bin/ ./cmd/zab-sim ./cmd/zab-trace

# A failing seed still writes its page: zab-sim exits 1 then, 2 on bad flags.
# BUG without SEED searches 2000 seeds; a bug that needs a schedule shape
# to show (zab-sim --help, docs/pictures.md) sets it unless it is given.
sim-html: pictures-bins ## draw a simulator schedule: make sim-html SEED=42 [BUG=commit-without-quorum] [VOTERS=3 OBSERVERS=0 STEPS=20 SILENT_CRASHES=1 FINALIZE_WAIT=10ms]
	@mkdir -p $(dir $(SIM_HTML))
	@./bin/zab-sim $(if $(SEED),--seed $(SEED),$(if $(BUG),--seeds 2000,--seed 1)) --html $(SIM_HTML) \
		$(if $(BUG),--bug $(BUG)) $(if $(VOTERS),--voters $(VOTERS)) $(if $(OBSERVERS),--observers $(OBSERVERS)) \
		$(if $(STEPS),--steps $(STEPS)) $(if $(filter 1 yes true,$(SILENT_CRASHES)),--silent-crashes) \
		$(if $(FINALIZE_WAIT),--finalize-wait $(FINALIZE_WAIT)); status=$$?; [ $$status -le 1 ]

# Without traces zab-trace could only print its usage: say where we looked
# and what writes traces there.
trace-html: pictures-bins ## draw the traces of make run TRACE=1 as data/trace/run.html
	$(if $(wildcard $(TRACE_DIR)/peer*.trace),,$(error no traces (peer*.trace) in $(TRACE_DIR): run the ensemble with make run TRACE=1 (kill and restart peers, then stop it) first))
	./bin/zab-trace --html $(TRACE_DIR)/run.html $(sort $(wildcard $(TRACE_DIR)/peer*.trace))

pictures: ## remake the screenshots of docs/pictures/ (needs chromium)
	ZABLAB_PICTURES=$(CURDIR)/docs/pictures ZABLAB_BROWSER_REQUIRED=1 $(GO) test -count=1 -run 'Picture|ViolationPage' \
		./zab/trace/timeline/ ./cmd/zab-trace/ ./internal/histview/
