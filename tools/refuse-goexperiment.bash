# Sourced by make.bash, test.bash and bench.bash, which may build the fork:
# refuse GOEXPERIMENT in the environment. Go's src/make.bash would make it
# the default of the toolchain it builds, with nothing in the version to
# show it; and the go on PATH, which builds the tools, may not know the
# experiment at all (go1.25 and later have no spinbitmutex). The tools
# refuse it too (fork.CheckBuildEnv), for when they are run directly.
refuse_goexperiment() { # $1: the script's name, for the message
	if [ -n "${GOEXPERIMENT:-}" ]; then
		echo "$1: GOEXPERIMENT=$GOEXPERIMENT is set in the environment: building the fork with it would make it the toolchain's default." >&2
		echo "$1: unset it (env -u GOEXPERIMENT ./$1 ...); to build a program with it, set it when you run goroot/<release>/bin/go instead" >&2
		exit 1
	fi
}
