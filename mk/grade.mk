# Grading with the conformance suite (mwzookeeper/conformance, cmd/mwzk-grade).
.PHONY: grade grade-list grade-a5.1 grade-a5.2 grade-a5.3 grade-a5.4 grade-a5.5 grade-a5.6 grade-a5.7

IMPL       ?= assignment
REPEAT     ?= 1
PART       ?=
GRADE_JSON ?= grade.json
GRADE_DIR   = ./$(if $(filter solution,$(IMPL)),solutions,assignments)/aufgabe5/

grade: ## points per part of Aufgabe 5: make grade [IMPL=assignment|solution] [REPEAT=n] [PART=A5.2]
	$(GO) run ./cmd/mwzk-grade --impl $(IMPL) --repeat $(REPEAT) $(if $(PART),--part $(PART)) --json $(GRADE_JSON)

grade-list: ## the parts and tests of the grading, with their points
	$(GO) run ./cmd/mwzk-grade --list

# grade-a5.N runs one part's tests with go test's own verbose output, for
# working on that part: make grade-a5.1 [IMPL=solution].
grade-part = MWZK_GRADE=1 $(GO) test -count=1 -v -timeout 5m -run 'TestConformance/^A5\.$(1)$$/' $(GRADE_DIR)
grade-a5.1: ## run one part's tests verbosely: make grade-a5.1 ... grade-a5.7 [IMPL=solution]
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
