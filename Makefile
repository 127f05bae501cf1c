# pulumi-fleet: Pulumi components for EKS fleets managed by Argo CD (GitOps Bridge pattern).
GO ?= go

.PHONY: all build vet test test-components

all: build test

## build: compile every package (components, examples, test doubles)
build:
	$(GO) build ./...

## vet: static checks
vet:
	$(GO) vet ./...

## test: vet, then every test (the README's test command; CI runs it)
test: vet
	$(GO) test -count=1 ./...

## test-components: the component unit tests only
test-components:
	$(GO) test -count=1 ./components/...
