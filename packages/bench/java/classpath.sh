# Sourced by bench.sh and codec.sh: makes sure the IoTDB jars are cached (the package's scripts/iotdb-local.sh
# install; needs java, javac and mvn) and compiles its arguments (.java files next to this one, the first the main
# class) into $CLS; sets LIB and CLS.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bash "$HERE/../scripts/iotdb-local.sh" install >/dev/null
LIB=${IOTDB_CACHE:-$HOME/.cache/iotdb-local}/${IOTDB_VERSION:-2.0.1-beta}/lib
CLS=${TMPDIR:-/tmp}/iotdb-bench-java-$(basename "$1" .java); mkdir -p "$CLS"
javac -nowarn -d "$CLS" -cp "$LIB/*" "${@/#/$HERE/}"
