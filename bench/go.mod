module go-spinbit.dev/bench

go 1.23
