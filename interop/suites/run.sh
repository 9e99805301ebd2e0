#!/usr/bin/env bash
# run.sh gozk|kazoo ours|zookeeper
#
# Runs a real client's own test suite against our server (mwzk-server, via
# the shims in bin/) or against Apache ZooKeeper 3.8 (Debian package), and
# prints one summary line:  <suite> <server>: N passed, M failed, K skipped (names...)
# The full log is kept in $SUITES_OUT (default: a mktemp folder, printed).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
suite=${1:-}; target=${2:-}
usage() { echo "usage: run.sh gozk|kazoo ours|zookeeper" >&2; exit 2; }
die() { echo "run.sh: $*" >&2; exit 2; }
[[ $suite =~ ^(gozk|kazoo)$ && $target =~ ^(ours|zookeeper)$ ]] || usage
need() { command -v "$1" >/dev/null || die "$1 not found: $2"; }

ZK_BIN=${ZK_BIN:-/usr/share/zookeeper/bin}     # Debian's zkServer.sh
ZK_JAR=${ZK_JAR:-/usr/share/java/zookeeper.jar} # its Class-Path names the other jars
GOZK_VERSION=v1.0.4
KAZOO_TESTS=${KAZOO_TESTS:-/usr/lib/python3/dist-packages/kazoo/tests}
PY=${PY:-/usr/bin/python3}

if [[ $target == ours ]]; then
	export MWZK_SERVER=${MWZK_SERVER:-$repo/bin/mwzk-server}
	[[ -x $MWZK_SERVER ]] || die "no $MWZK_SERVER: run make build first"
else
	[[ -x $ZK_BIN/zkServer.sh && -r $ZK_JAR ]] || die "Apache ZooKeeper not found ($ZK_BIN, $ZK_JAR): apt-get install zookeeper"
fi

tmp=$(mktemp -d -t mwzk-suites.XXXXXX)
out=${SUITES_OUT:-$tmp/out}; mkdir -p "$out"
log=$out/$suite-$target.log
# Servers the harness left running (a killed run skips its cleanup) carry
# $tmp in their command line: end those, then remove $tmp (unless it holds the log).
cleanup() {
	local pids
	pids=$(pgrep -f -- "$tmp/" || true)
	[[ -n $pids ]] && kill $pids 2>/dev/null || true
	if [[ -z ${SUITES_OUT:-} ]]; then find "$tmp" -mindepth 1 -maxdepth 1 ! -name out -exec rm -rf {} +; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
export TMPDIR=$tmp
start=$SECONDS

case $suite in
gozk)
	need go "install Go"
	src=$(go env GOMODCACHE)/github.com/go-zookeeper/zk@$GOZK_VERSION
	[[ -d $src ]] || die "$src missing: go mod download github.com/go-zookeeper/zk@$GOZK_VERSION"
	# The module cache is read-only: test a writable copy.
	cp -r "$src" "$tmp/zk" && chmod -R u+w "$tmp/zk"
	# Harness fix for both servers: wait for srvr's Mode, not FLWSrvr's
	# version parse, which fails on Debian's ZooKeeper (gozk_health_test.go.txt).
	cp "$here/gozk_health_test.go.txt" "$tmp/zk/mwzk_health_test.go"
	sed -i 's/_, ok := FLWSrvr(serverAddrs, time.Second)/_, ok := srvrServing(serverAddrs, time.Second)/' "$tmp/zk/server_help_test.go"
	grep -q srvrServing "$tmp/zk/server_help_test.go" || die "could not patch the harness's health check"
	if [[ $target == ours ]]; then bindir=$here/bin; else bindir=$ZK_BIN; fi
	# ZK_VERSION: the reconfig tests skip without it.
	(cd "$tmp/zk" && ZK_VERSION=3.8.0 ZOOKEEPER_BIN_PATH=$bindir GOFLAGS=-mod=mod GOPROXY=off \
		go test -count=1 -v -timeout "${GOZK_TIMEOUT:-20m}" -run TestIntegration .) >"$log" 2>&1 || true
	# Top-level results only (subtests are indented).
	pass=$(grep -c '^--- PASS' "$log" || true)
	fail=$(grep -c '^--- FAIL' "$log" || true)
	skip=$(grep -c '^--- SKIP' "$log" || true)
	names=$(sed -n 's/^--- FAIL: \([^ ]*\).*/\1/p' "$log" | paste -sd' ' -)
	if grep -q '^panic:\|^FAIL.*\[build failed\]' "$log"; then names="$names PANIC/BUILD-FAILED(see log)"; fi
	;;
kazoo)
	"$PY" -m pytest --version >/dev/null 2>&1 || die "pytest missing for $PY: apt-get install python3-pytest"
	"$PY" -c 'import mock, objgraph' 2>/dev/null || die "mock or objgraph missing for $PY (kazoo's tests import them): apt-get install python3-mock python3-objgraph"
	[[ -d $KAZOO_TESTS ]] || die "$KAZOO_TESTS missing: apt-get install python3-kazoo"
	export ZOOKEEPER_VERSION=3.8.0 ZOOKEEPER_CLASSPATH=$ZK_JAR
	export ZOOKEEPER_PORT_OFFSET=${ZOOKEEPER_PORT_OFFSET:-20000}
	unset ZOOKEEPER_PATH ZOOKEEPER_JAAS_AUTH
	if [[ $target == ours ]]; then export PATH=$here/bin:$PATH; fi # our java shim first
	# No bytecode or cache written into the system's kazoo.
	(cd "$tmp" && PYTHONDONTWRITEBYTECODE=1 timeout --kill-after=30s "${KAZOO_TIMEOUT:-40m}" \
		"$PY" -m pytest -p no:cacheprovider -rfEs -q --rootdir="$tmp" "$KAZOO_TESTS") >"$log" 2>&1 || true
	# pytest -q's last line: "1 failed, 475 passed, 3 skipped, 494 warnings in 120.59s"
	last=$(grep -E '^(=+ )?[0-9]+ (passed|failed|errors?|skipped).* in [0-9.]+s' "$log" | tail -1 || true)
	count() { grep -oE "[0-9]+ $1" <<<"$last" | grep -oE '^[0-9]+' || echo 0; }
	pass=$(count passed); fail=$(( $(count failed) + $(count error) )); skip=$(count skipped)
	names=$(sed -nE 's/^(FAILED|ERROR) [^:]*::([^ ]*).*/\2/p' "$log" | sort -u | paste -sd' ' -)
	if [[ -z $last ]]; then names="$names NO-SUMMARY(timeout or crash, see log)"; fi
	;;
esac
echo "$suite $target: $pass passed, $fail failed, $skip skipped in $((SECONDS - start))s${names:+ ($names)}"
echo "log: $log" >&2
