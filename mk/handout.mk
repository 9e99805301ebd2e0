# The student's handout (instructors only: this file is not in the handout).
.PHONY: handout handout-parity

HANDOUT      ?= handout/aufgabe5.tar.gz
HANDOUT_PKGS ?= ./assignments/... ./mwzookeeper/...

handout: ## build handout/aufgabe5.tar.gz (no solutions/), then build, vet, test and grade it in a temp folder
	$(GO) run ./cmd/mwzk-handout --out $(HANDOUT) --test-pkgs "$(HANDOUT_PKGS)"

handout-parity: ## check that assignments/aufgabe5 has the files and declarations of solutions/aufgabe5
	$(GO) run ./cmd/mwzk-handout --parity
