module go-spinbit.dev/tools

go 1.22.0

require (
	github.com/tetratelabs/wazero v1.9.0
	golang.org/x/perf v0.0.0-20241204221936-711ff2ab7231
)

require github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
