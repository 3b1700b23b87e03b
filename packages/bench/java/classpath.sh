# Sourced by bench.sh and codec.sh: makes sure the IoTDB jars are cached (the package's scripts/iotdb-local.sh
# install; needs java, javac and mvn) and compiles its arguments (.java files next to this one, the first the main
# class) into $CLS; sets LIB and CLS.
# $CLS is named by what it is compiled from (the sources' and the jars' names hashed), so that a run whose sources
# were compiled before starts its JVM at once (javac is 3-5 s of two cores); compiled into a directory of its own
# and renamed into place, so that runs compiling at the same time do not see each other's half-written classes.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bash "$HERE/../scripts/iotdb-local.sh" install >/dev/null
LIB=${IOTDB_CACHE:-$HOME/.cache/iotdb-local}/${IOTDB_VERSION:-2.0.1-beta}/lib
KEY=$( (cd "$HERE" && cat "$@" && ls "$LIB") | sha256sum | cut -c1-16)
CLS=${TMPDIR:-/tmp}/iotdb-bench-java-$(basename "$1" .java)-$KEY
if [ ! -d "$CLS" ]; then
  BUILD=$(mktemp -d "$CLS.XXXXXX")
  javac -nowarn -d "$BUILD" -cp "$LIB/*" "${@/#/$HERE/}" || { rm -rf "$BUILD"; exit 1; }
  mv -T "$BUILD" "$CLS" 2>/dev/null || rm -rf "$BUILD" # another run put the same classes there first
fi
