# Grading with the conformance suite (mwzookeeper/conformance, cmd/mwzk-grade).
.PHONY: grade grade-list grade-a5.1 grade-a5.2 grade-a5.3 grade-a5.4 grade-a5.5 grade-a5.6 grade-a5.7

IMPL       ?= assignment
REPEAT     ?= 1
PART       ?=
SUBMISSION ?=
REF        ?=
EXTRA      ?=
RUN        ?=
RACE       ?=
# grade-a5.N's go test: the race detector unless RACE=0, as make grade.
RACE_ON     = $(if $(RACE),$(call on,$(RACE),RACE),1)
NO_SANDBOX ?=
# on reads switch $(2)'s value $(1): 1 for 1, yes, true or on; nothing for
# 0, no, false, off or no value; any other word, or more than one, stops make. RACE=0 had
# turned the race detector on (a word at all was on), and NO_SANDBOX=off
# ran the hand-ins outside the sandbox.
on = $(if $(1),$(if $(filter-out 1,$(words $(1))),$(error $(2)=$(1): want one word, 1 or 0),$(if $(filter 1 yes true on,$(1)),1,$(if $(filter 0 no false off,$(1)),,$(error $(2)=$(1): want 1 or 0 (yes/no, true/false, on/off))))))
# Grading runs under the race detector unless RACE=0 (mwzk-grade's default:
# a data race can rewrite the suite's results); RACE is passed on only when
# given.
RACE_FLAG = $(if $(RACE),$(if $(call on,$(RACE),RACE), --race, --race=false))
# q quotes a make variable's value as one shell word: paths from course
# platforms hold spaces and apostrophes ("Dave O'Brien_1234_…").
q = '$(subst ','\'',$(1))'
# Only the flags given: make echoes the command, and empty continuation lines read as noise.
GRADE_FLAGS = $(if $(PART), --part $(PART))$(if $(SUBMISSION), --submission $(call q,$(SUBMISSION)))$(if $(REF), --ref $(call q,$(REF)))$(if $(EXTRA), --extra $(call q,$(EXTRA)))$(if $(TIMEOUT), --timeout $(call q,$(TIMEOUT)))$(if $(GRADE_JSON), --json $(call q,$(GRADE_JSON)))$(if $(call on,$(NO_SANDBOX),NO_SANDBOX), --no-sandbox)$(RACE_FLAG)
GRADE_DIR   = ./$(if $(filter solution,$(IMPL)),solutions,assignments)/aufgabe5/

grade: ## points per part, under the race detector: make grade [SUBMISSION=hand-in.tar.gz|folder|repo [REF=tag]] [PART=A5.2] [REPEAT=n] [TIMEOUT=15m] [NO_SANDBOX=1] [RACE=0]
	@test -z "$(RUN)" || { echo "make grade: RUN=$(RUN) selects one test only in make grade-a5.1 ... grade-a5.7 (make grade-a5.1 RUN=$(RUN)); make grade grades whole parts (PART=A5.1)" >&2; exit 2; }
	$(GO) run ./cmd/mwzk-grade --impl $(IMPL) --repeat $(REPEAT)$(GRADE_FLAGS)

grade-list: ## the parts and tests of the grading, with their points
	$(GO) run ./cmd/mwzk-grade --list

# grade-a5.N runs one part's tests with go test's own verbose output, for
# working on that part: make grade-a5.1 [RUN=TreeOperations] [RACE=0]. As in
# make grade, the race detector runs (RACE=0: without) and stops at its
# first report: one race is enough to fix, and a racy Service can print
# hundreds.
# go test says only "no test files" (and succeeds) where the grader's test
# file is gone, so its absence is said first; then the code is checked as
# make grade checks it (imports, directives), so a refusal shows here too.
define grade-part
@test -f $(GRADE_DIR)conformance_test.go || { echo "make grade-a5.$(1): $(GRADE_DIR)conformance_test.go is missing: the grader's tests live there; restore it (from the handout's tarball, or git checkout)" >&2; exit 2; }
@$(GO) run ./cmd/mwzk-grade --check-code --impl $(IMPL) --part A5.$(1)$(if $(RUN), --run $(call q,$(RUN)))
MWZK_GRADE=1 $(if $(RACE_ON),GORACE=halt_on_error=1 )$(GO) test$(if $(RACE_ON), -race) -count=1 -v -timeout 5m -run 'TestConformance/^A5\.$(1)$$/$(if $(RUN),^$(RUN)$$)' $(GRADE_DIR)
endef
grade-a5.1: ## one part's tests with their whole output: make grade-a5.1 ... grade-a5.7 [RUN=TestName] [RACE=0]
	$(call grade-part,1)
grade-a5.2:
	$(call grade-part,2)
grade-a5.3:
	$(call grade-part,3)
grade-a5.4:
	$(call grade-part,4)
grade-a5.5:
	$(call grade-part,5)
grade-a5.6:
	$(call grade-part,6)
grade-a5.7:
	$(call grade-part,7)
