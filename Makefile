# pulumi-fleet: Pulumi components for EKS fleets managed by Argo CD (GitOps Bridge pattern).
GO ?= go
# The pinned tools' versions (PULUMI_VERSION, KUBE_VERSION, ...): one table for the build, the harness and the docs.
include tests/tools/versions.mk

.PHONY: build-gotestsum build-cli build-eks build-java build-kube build-kwok build-authenticator build-kubeprovider build-argocd iamlint bench-guards bench-status bench-rollout bench-at-size bench-argocd-at-size screenshot all build vet test contract workflows docs java gotestsum prerequisites demo-notice test-components schema sdks release release-sdks provider cli bench offline emulators eks peer demo sdk-check kube kubeprovider argocd

# pulumi-java v1.22.0 and the pulumi v3.228.0 modules it needs are missing from the Go checksum database; their hashes
# are pinned by provider/java/go.sum instead.
JAVA_GO := GONOSUMDB=github.com/pulumi $(GO)
# The contract tests and the tools built from Kubernetes, Argo CD and aws-iam-authenticator
# (tests/tools/{kube,kwok,argocd,authenticator}) are one Go workspace, tests/tools/tools.work: one set of dependency
# versions, so make test compiles each package once (a module at two versions compiles twice, with every package above
# it). The product module matches its versions (tests/tools' TestOneDependencySet). The file is named so that no go
# command finds it by itself.
# Every other go command runs outside any workspace, whatever the caller's environment says.
export GOWORK := off
# Every go command builds with -trimpath (unless GOFLAGS says otherwise): Go's build cache then keys this repository's
# packages by their import paths, not by the clone's folder, so a clean clone reuses what an earlier clone compiled
# (`go vet ./...` in a second clone took 66.6 s without it, every package of the product compiled again). Binaries
# and panics name files by module path.
# And the compiler waits for a larger heap before its first garbage collection (-d=gcstart, in MiB; 128 by default,
# cmd/compile's base.AdjustStartingHeap): measured on the Pulumi Kubernetes SDK's helm/v3 package and what it imports,
# on an empty build cache here, 4000 took 460 CPU-seconds (240 s of wall) where the default took 663 (341), with a
# largest compile of 3.6 GB instead of 3.1; 8000 took no less. It is capped so that the parallel compiles (nproc of
# them) wait for at most half the machine's memory together; where nproc or /proc/meminfo cannot be read, or with
# GC_START=0, the compiler keeps its default.
ifndef GC_START
GC_START := $(shell n=$$(nproc 2>/dev/null) \
	m=$$(awk '/^MemTotal:/ { print int($$2 / 1024) }' /proc/meminfo 2>/dev/null); \
	[ -n "$$n" ] && [ -n "$$m" ] && echo $$(( m / (2 * n) < 4000 ? m / (2 * n) : 4000 )))
endif
export GOFLAGS ?= -trimpath$(if $(GC_START), -gcflags=all=-d=gcstart=$(GC_START))
WORK := $(CURDIR)/tests/tools/tools.work
WORK_GO := GOWORK=$(WORK) $(GO)
# The workspace's files and its members' (the modules it uses, as the go command reads it), on which the tools built in
# it depend.
WORK_FILES := $(WORK) $(WORK).sum $(foreach d,$(shell GOFLAGS= GOWORK=$(WORK) $(GO) list -m -f '{{.Dir}}'),$(d)/go.mod $(d)/go.sum)
COMPONENTS := components/fleet components/capability components/delivery components/ledger components/drain components/tenant components/fleetcluster components/gitopsbridge components/clusterinfo
VERSION ?= 0.1.0
STACK ?= dev
# KUBE: real (a Kubernetes control plane behind each cluster, objects through the real Kubernetes provider), which
# every stack of examples/fleet runs on, or emulated (tests/emulator/kubernetes, no control planes), which the
# benchmarks' largest fleets use.
KUBE ?= real
LDFLAGS := -X github.com/gitops-fleet/pulumi-fleet/provider.version=$(VERSION)
# The pinned tools' binaries (the CLI, the control plane, the Kubernetes provider, Argo CD, the Java language host,
# gotestsum, pulumi-eks's node_modules) are kept outside the clone in TOOL_CACHE, each keyed by what pins it (its
# go.mod and go.sum or the workspace's, its recipe with the version flags, the toolchains): a clean clone on a machine
# that built them once copies them instead of linking them again (tests/tools/cached.sh). TOOL_CACHE= turns it off;
# `rm -rf` it to rebuild them all.
TOOL_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/pulumi-fleet/tools
# cached,<name>,<key files>,<outputs>: make build-<name> once per key (tests/tools/cached.sh).
# The pinned tools and the emulators are linked without DWARF, as the test binaries are (GOTESTSUM): nothing here reads
# their debug information, and a cold run links about twenty of them (Argo CD's link, measured once beside an e2e test:
# 13.4 CPU-seconds instead of 19.9, its binary 248 MB instead of 284). A panic's trace and perf's symbols stay.
TOOL_LDFLAGS := -w
cached = GO="$(GO)" TOOL_CACHE="$(TOOL_CACHE)" MAKE="$(MAKE)" bash tests/tools/cached.sh $(1) $(2) -- $(3) -- build-$(1)

all: build test

## build: compile every package (components, examples, test doubles)
build:
	$(GO) build ./...

## vet: static checks (the product module and the contract test module)
vet:
	$(GO) vet ./...
	cd tests/contract && $(WORK_GO) vet ./...

## test: the README's test command, which CI runs: vet, the tools an offline run needs, the SDK checks, every Go test
## of the product module (the e2e ones through the real CLI on real API servers), the Java tools', the contract,
## workflow and release checks; each step timed, and at the end (failed or not) a table of where the time went: the
## steps, the slowest packages and tests (tests/testreport, from gotestsum's events in $(TEST_OUT)). Its budget, and
## the latest figures: CONTRIBUTING.md. tests/controlplane runs alone, after the others: it kills a control plane and
## starts it again, and kwokctl gives a control plane created meanwhile by another run (it picks ports from 32767
## down) the ports the stopped one starts on again.
TEST_OUT := $(CURDIR)/.work/test
# Test binaries are linked without DWARF (-ldflags=-w): make test links about 50 of them on every run (-count=1), and
# nothing in it reads their debug information (a panic's trace comes from Go's own line tables, which stay).
GOTESTSUM = $(CURDIR)/bin/gotestsum --format pkgname-and-test-fails --format-hide-empty-pkg --jsonfile $(TEST_OUT)/$(1).json -- \
	-ldflags=-w
TEST_REPORT = $(GO) run $(CURDIR)/tests/testreport -steps $(TEST_OUT)/steps.txt $(TEST_OUT)
# timed runs a step of make test: its name ($(1)) and wall seconds go to steps.txt; a failed step prints the report
# so far and fails make test.
timed = @start=$$(date +%s); ( $(2) ); rc=$$?; echo "$(1) $$(( $$(date +%s) - start ))" >> $(TEST_OUT)/steps.txt; \
	if [ $$rc -ne 0 ]; then $(TEST_REPORT); echo "make test: step $(1) failed" >&2; exit $$rc; fi
test:
	@bash tests/prerequisites.sh chromium
	@rm -rf $(TEST_OUT) && mkdir -p $(TEST_OUT)
	$(call timed,vet,$(MAKE) --no-print-directory vet)
	$(call timed,tools,$(MAKE) --no-print-directory offline gotestsum iamlint)
	$(call timed,sdk-check,$(MAKE) --no-print-directory sdk-check)
	$(call timed,go-test,PULUMI_FLEET_CLI=$(CURDIR)/bin/pulumi $(call GOTESTSUM,product) -count=1 -timeout 55m -parallel 64 \
		$$($(GO) list ./... | grep -v /tests/controlplane$$))
	$(call timed,controlplane,$(call GOTESTSUM,controlplane) -count=1 ./tests/controlplane/)
	$(call timed,java-tools,cd provider/java && $(JAVA_GO) test -count=1 ./...)
	$(call timed,contract,cd tests/contract && GOWORK=$(WORK) PULUMI_FLEET_CLI=$(CURDIR)/bin/pulumi $(call GOTESTSUM,contract) -count=1 ./...)
	$(call timed,workflows,cd tests/workflows && $(GO) vet ./... && $(call GOTESTSUM,workflows) -count=1 ./...)
	$(call timed,release,cd tests/release && $(GO) vet ./... && PULUMI_FLEET_CLI=$(CURDIR)/bin/pulumi $(call GOTESTSUM,release) -count=1 -timeout 30m ./...)
	@$(TEST_REPORT)

## gotestsum: gotestsum $(GOTESTSUM_VERSION) (tests/tools/gotestsum), which runs make test's Go tests
gotestsum: bin/gotestsum
bin/gotestsum: tests/tools/gotestsum/go.mod tests/tools/gotestsum/go.sum
	$(call cached,gotestsum,$^,bin/gotestsum)
build-gotestsum:
	cd tests/tools/gotestsum && $(GO) build -ldflags "$(TOOL_LDFLAGS)" -o $(CURDIR)/bin/gotestsum gotest.tools/gotestsum

## iamlint: parliament $(PARLIAMENT_VERSION) and cloudsplaining $(CLOUDSPLAINING_VERSION) from PyPI (tests/tools/iamlint/requirements.txt,
## every dependency pinned) in a venv at bin/iamlint, for tests/iamlint; rebuilt when the requirements change
iamlint: bin/iamlint/.installed
bin/iamlint/.installed: tests/tools/iamlint/requirements.txt
	rm -rf bin/iamlint && python3 -m venv bin/iamlint
	bin/iamlint/bin/pip install --quiet --disable-pip-version-check -r tests/tools/iamlint/requirements.txt
	touch $@

## workflows: the fleet's GitHub Actions pipeline (examples/fleet/.github/workflows) through actionlint v1.7.12 and
## the checks of what each workflow does (tests/workflows, its own module)
workflows:
	cd tests/workflows && $(GO) vet ./... && $(GO) test -count=1 ./...

## contract: the contract tests against Argo CD v3.5.7's own code (tests/contract, its own module): its ApplicationSet
## code over the hub's cluster secrets after `up` of a fleet with every add-on of the catalogue, on the offline cloud;
## its settings manager and Lua VM over StackDelivery's pulumi.com/Stack health check
contract: offline
	cd tests/contract && PULUMI_FLEET_CLI=$(CURDIR)/bin/pulumi $(WORK_GO) test -count=1 ./...

## sdk-check: build and check the generated SDKs as consumers do, and build the TypeScript and Python examples
sdk-check:
	bash tests/sdk/check.sh

## test-components: the component unit tests only
test-components:
	$(GO) test -count=1 ./components/...

## schema: schema descriptions from the Go doc comments (zz_annotate.go), then schema.json from the provider
schema:
	$(GO) run ./provider/cmd/fleet-annotate $(COMPONENTS)
	$(GO) run ./provider/cmd/fleet-schema schema.json

## docs: docs/addons.md's add-on table from the contract table (components/addons), and the programs the README,
## CONTRIBUTING.md and docs/*.md include from example files (<!-- include: path --> before a code block)
docs:
	$(GO) run ./provider/cmd/fleet-docs .

## sdks: the Go, TypeScript, Python and .NET SDKs under sdk/ from schema.json (Pulumi's codegen packages), and the
## Java SDK with pulumi-java's generator from its own tool module (provider/java)
sdks:
	$(GO) run ./provider/cmd/fleet-sdkgen schema.json sdk
	cd sdk/go/fleet && $(GO) mod tidy
	cd provider/java && $(JAVA_GO) run ./cmd/fleet-javagen $(CURDIR)/schema.json $(CURDIR)/sdk/java

## release-sdks: every SDK at version $(VERSION) under $(RELEASE_DIR)/sdk, from the schema with that version
## (fleet-schema -version), as the release workflow publishes them; the committed sdk/ stays unversioned
RELEASE_DIR ?= $(CURDIR)/.work/release
release-sdks:
	rm -rf $(RELEASE_DIR) && mkdir -p $(RELEASE_DIR)/sdk/go/fleet
	$(GO) run ./provider/cmd/fleet-schema -version $(VERSION) $(RELEASE_DIR)/schema.json
	cp sdk/go/fleet/go.mod sdk/go/fleet/go.sum $(RELEASE_DIR)/sdk/go/fleet/
	$(GO) run ./provider/cmd/fleet-sdkgen $(RELEASE_DIR)/schema.json $(RELEASE_DIR)/sdk
	cd provider/java && $(JAVA_GO) run ./cmd/fleet-javagen $(RELEASE_DIR)/schema.json $(RELEASE_DIR)/sdk/java

## release: the release checks (tests/release, its own module with GoReleaser v2 as a tool): goreleaser check, a
## snapshot release for this platform that the Pulumi CLI installs from the schema's pluginDownloadURL, the version
## stamped into the plugin and every SDK, the changelog's notes
release: cli java
	cd tests/release && $(GO) vet ./... && PULUMI_FLEET_CLI=$(CURDIR)/bin/pulumi $(GO) test -count=1 -timeout 30m ./...

## provider: the plugin binary bin/pulumi-resource-fleet, version $(VERSION), and the fleet command (bin/fleet: fleet status)
provider:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/pulumi-resource-fleet ./provider/cmd/pulumi-resource-fleet
	$(GO) build -o bin/fleet ./provider/cmd/fleet

## screenshot: docs/images/fleet-status.png, the fleet status page of provider/status's fixture as Chromium shows it
screenshot:
	FLEET_STATUS_SCREENSHOT=$(CURDIR)/docs/images/fleet-status.png $(GO) test -count=1 -run TestHTMLInChromium ./provider/status

## cli: the Pulumi CLI v$(PULUMI_VERSION) from tests/tools/cli's tool directive (it cannot be downloaded here)
cli: bin/pulumi
bin/pulumi: tests/tools/cli/go.mod tests/tools/cli/go.sum tests/tools/versions.mk
	$(call cached,cli,$^,bin/pulumi)
build-cli:
	cd tests/tools/cli && $(GO) build -ldflags "$(TOOL_LDFLAGS) -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$(PULUMI_VERSION)" \
		-o $(CURDIR)/bin/pulumi github.com/pulumi/pulumi/pkg/v3/cmd/pulumi

## emulators: the offline cloud's plugins (bin/emulator/pulumi-resource-{aws,kubernetes,github,awsx})
emulators:
	$(GO) build -ldflags "$(TOOL_LDFLAGS)" -o bin/emulator/ ./tests/emulator/cmd/...

## eks: the real pulumi-eks component provider from npm (tests/emulator/eks, run as pulumi-resource-eks)
eks: tests/emulator/eks/node_modules/.package-lock.json
tests/emulator/eks/node_modules/.package-lock.json: tests/emulator/eks/package.json tests/emulator/eks/package-lock.json
	$(call cached,eks,$^,tests/emulator/eks/node_modules)
build-eks:
	cd tests/emulator/eks && npm ci --no-audit --no-fund --omit=dev

## java: pulumi-java's language host bin/pulumi-language-java (from provider/java's tool directive), which runs Java
## programs and generates the Java SDK for `pulumi package add`
java: bin/pulumi-language-java
bin/pulumi-language-java: provider/java/go.mod provider/java/go.sum
	$(call cached,java,$^,bin/pulumi-language-java)
build-java:
	cd provider/java && $(JAVA_GO) build -ldflags "$(TOOL_LDFLAGS)" -o $(CURDIR)/bin/ github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java

## kube: the offline clusters' control plane in bin/kube: etcd, kube-apiserver, kube-controller-manager,
## kube-scheduler and kubectl $(KUBE_VERSION) (tests/tools/kube), kwok and kwokctl (tests/tools/kwok), aws-iam-authenticator
## $(AUTHENTICATOR_VERSION) (tests/tools/authenticator); built once per go.sum
KUBE_MINOR := $(word 2,$(subst ., ,$(KUBE_VERSION)))
KUBE_LDFLAGS := $(foreach pkg,k8s.io/component-base/version k8s.io/client-go/pkg/version,-X $(pkg).gitVersion=$(KUBE_VERSION) \
	-X $(pkg).gitMajor=1 -X $(pkg).gitMinor=$(KUBE_MINOR))
kube: bin/kube/kube-apiserver bin/kube/kwokctl bin/kube/aws-iam-authenticator
bin/kube/kube-apiserver: $(WORK_FILES)
	$(call cached,kube,$^,$(addprefix bin/kube/,kube-controller-manager kube-scheduler kubectl etcd kube-apiserver))
build-kube:
	cd tests/tools/kube && $(WORK_GO) build -ldflags "$(TOOL_LDFLAGS) $(KUBE_LDFLAGS)" -o $(CURDIR)/bin/kube/ k8s.io/kubernetes/cmd/kube-controller-manager \
		k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl
	cd tests/tools/kube && $(WORK_GO) build -ldflags "$(TOOL_LDFLAGS)" -o $(CURDIR)/bin/kube/etcd go.etcd.io/etcd/server/v3
	cd tests/tools/kube && $(WORK_GO) build -ldflags "$(TOOL_LDFLAGS) $(KUBE_LDFLAGS)" -o $(CURDIR)/bin/kube/ k8s.io/kubernetes/cmd/kube-apiserver
bin/kube/kwokctl: $(WORK_FILES)
	$(call cached,kwok,$^,bin/kube/kwok bin/kube/kwokctl)
build-kwok:
	cd tests/tools/kwok && $(WORK_GO) build -ldflags "$(TOOL_LDFLAGS)" -o $(CURDIR)/bin/kube/ sigs.k8s.io/kwok/cmd/kwok sigs.k8s.io/kwok/cmd/kwokctl
bin/kube/aws-iam-authenticator: $(WORK_FILES)
	$(call cached,authenticator,$^,bin/kube/aws-iam-authenticator)
build-authenticator:
	cd tests/tools/authenticator && $(WORK_GO) build -ldflags "$(TOOL_LDFLAGS) -X sigs.k8s.io/aws-iam-authenticator/pkg.Version=$(AUTHENTICATOR_VERSION)" \
		-o $(CURDIR)/bin/kube/ sigs.k8s.io/aws-iam-authenticator/cmd/aws-iam-authenticator

## kubeprovider: the real Pulumi Kubernetes provider bin/kube/pulumi-resource-kubernetes (tests/tools/kubeprovider), which
## reports version $(KUBE_PROVIDER_VERSION), the version the fleet's SDK asks for
kubeprovider: bin/kube/pulumi-resource-kubernetes
bin/kube/pulumi-resource-kubernetes: tests/tools/kubeprovider/go.mod tests/tools/kubeprovider/go.sum tests/tools/kubeprovider/main.go \
		tests/tools/kubeprovider/cmd/kubeprovider-schema/main.go
	$(call cached,kubeprovider,$^,bin/kube/pulumi-resource-kubernetes)
build-kubeprovider:
	cd tests/tools/kubeprovider && $(GO) mod download github.com/pulumi/pulumi-kubernetes/provider/v4 && \
		$(GO) run ./cmd/kubeprovider-schema \
		"$$($(GO) list -m -f '{{.Dir}}' github.com/pulumi/pulumi-kubernetes/provider/v4)" $(KUBE_PROVIDER_VERSION) .
	cd tests/tools/kubeprovider && $(GO) build -ldflags "$(TOOL_LDFLAGS) -X github.com/pulumi/pulumi-kubernetes/provider/v4/pkg/version.Version=$(KUBE_PROVIDER_VERSION)" \
		-o $(CURDIR)/bin/kube/pulumi-resource-kubernetes .

## argocd: Argo CD $(ARGOCD_VERSION) (bin/argocd/argocd: the application controller, ApplicationSet controller, repo
## server and argocd-k8s-auth in one binary, run by name, and the wrapper scripts its image puts beside it) and the
## Helm $(HELM_VERSION) its repo server renders charts with (tests/tools/argocd). The hub's chart 10.1.1 pins Argo CD v3.4.4, which cannot be built here (see tests/tools/argocd/doc.go)
argocd: bin/argocd/argocd bin/argocd/gpg-wrapper.sh
bin/argocd/argocd: $(WORK_FILES)
	$(call cached,argocd,$^,$(addprefix bin/argocd/,argocd helm argocd-application-controller argocd-applicationset-controller \
		argocd-repo-server argocd-k8s-auth))
build-argocd:
	cd tests/tools/argocd && $(WORK_GO) build -ldflags "$(TOOL_LDFLAGS) -X github.com/argoproj/argo-cd/v3/common.version=$(ARGOCD_VERSION:v%=%)" \
		-o $(CURDIR)/bin/argocd/argocd github.com/argoproj/argo-cd/v3/cmd
	cd tests/tools/argocd && $(WORK_GO) build -ldflags "$(TOOL_LDFLAGS) -X helm.sh/helm/v4/internal/version.version=$(HELM_VERSION)" \
		-o $(CURDIR)/bin/argocd/helm helm.sh/helm/v4/cmd/helm
	for name in argocd-application-controller argocd-applicationset-controller argocd-repo-server argocd-k8s-auth; do \
		ln -sf argocd $(CURDIR)/bin/argocd/$$name; done
bin/argocd/gpg-wrapper.sh: bin/argocd/argocd
	mkdir -p bin/argocd
	cd tests/tools/argocd && $(WORK_GO) mod download github.com/argoproj/argo-cd/v3 && \
		dir="$$($(WORK_GO) list -m -f '{{.Dir}}' github.com/argoproj/argo-cd/v3)" && \
		install -m 0755 "$$dir/hack/git-verify-wrapper.sh" "$$dir/hack/gpg-wrapper.sh" $(CURDIR)/bin/argocd/

## offline: everything an offline run needs: CLI, fleet plugin, emulators, pulumi-eks, the Java language host, the
## clusters' control plane, the real Kubernetes provider and Argo CD
offline: cli provider emulators eks java kube kubeprovider argocd

## demo: the dev fleet (examples/fleet) through the real CLI and engine on the offline cloud, with a real Kubernetes
## control plane behind each cluster (KUBE=emulated for none): preview, then up
demo: prerequisites demo-notice offline
	$(GO) run ./tests/offline/cmd/fleet-demo -stack $(STACK) -kube $(KUBE)

## prerequisites: the programs the README's two commands need, all missing ones named at once (tests/prerequisites.sh)
prerequisites:
	@bash tests/prerequisites.sh

demo-notice:
	@echo "make demo: building what an offline run needs (the Pulumi CLI $(PULUMI_VERSION) from source, the fleet plugin,"
	@echo "  the offline cloud's plugins, pulumi-eks from npm, pulumi-java's language host, Kubernetes $(KUBE_VERSION)'s"
	@echo "  control plane, kwok, the Kubernetes provider and Argo CD). On a fresh machine the first run downloads and compiles"
	@echo "  for about 25-35 minutes on 2 cores; later runs take about a minute."

## peer: the benchmarks' TypeScript peer (bench/peer: @pulumi/eks and @pulumi/awsx from npm, compiled with tsc)
peer: bench/peer/bin/run.js
bench/peer/bin/run.js: bench/peer/package.json bench/peer/package-lock.json bench/peer/fleet.ts bench/peer/run.ts
	cd bench/peer && npm ci --no-audit --no-fund --loglevel=error && npx tsc

## bench: the benchmarks (bench/cmd/fleet-bench): the guard, fleet status, the rollout and the runs at size below,
## then construction under mocks, plugin cold start, preview and up of 3, 15 and 45 clusters for the fleet, the floor
## and the TypeScript peer, profiles; report in bench/results. The session comes last: report.md's targets judge
## what the runs before it wrote (report.AtSizeTargets).
bench: offline peer
	$(GO) build -o bin/fleet-bench ./bench/cmd/fleet-bench
	$(MAKE) bench-guards
	$(MAKE) bench-status
	./bin/fleet-bench -rollout 15 -out bench/results
	./bin/fleet-bench -at-size $(AT_SIZE) -out bench/results
	./bin/fleet-bench -argocd-at-size $(ARGOCD_AT_SIZE) -out bench/results
	./bin/fleet-bench -out bench/results $(BENCHFLAGS)

## bench-at-size: the fleet at about 100 and 200 clusters (10 shards of 10 spokes, 14 of 15, and the hub), a hub stack
## and shard stacks one after another on the offline cloud; in bench/results/at-size.md (and at-size.json, which
## report.md's targets read)
AT_SIZE := 10x10,14x15
bench-at-size: offline
	$(GO) build -o bin/fleet-bench ./bench/cmd/fleet-bench
	./bin/fleet-bench -at-size $(AT_SIZE) -out bench/results

## bench-argocd-at-size: Argo CD's own controllers on a hub with 100 and 200 clusters registered (a control plane
## per 25 clusters, the others at shared endpoints), sharded as Fleet plans; report bench/results/argocd-at-size.md
## (and argocd-at-size.json, which report.md's targets read)
ARGOCD_AT_SIZE := 100,200
bench-argocd-at-size: offline
	$(GO) build -o bin/fleet-bench ./bench/cmd/fleet-bench
	./bin/fleet-bench -argocd-at-size $(ARGOCD_AT_SIZE) -out bench/results

## bench-rollout: fleet rollout over 15 clusters on real API servers with Argo CD, in 3 waves: a good add-ons commit
## to every wave, a bad one to its wave and back; in bench/results/rollout.md
bench-rollout: offline
	$(GO) build -o bin/fleet-bench ./bench/cmd/fleet-bench
	./bin/fleet-bench -rollout 15 -out bench/results

## bench-status: fleet status's EKS reads of 10, 50 and 200 clusters, each AWS call taking 50 ms (provider/status's
## BenchmarkWithEKSAtSize), and a whole status of 200 clusters in five stacks read through the CLI
## (BenchmarkCollectAtSize; goal 60 s); in bench/results/status.txt
bench-status: cli
	PULUMI_FLEET_CLI=$(CURDIR)/bin/pulumi $(GO) test -run '^$$' -bench 'WithEKSAtSize|CollectAtSize' -benchtime 3x -count 3 \
		./provider/status/ | grep -E '^(Benchmark|goos|goarch|cpu)' > bench/results/status.txt

## bench-guards: the hub's cluster-secret guard at 10, 50 and 200 spokes through Kubernetes' admission code
## (tests/contract): one admission's latency, the policy's bytes and its largest expression, and one compile of the
## policy (what the API server and the controller manager spend on each update of it); in bench/results/guards.txt
bench-guards:
	cd tests/contract && $(WORK_GO) test -run '^$$' -bench ClusterSecretAdmission -benchtime 200x -count 3 . \
		| grep -E '^(Benchmark|goos|goarch|cpu)' > ../../bench/results/guards.txt
	cd tests/contract && $(WORK_GO) test -run '^$$' -bench ClusterSecretGuardCompile -benchtime 5x -count 3 . \
		| grep -E '^Benchmark' >> ../../bench/results/guards.txt
