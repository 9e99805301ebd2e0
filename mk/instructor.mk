# Instructors' grading targets (not in the student's handout).
.PHONY: grade-all grade-variant

SUBMISSIONS ?=
OUT         ?= grades
J           ?= 1
TIMEOUT     ?= 15m
V           ?=

grade-all: ## grade a folder of hand-ins: make grade-all SUBMISSIONS=dir [OUT=grades] [J=1] [TIMEOUT=15m] [REPEAT=n] [PART=A5.2] [EXTRA=dir] [REF=tag] [NO_SANDBOX=1] [RACE=0]
	@test -n "$(SUBMISSIONS)" || { echo "make grade-all: say which folder: make grade-all SUBMISSIONS=path/to/hand-ins"; exit 2; }
	$(GO) run ./cmd/mwzk-grade --submissions $(call q,$(SUBMISSIONS)) --out $(call q,$(OUT)) -j $(J) --timeout $(TIMEOUT) \
		--repeat $(REPEAT) $(if $(PART),--part $(PART)) $(if $(EXTRA),--extra $(call q,$(EXTRA))) $(if $(REF),--ref $(call q,$(REF))) $(if $(call on,$(NO_SANDBOX),NO_SANDBOX),--no-sandbox)$(RACE_FLAG)

grade-variant: ## grade a known-bad or allowed variant of the reference: make grade-variant V=local-clock [PART=A5.2] [RACE=1]
	@test -n "$(V)" || { echo "make grade-variant: say which: V=$$(ls solutions/variants | sed -n 's/\.diff$$//p' | tr '\n' ' ')"; exit 2; }
	@test -f "solutions/variants/$(V).diff" || { echo "make grade-variant: no variant $(V) (solutions/variants/$(V).diff); the variants: $$(ls solutions/variants | sed -n 's/\.diff$$//p' | tr '\n' ' ')"; exit 2; }
	$(GO) run ./cmd/mwzk-grade --variant solutions/variants/$(V).diff --repeat $(REPEAT) $(if $(PART),--part $(PART))$(RACE_FLAG) --json -
