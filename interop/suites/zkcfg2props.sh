#!/usr/bin/env bash
# zkcfg2props.sh ZOO_CFG OUT_PROPERTIES [-Dkey=value ...]
#
# Translates a ZooKeeper zoo.cfg (as the clients' test harnesses write it)
# and the JVM's -D system properties into an mwzk-server properties file.
# Both shims (bin/zkServer.sh, bin/java) use it, so they translate alike.
set -euo pipefail

cfg=${1:?usage: zkcfg2props.sh ZOO_CFG OUT_PROPERTIES [-Dk=v ...]}
out=${2:?usage: zkcfg2props.sh ZOO_CFG OUT_PROPERTIES [-Dk=v ...]}
shift 2
[[ -r $cfg ]] || { echo "zkcfg2props: cannot read $cfg" >&2; exit 2; }

declare -A kv=()
servers=()
while IFS= read -r line || [[ -n $line ]]; do
	line=${line%$'\r'}
	[[ $line =~ ^[[:space:]]*(#|$) ]] && continue
	key=${line%%=*}; val=${line#*=}
	key=${key//[[:space:]]/}
	val=${val#"${val%%[![:space:]]*}"}; val=${val%"${val##*[![:space:]]}"}
	if [[ $key =~ ^server\.([0-9]+)$ ]]; then
		servers+=("${BASH_REMATCH[1]}=$val")
	else
		kv[$key]=$val
	fi
done <"$cfg"

datadir=${kv[dataDir]:?zoo.cfg $cfg has no dataDir}
# myid: the config's, else dataDir/myid (as ZooKeeper), else 1 (standalone).
myid=${kv[myid]:-}
[[ -z $myid && -r $datadir/myid ]] && myid=$(tr -d '[:space:]' <"$datadir/myid")
myid=${myid:-1}

{
	echo "# Written by interop/suites/zkcfg2props.sh from $cfg"
	echo "myid=$myid"
	echo "clientPort=${kv[clientPort]:?zoo.cfg $cfg has no clientPort}"
	# server.N=host:quorumPort:electionPort[:role][;client]: Zab needs one port
	# per peer; the quorum port is free (ZooKeeper would use it too).
	for s in "${servers[@]}"; do
		id=${s%%=*}; addr=${s#*=}; addr=${addr%%;*}
		IFS=: read -r host qport _ <<<"$addr"
		[[ $host == localhost ]] && host=127.0.0.1
		echo "peer$id=$host:$qport"
	done
	# Own folders below dataDir: the harnesses wipe dataDir to reset a server.
	echo "dataLogDir=$datadir/mwzk/log"
	echo "dataSnapDir=$datadir/mwzk/snap"
	echo "log.level=${MWZK_LOG_LEVEL:-WARN}"
	# Keys of the same name and meaning that mwzk-server knows.
	for k in tickTime initLimit syncLimit snapCount maxClientCnxns minSessionTimeout \
		maxSessionTimeout clientPortAddress 4lw.commands.whitelist admin.serverPort; do
		[[ -n ${kv[$k]+x} ]] && echo "$k=${kv[$k]}"
	done
	# JVM system properties that mean a server setting: keys of the same name.
	for d in "$@"; do
		[[ $d == -D* ]] || continue
		d=${d#-D}; k=${d%%=*}; v=${d#*=}
		case $k in
		zookeeper.DigestAuthenticationProvider.superDigest | readonlymode.enabled | \
			zookeeper.extendedTypesEnabled | zookeeper.emulate353TTLNodes)
			echo "$k=$v" ;;
		java.security.auth.login.config)
			# JAAS DigestLoginModule users: user_<name>="<password>";
			users=$(sed -n 's/^[[:space:]]*user_\([^=[:space:]]*\)[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1:\2/p' "$v" 2>/dev/null | paste -sd, -)
			[[ -n $users ]] && echo "sasl.users=$users" ;;
		esac
	done
} >"$out.tmp"
# admin.enableServer=false wins over admin.serverPort, as in ZooKeeper.
[[ ${kv[admin.enableServer]:-true} == false ]] && sed -i '/^admin\.serverPort=/d' "$out.tmp"
mv "$out.tmp" "$out"
