# The student's handout (instructors only: this file is not in the handout).
.PHONY: handout handout-parity

HANDOUT      ?= handout/aufgabe5.tar.gz
# Empty: the check's make test runs the whole tree, as a student does.
HANDOUT_PKGS ?=

handout: ## build handout/aufgabe5.tar.gz (no solutions/), then in a temp folder: build, vet, make test and make grade on the stubs and again with the reference copied in
	$(GO) run ./cmd/mwzk-handout --out $(HANDOUT) $(if $(HANDOUT_PKGS),--test-pkgs "$(HANDOUT_PKGS)")

handout-parity: ## check that assignments/aufgabe5 has the files and declarations of solutions/aufgabe5
	$(GO) run ./cmd/mwzk-handout --parity
