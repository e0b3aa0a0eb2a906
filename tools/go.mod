module go-spinbit.dev/tools

go 1.22
