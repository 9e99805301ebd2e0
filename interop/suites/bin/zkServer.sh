#!/usr/bin/env bash
# Stand-in for ZooKeeper's zkServer.sh, for go-zookeeper/zk's test harness:
# `zkServer.sh start-foreground ZOO_CFG` runs mwzk-server in the foreground
# (exec: the harness's SIGKILL/SIGTERM reaches the server itself).
# SERVER_JVMFLAGS' -D properties are translated like the JVM's (see java).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
server=${MWZK_SERVER:-$here/../../../bin/mwzk-server}
[[ ${1:-} == start-foreground && -n ${2:-} ]] ||
	{ echo "zkServer.sh (mwzk shim): only 'start-foreground ZOO_CFG' is supported" >&2; exit 2; }
[[ -x $server ]] || { echo "zkServer.sh (mwzk shim): no mwzk-server at $server (make build)" >&2; exit 2; }
props=$(dirname "$2")/mwzk.properties
# Word-splitting of the flags is wanted, as in zkServer.sh.
# shellcheck disable=SC2086
"$here/../zkcfg2props.sh" "$2" "$props" ${SERVER_JVMFLAGS:-} ${JVMFLAGS:-}
exec "$server" --config "$props"
